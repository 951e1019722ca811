import Foundation
import Testing

@testable import OrientCore

/// A directory of stand-ins for xrandr, xinput, swaymsg, hyprctl, kscreen-doctor and
/// wlr-randr: queries print a canned laptop-with-external-monitor setup, everything else
/// is recorded, one call per line, arguments separated by `|`.
struct DesktopStubs {
  let directory: String
  let log: String

  init() throws {
    directory = try Scratch.current().makeDirectory("stubs")
    log = directory + "/calls.log"
    let record = "printf '%s' \"$(basename \"$0\")\" >> \(log); printf '|%s' \"$@\" >> \(log); echo >> \(log)"
    let stubs: [String: (query: String, output: String)] = [
      "xrandr": (
        "--query",
        "Screen 0: minimum 8 x 8\\nHDMI-1 disconnected (normal left inverted right)\\n"
          + "eDP-1 connected primary 1920x1200+0+0 (normal left inverted right) 302mm x 189mm\\n   1920x1200 60.00*+\\n"
      ),
      "swaymsg": (
        "-t",
        "[ {\\\"name\\\": \\\"HDMI-A-1\\\", \\\"make\\\": \\\"Dell\\\"}, {\\\"name\\\": \\\"eDP-1\\\", \\\"make\\\": \\\"BOE\\\"} ]\\n"
      ),
      "hyprctl": (
        "monitors",
        "Monitor HDMI-A-1 (ID 1):\\n\\t2560x1440@59.95100 at 1920x0\\n\\tscale: 1.00\\n"
          + "Monitor eDP-1 (ID 0):\\n\\t2880x1800@90.00100 at 0x0\\n\\tdescription: BOE 0x0AF8\\n\\tscale: 1.50\\n\\ttransform: 0\\n"
      ),
      "kscreen-doctor": (
        "--outputs",
        "\\u{1b}[01;32mOutput: \\u{1b}[0;0m1 HDMI-A-1 enabled connected\\nOutput: 2 eDP-1 enabled connected priority 1\\n"
      ),
      // wlr-randr's main.c prints each head's modes, the current one marked.
      "wlr-randr": (
        "",
        "HDMI-A-1 \\\"Dell Inc.\\\"\\n  Enabled: yes\\n  Modes:\\n    2560x1440 px, 59.951000 Hz (preferred, current)\\n"
          + "eDP-1 \\\"BOE 0x0AF8\\\"\\n  Enabled: yes\\n  Modes:\\n    2880x1800 px, 90.001000 Hz (preferred, current)\\n"
      ),
    ]
    for (name, stub) in stubs {
      // hyprctl prints Hyprland's reply, "ok" for a command it took.
      let reply = name == "hyprctl" ? "\necho ok" : ""
      let script = """
        #!/bin/sh
        if [ "${1:-}" = "\(stub.query)" ]; then printf "\(stub.output)"; exit 0; fi
        \(record)\(reply)
        """
      let path = directory + "/" + name
      try script.write(toFile: path, atomically: true, encoding: .utf8)
      chmod(path, 0o755)
    }
    // xinput lists ids, then names by id, as `xinput --list --id-only` and
    // `xinput --list --name-only ID` do (xinput(1)). A touchscreen and its keyboard half share
    // one name; the keyboard has no transformation matrix, so set-prop fails on it.
    let xinput = """
      #!/bin/sh
      case "$*" in
        "--list --id-only") printf '2\\n11\\n12\\n13\\n14\\n'; exit 0 ;;
        "--list --name-only 2") echo "Virtual core pointer"; exit 0 ;;
        "--list --name-only 11") echo "Wacom HID 5215 Pen stylus"; exit 0 ;;
        "--list --name-only 12") echo "ELAN Touchscreen"; exit 0 ;;
        "--list --name-only 13") echo "ELAN Touchscreen"; exit 0 ;;
        "--list --name-only 14") echo "AT Translated Set 2 keyboard"; exit 0 ;;
      esac
      \(record)
      if [ "${2:-}" = 13 ]; then echo "property 'Coordinate Transformation Matrix' doesn't exist" >&2; exit 1; fi
      """
    try xinput.write(toFile: directory + "/xinput", atomically: true, encoding: .utf8)
    chmod(directory + "/xinput", 0o755)
  }

