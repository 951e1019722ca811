// swift-tools-version:6.0
import PackageDescription

/// Release builds link the Swift runtime statically so the daemon carries no
/// shared Swift libraries and stays small in memory.
let staticStdlib: [LinkerSetting] = [
  .unsafeFlags(["-static-stdlib"], .when(configuration: .release))
]

// The layers, from the bottom: OrientCore (the pure domain) and OrientSystem (the one
// syscall layer); OrientConfig (options, config file, help) over the core; OrientIIO (libiio
// and udev: sensors and capture) and OrientHooks (running hook programs, shared with
// orientctl) over both; OrientBus (sd-bus on the event loop) over OrientSystem; OrientDaemon
// (threads, loops, socket, state) over all of them; OrientClient for orientctl. The executables are thin. ARCHITECTURE.md has the picture.
let package = Package(
  name: "orientd",
  // What the package ships. orientd-bench and orientd-testbench are executable targets of
  // this package only (`swift run orientd-bench` builds it all the same).
  products: [
    .executable(name: "orientd", targets: ["orientd"]),
    .executable(name: "orientctl", targets: ["orientctl"]),
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
    .systemLibrary(
      name: "CSystemd",
      pkgConfig: "libsystemd",
      providers: [.apt(["libsystemd-dev"])]
    ),
    .systemLibrary(
      name: "CEvdev",
      pkgConfig: "libevdev",
      providers: [.apt(["libevdev-dev"])]
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
      name: "OrientConfig",
      dependencies: ["OrientCore"]
    ),
    .target(
      name: "OrientIIO",
      dependencies: ["OrientCore", "OrientSystem", "CIIO", "CUdev"]
    ),
    .target(
      name: "OrientHooks",
      dependencies: ["OrientCore", "OrientSystem"]
    ),
    // A target of its own so that only what speaks D-Bus links libsystemd: orientctl and the
    // tests of the other layers use OrientSystem without it.
    .target(
      name: "OrientBus",
      dependencies: ["OrientSystem", "CSystemd"]
    ),
    // Input switches (tablet mode, lid) and the virtual tablet-mode switch, through libudev
    // and libevdev.
    .target(
      name: "OrientInput",
      dependencies: ["OrientCore", "OrientSystem", "CUdev", "CEvdev"]
    ),
    .target(
      name: "OrientDaemon",
      dependencies: [
        "OrientCore", "OrientConfig", "OrientSystem", "OrientIIO", "OrientHooks", "OrientBus", "OrientInput",
      ]
    ),
    .target(
      name: "OrientClient",
      dependencies: ["OrientCore", "OrientSystem", "OrientHooks"]
    ),
    .executableTarget(
      name: "orientctl",
      dependencies: ["OrientClient"],
      linkerSettings: staticStdlib
    ),
    .executableTarget(
      name: "orientd",
      dependencies: ["OrientDaemon"],
      linkerSettings: staticStdlib
    ),
    // Figures for BENCHMARKS.md: `swift run -c release orientd-bench`.
    .executableTarget(
      name: "orientd-bench",
      dependencies: ["OrientCore", "OrientSystem", "OrientIIO", "OrientDaemon"]
    ),
    .testTarget(
      name: "OrientCoreTests",
      dependencies: ["OrientCore"]
    ),
    .testTarget(
      name: "OrientConfigTests",
      dependencies: ["OrientConfig", "OrientCore"]
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
      name: "OrientBusTests",
      dependencies: ["OrientBus", "OrientSystem"]
    ),
    .testTarget(
      name: "OrientIIOTests",
      dependencies: ["OrientIIO", "OrientSystem"]
    ),
    // The hostile clients, the fake iiod and the input probes that OrientdTests (and
    // benchmarks/attacks.sh) run: a program of the tests', in no product.
    .executableTarget(
      name: "orientd-testbench",
      dependencies: ["OrientCore", "OrientSystem", "OrientInput", "CSystemd"],
      path: "Tests/TestBench"
    ),
    .testTarget(
      name: "OrientdTests",
      dependencies: ["OrientCore", "OrientSystem", "orientd", "orientctl", "orientd-testbench"]
    ),
  ]
)
