// swift-tools-version:6.0
import PackageDescription

/// Release builds link the Swift runtime statically so the daemon carries no
/// shared Swift libraries and stays small in memory.
let staticStdlib: [LinkerSetting] = [
  .unsafeFlags(["-static-stdlib"], .when(configuration: .release))
]

let package = Package(
  name: "orientd",
  products: [
    .executable(name: "orientd", targets: ["orientd"]),
    .executable(name: "orientctl", targets: ["orientctl"]),
    .executable(name: "orientd-bench", targets: ["orientd-bench"]),
  ],
  targets: [
    .systemLibrary(
      name: "CIIO",
      pkgConfig: "libiio",
      providers: [.apt(["libiio-dev"])]
    ),
    .systemLibrary(
      name: "CUdev",
      pkgConfig: "libudev",
      providers: [.apt(["libudev-dev"])]
    ),
    .target(name: "CLinux"),
    .target(
      name: "OrientCore",
      // Rounding and square roots come from libm, which nothing else links in.
      linkerSettings: [.linkedLibrary("m")]
    ),
    .target(
      name: "OrientSystem",
      dependencies: ["CLinux"]
    ),
    .target(
      name: "OrientIO",
      dependencies: ["OrientCore", "OrientSystem", "CIIO", "CUdev", "CLinux"]
    ),
    .target(
      name: "OrientClient",
      dependencies: ["OrientCore", "OrientSystem"]
    ),
    .executableTarget(
      name: "orientctl",
      dependencies: ["OrientClient"],
      linkerSettings: staticStdlib
    ),
    .executableTarget(
      name: "orientd",
      dependencies: ["OrientCore", "OrientIO"],
      linkerSettings: staticStdlib
    ),
    .executableTarget(
      name: "orientd-bench",
      dependencies: ["OrientCore", "OrientSystem", "CLinux"]
    ),
    .testTarget(
      name: "OrientCoreTests",
      dependencies: ["OrientCore"]
    ),
    .target(
      name: "CSeccompTestSupport",
      path: "Tests/CSeccompTestSupport"
    ),
    .testTarget(
      name: "OrientSystemTests",
      dependencies: ["OrientSystem", "CSeccompTestSupport"]
    ),
    .testTarget(
      name: "OrientdTests",
      dependencies: ["OrientCore", "CLinux", "orientd", "orientctl"]
    ),
  ]
)