  /// The calls recorded so far.
  var calls: [String] {
    ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
  }

  /// An environment for a hook: the stubs first on PATH, the variables for `orientation`.
  func environment(for orientation: String, extra: [String: String] = [:]) -> [String: String] {
    var environment = ["PATH": directory + ":/usr/bin:/bin", "HOME": directory]
    // The values orientd itself gives hooks: the tests below check them against each
    // compositor's own source, not against a copy of orientd's table.
    let screen = ScreenOrientation(name: orientation)!
    for (name, value) in HookEnvironment.variables(
      orientation: screen, previous: .normal, device: screen.device)
    {
      environment[name] = value
    }
    return environment.merging(extra) { $1 }
  }

  /// Runs a shipped hook and returns its status.
  func run(_ hook: String, for orientation: String, extra: [String: String] = [:]) throws -> Int32 {
    let result = try runToCompletion(
      [TestPaths.packageRoot + "/config/hooks/" + hook],
      environment: environment(for: orientation, extra: extra))
    return result.status
  }
}

@Suite("The example desktop hooks, against stand-in tools", .scratch)
struct ExampleHookTests {
  @Test("x11 rotates the built-in panel with xrandr and every touchscreen and pen with xinput")
  func x11() throws {
    let stubs = try DesktopStubs()
    #expect(try stubs.run("x11", for: "left-up") == 0)
    #expect(
      stubs.calls == [
        "xrandr|--output|eDP-1|--rotate|left",
        "xinput|set-prop|11|Coordinate Transformation Matrix|0|-1|1|1|0|0|0|0|1",
        "xinput|set-prop|12|Coordinate Transformation Matrix|0|-1|1|1|0|0|0|0|1",
        "xinput|set-prop|13|Coordinate Transformation Matrix|0|-1|1|1|0|0|0|0|1",
      ])
  }

  @Test(
    "A hook whose tool is missing exits 127 naming the tool",
    arguments: [
      ("x11", "xrandr"), ("sway", "swaymsg"), ("hyprland", "hyprctl"), ("wlroots", "wlr-randr"),
      ("kde", "kscreen-doctor"),
    ])
  func missingToolIsNamed(hook: String, tool: String) throws {
    let stubs = try DesktopStubs()
    try FileManager.default.removeItem(atPath: stubs.directory + "/" + tool)
    var environment = stubs.environment(for: "left-up")
    // Only the stubs and the shell's own tools: the machine's copy must not stand in.
    environment["PATH"] = stubs.directory + ":" + (try Self.toolsOnly(without: tool))
    let result = try runToCompletion(
      [TestPaths.packageRoot + "/config/hooks/" + hook], environment: environment)
    #expect(result.status == 127)
    #expect(result.stderr.contains("\(tool) is not installed"), "the hook said: \(result.stderr)")
    #expect(!result.stderr.contains("no built-in panel"))
  }

  /// A directory of links to the basic tools the hooks use, without `tool`.
  static func toolsOnly(without tool: String) throws -> String {
    let directory = try Scratch.current().makeDirectory("tools")
    for name in ["sh", "awk", "grep", "sed", "basename", "dirname", "head", "printf", "cat"]
    where name != tool {
      if let path = TestPaths.which(name) {
        try FileManager.default.createSymbolicLink(atPath: directory + "/" + name, withDestinationPath: path)
      }
    }
    return directory
  }

  @Test("sway transforms the panel (sway counts clockwise) and maps touch and pen to it")
  func sway() throws {
    let stubs = try DesktopStubs()
    #expect(try stubs.run("sway", for: "right-up") == 0)
    #expect(
      stubs.calls == [
        "swaymsg|output|eDP-1|transform|90",
        "swaymsg|input|type:touch|map_to_output|eDP-1",
        "swaymsg|input|type:tablet_tool|map_to_output|eDP-1",
      ])
  }

  @Test("hyprland sets the monitor transform, keeping its mode, position and scale, and the input transforms")
  func hyprland() throws {
    let stubs = try DesktopStubs()
    #expect(try stubs.run("hyprland", for: "bottom-up") == 0)
    #expect(
      stubs.calls == [
        "hyprctl|keyword|monitor|eDP-1,2880x1800@90.00100,0x0,1.50,transform,2",
        "hyprctl|keyword|input:touchdevice:transform|2",
        "hyprctl|keyword|input:tablet:transform|2",
      ])
  }

  @Test("kde rotates the panel with kscreen-doctor")
  func kde() throws {
    let stubs = try DesktopStubs()
    #expect(try stubs.run("kde", for: "normal") == 0)
    #expect(stubs.calls == ["kscreen-doctor|output.eDP-1.rotation.none"])
  }

  /// What each tool must get, from its own source: wlr-randr's main.c maps `--transform 90`
  /// to WL_OUTPUT_TRANSFORM_90, the protocol's quarter turn counter-clockwise, which left-up
  /// needs; sway's commands/output/transform.c counts clockwise and inverts (so sway's 270 is
  /// that same enum value, and wlr-randr's 90 shows as 270 in `swaymsg -t get_outputs`);
  /// Hyprland's monitor-rule parser casts its number to wl_output_transform. iio-sway (270) and
  /// iio-hyprland (1) give the same values for left-up. xrandr's manual: `left` turns the
  /// picture counter-clockwise; KDE's own auto-rotation maps LeftUp to kscreen's `Left`.
  static let compositorTransforms = [
    (orientation: "normal", wlrRandr: "normal", sway: "normal", hyprland: "0", xrandr: "normal", kde: "none"),
    (orientation: "left-up", wlrRandr: "90", sway: "270", hyprland: "1", xrandr: "left", kde: "left"),
    (
      orientation: "bottom-up", wlrRandr: "180", sway: "180", hyprland: "2", xrandr: "inverted",
      kde: "inverted"
    ),
    (orientation: "right-up", wlrRandr: "270", sway: "90", hyprland: "3", xrandr: "right", kde: "right"),
  ]

  @Test(
    "wlroots, sway, Hyprland, X11 and KDE each get their own tool's value for every orientation",
    arguments: compositorTransforms)
  func compositorValues(
    expected: (
      orientation: String, wlrRandr: String, sway: String, hyprland: String, xrandr: String, kde: String
    )
  ) throws {
    let x11 = try DesktopStubs()
    #expect(try x11.run("x11", for: expected.orientation) == 0)
    #expect(x11.calls.first == "xrandr|--output|eDP-1|--rotate|\(expected.xrandr)")
    let kde = try DesktopStubs()
    #expect(try kde.run("kde", for: expected.orientation) == 0)
    #expect(kde.calls == ["kscreen-doctor|output.eDP-1.rotation.\(expected.kde)"])
    let wlroots = try DesktopStubs()
    #expect(try wlroots.run("wlroots", for: expected.orientation) == 0)
    #expect(wlroots.calls == ["wlr-randr|--output|eDP-1|--transform|\(expected.wlrRandr)"])
    let sway = try DesktopStubs()
    #expect(try sway.run("sway", for: expected.orientation) == 0)
    #expect(sway.calls.first == "swaymsg|output|eDP-1|transform|\(expected.sway)")
    let hyprland = try DesktopStubs()
    #expect(try hyprland.run("hyprland", for: expected.orientation) == 0)
    #expect(
      hyprland.calls == [
        "hyprctl|keyword|monitor|eDP-1,2880x1800@90.00100,0x0,1.50,transform,\(expected.hyprland)",
        "hyprctl|keyword|input:touchdevice:transform|\(expected.hyprland)",
        "hyprctl|keyword|input:tablet:transform|\(expected.hyprland)",
      ])
  }

  @Test("ORIENTD_OUTPUT overrides the panel search")
  func outputOverride() throws {
    let stubs = try DesktopStubs()
    #expect(try stubs.run("wlroots", for: "bottom-up", extra: ["ORIENTD_OUTPUT": "HDMI-A-1"]) == 0)
    #expect(stubs.calls == ["wlr-randr|--output|HDMI-A-1|--transform|180"])
  }

  @Test(
    "auto picks the hook for the running session",
    arguments: [
      (
        ["SWAYSOCK": "/run/user/1000/sway.sock", "WAYLAND_DISPLAY": "wayland-1"],
        "swaymsg|output|eDP-1|transform|normal"
      ),
      (
        ["HYPRLAND_INSTANCE_SIGNATURE": "abc", "WAYLAND_DISPLAY": "wayland-1"],
        "hyprctl|keyword|monitor|eDP-1,2880x1800@90.00100,0x0,1.50,transform,0"
      ),
      (
        ["KDE_FULL_SESSION": "true", "WAYLAND_DISPLAY": "wayland-0"],
        "kscreen-doctor|output.eDP-1.rotation.none"
      ),
      (["WAYLAND_DISPLAY": "wayland-1"], "wlr-randr|--output|eDP-1|--transform|normal"),
      (["DISPLAY": ":0"], "xrandr|--output|eDP-1|--rotate|normal"),
      (["DISPLAY": ":0", "ORIENTD_HOOK": "wlroots"], "wlr-randr|--output|eDP-1|--transform|normal"),
    ])
  func auto(session: [String: String], firstCall: String) throws {
    let stubs = try DesktopStubs()
    #expect(try stubs.run("auto", for: "normal", extra: session) == 0)
    #expect(stubs.calls.first == firstCall)
  }

  @Test(
    "On GNOME Wayland auto says why no hook can rotate, and runs none", arguments: ["GNOME", "ubuntu:GNOME"])
  func gnomeWayland(desktop: String) throws {
    let stubs = try DesktopStubs()
    let result = try runToCompletion(
      [TestPaths.packageRoot + "/config/hooks/auto"],
      environment: stubs.environment(
        for: "left-up", extra: ["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": desktop]))
    #expect(result.status == 69)
    #expect(
      result.stderr.contains("GNOME on Wayland cannot be rotated by a hook"), "auto said: \(result.stderr)")
    #expect(stubs.calls.isEmpty)
  }

  @Test("A hook with no panel to rotate fails with a message, and without a session auto says so")
  func noPanel() throws {
    let stubs = try DesktopStubs()
    let empty = try Scratch.current().makeDirectory("empty")
    try "#!/bin/sh\nexit 0\n".write(toFile: empty + "/wlr-randr", atomically: true, encoding: .utf8)
    chmod(empty + "/wlr-randr", 0o755)
    var environment = stubs.environment(for: "normal")
    environment["PATH"] = empty + ":/usr/bin:/bin"
    let result = try runToCompletion(
      [TestPaths.packageRoot + "/config/hooks/wlroots"], environment: environment)
    #expect(result.status == 1)
    #expect(result.stderr.contains("no built-in panel found"))
    let noSession = try runToCompletion(
      [TestPaths.packageRoot + "/config/hooks/auto"], environment: stubs.environment(for: "normal"))
    #expect(noSession.status == 1)
    #expect(noSession.stderr.contains("no graphical session found"))
  }

  @Test("orientd runs an example hook with its own environment on a change")
  func throughTheDaemon() throws {
    let stubs = try DesktopStubs()
    let scratch = try Scratch.current()
    let directory = try scratch.makeDirectory()
    var environment = scratch.environment
    environment["PATH"] = stubs.directory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    var trace = TraceBuilder(stepMilliseconds: 10)
    trace.add(-1, 0, 0)
    let daemon = try TestProcess(
      [
        TestPaths.orientd, "--replay", try trace.write(), "--settle", "0", "--socket", directory + "/s",
        "--state", directory + "/st", "--hook", TestPaths.packageRoot + "/config/hooks/wlroots",
      ], environment: environment)
    // Right-up: the picture turns three quarters counter-clockwise, wlr-randr's 270.
    #expect(waitForFile(stubs.log, toContain: "wlr-randr|--output|eDP-1|--transform|270"))
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}
