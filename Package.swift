// swift-tools-version:6.0
import PackageDescription

/// Release builds link the Swift runtime statically so the daemon carries no
/// shared Swift libraries and stays small in memory.
let staticStdlib: [LinkerSetting] = [
  .unsafeFlags(["-static-stdlib"], .when(configuration: .release))
]

/// The daemon's release link. lld packs its 20 000-odd relative relocations into a few kB
/// (DT_RELR, which Debian 12's glibc 2.36 applies) instead of half a megabyte of RELA entries
/// that the loader reads at every start; no Swift symbol is exported to the dynamic symbol
/// table (nothing loads orientd as a library); and the functions a running daemon calls are
/// laid out together, in the order of `Sources/orientd/orientd.order` (written by
/// `scripts/profile-order` from a profile), so they sit on few pages. See BENCHMARKS.md,
/// "Memory".
let daemonLink: [LinkerSetting] = [
  .unsafeFlags(
    [
      "-static-stdlib", "-use-ld=lld",
      "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
      "-Xlinker", "--no-export-dynamic",
      "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/orientd/orientd.order",
      "-Xlinker", "--no-warn-symbol-ordering",
    ],
    .when(configuration: .release))
]

/// Each function in a section of its own in release builds, so that the daemon's link can
/// place it by the ordering file.
let functionSections: [SwiftSetting] = [
  .unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))
]

// The layers, from the bottom: OrientCore (the pure domain) and OrientSystem (the one
// syscall layer); OrientConfig (options, config file, help) over the core; OrientIIO (libiio
// and udev: sensors and capture), OrientHooks (running hook programs, shared with orientctl)
// and OrientInput (switches through libudev and libevdev) over both; OrientBus (sd-bus on the
// event loop) over OrientSystem; OrientDaemon (threads, loops, socket, state) over all of
// them; OrientClient for orientctl. The executables are thin. ARCHITECTURE.md has the picture.
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
      exclude: ["orientd.order"],
      linkerSettings: daemonLink
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
    // The shells in process: the socket server, its sessions and the hook runner served on an
    // event loop in the test process, over real sockets in scratch directories, with a
    // scripted daemon (`SessionHost`) and clock; the D-Bus service on a scripted bus
    // (`ServiceBus`). ARCHITECTURE.md, "Testing", says how to add one.
    .testTarget(
      name: "OrientDaemonTests",
      dependencies: ["OrientDaemon", "OrientCore", "OrientSystem", "OrientHooks", "OrientBus"]
    ),
    .testTarget(
      name: "OrientInputTests",
      dependencies: ["OrientInput", "OrientCore", "OrientSystem"]
    ),
    .testTarget(
      name: "OrientHooksTests",
      dependencies: ["OrientHooks", "OrientCore", "OrientSystem"]
    ),
    .testTarget(
      name: "OrientClientTests",
      dependencies: ["OrientClient", "OrientCore", "OrientSystem"]
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
      dependencies: [
        "OrientCore", "OrientSystem", "OrientClient", "orientd", "orientctl", "orientd-testbench",
      ]
    ),
  ]
)

for target in package.targets where target.type == .regular || target.type == .executable {
  if target.name == "CLinux" {
    target.cSettings = [.unsafeFlags(["-ffunction-sections"], .when(configuration: .release))]
  } else {
    target.swiftSettings = (target.swiftSettings ?? []) + functionSections
  }
}
