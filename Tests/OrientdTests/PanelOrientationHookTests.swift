import Foundation
import Testing

/// A portrait panel in a landscape casing: the example hooks, run by orientd and by
/// `orientctl hook` against stand-in tools that record their arguments, get the screen
/// orientation with the panel's mount added.
@Suite("The example hooks on a panel mounted turned", .scratch)
struct PanelOrientationHookTests {
  /// orientd replaying a device held right-up (the picture's top at the casing's right edge),
  /// with `arguments`, its hooks finding the stand-ins first on PATH.
  func daemon(_ stubs: DesktopStubs, _ arguments: [String]) throws -> (TestProcess, socket: String) {
    let scratch = try Scratch.current()
    let directory = try scratch.makeDirectory()
    var environment = scratch.environment
    environment["PATH"] = stubs.directory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    var trace = TraceBuilder(stepMilliseconds: 10)
    trace.add(-1, 0, 0)
    let socket = directory + "/s"
    let process = try TestProcess(
      [TestPaths.orientd]
        + TestPaths.isolated(
          orientdArguments: [
            "--replay", try trace.write(), "--settle", "0", "--socket", socket, "--state", directory + "/st",
          ] + arguments, in: scratch), environment: environment)
    try #require(process.waitFor("listening on", inStderr: true), "orientd did not start: \(process.stderr)")
    return (process, socket)
  }

  func orientctl(_ socket: String, _ arguments: String...) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    try runToCompletion([TestPaths.orientctl, "--socket", socket] + arguments)
  }

  @Test("orientd's x11 hook turns a right-up panel held right-up upside down, and its touchscreens with it")
  func x11ThroughTheDaemon() throws {
    let stubs = try DesktopStubs()
    let (daemon, _) = try daemon(
      stubs, ["--panel-orientation", "right-up", "--hook", TestPaths.packageRoot + "/config/hooks/x11"])
    // Right-up held on a right-up mount: two quarter turns from the panel's own scan-out
    // (without the mount it would be `right`, and the matrix a quarter turn).
    #expect(waitForFile(stubs.log, toContain: "xinput|set-prop|13|"))
    #expect(
      stubs.calls == [
        "xrandr|--output|eDP-1|--rotate|inverted",
        "xinput|set-prop|11|Coordinate Transformation Matrix|-1|0|1|0|-1|1|0|0|1",
        "xinput|set-prop|12|Coordinate Transformation Matrix|-1|0|1|0|-1|1|0|0|1",
        "xinput|set-prop|13|Coordinate Transformation Matrix|-1|0|1|0|-1|1|0|0|1",
      ])
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test(
    "orientctl hook's sway hook gets the mount from orientd's config file: right-up on a left-up panel is sway's normal"
  )
  func swayThroughOrientctl() throws {
    let stubs = try DesktopStubs()
    let scratch = try Scratch.current()
    let config = scratch.path + "/orientd.conf"
    try "panel-orientation = left-up\n".write(toFile: config, atomically: true, encoding: .utf8)
    let (daemon, socket) = try daemon(stubs, ["--config", config])
    var environment = scratch.environment
    environment["PATH"] = stubs.directory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    let hook = try TestProcess(
      [TestPaths.orientctl, "--socket", socket, "hook", TestPaths.packageRoot + "/config/hooks/sway"],
      environment: environment)
    // Without the mount, sway's 90.
    #expect(waitForFile(stubs.log, toContain: "swaymsg|input|type:tablet_tool|map_to_output|eDP-1"))
    #expect(stubs.calls.first == "swaymsg|output|eDP-1|transform|normal")
    hook.signal(SIGTERM)
    #expect(hook.waitForExit() != nil)
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test("orientctl hook --oneshot adds the mount orientd found: bottom-up turns right-up into sway's 270")
  func oneshot() throws {
    let stubs = try DesktopStubs()
    let (daemon, socket) = try daemon(stubs, ["--panel-orientation", "bottom-up"])
    var environment = try Scratch.current().environment
    environment["PATH"] = stubs.directory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    // Once the replayed turn is in: the state then says right-up.
    #expect(try waitUntil { try orientctl(socket, "get", "orientation").stdout.contains("right-up") })
    let result = try runToCompletion(
      [
        TestPaths.orientctl, "--socket", socket, "hook", "--oneshot",
        TestPaths.packageRoot + "/config/hooks/sway",
      ],
      environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(stubs.calls.first == "swaymsg|output|eDP-1|transform|270")
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test("A reload that changes the mount says so and runs the hooks again with the new transform")
  func reload() throws {
    let stubs = try DesktopStubs()
    let config = try Scratch.current().path + "/orientd.conf"
    try "panel-orientation = normal\n".write(toFile: config, atomically: true, encoding: .utf8)
    let (daemon, _) = try daemon(
      stubs, ["--config", config, "--hook", TestPaths.packageRoot + "/config/hooks/x11"])
    #expect(daemon.waitFor("panel normal: set by panel-orientation", inStderr: true))
    #expect(waitForFile(stubs.log, toContain: "xrandr|--output|eDP-1|--rotate|right"))
    try "panel-orientation = right-up\n".write(toFile: config, atomically: true, encoding: .utf8)
    daemon.signal(SIGHUP)
    #expect(daemon.waitFor("panel right-up: set by panel-orientation", inStderr: true), "\(daemon.stderr)")
    // The same orientation, drawn the new way.
    #expect(waitForFile(stubs.log, toContain: "xrandr|--output|eDP-1|--rotate|inverted"))
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test("info and doctor say how the panel is mounted and where that came from")
  func infoAndDoctor() throws {
    let stubs = try DesktopStubs()
    let (daemon, socket) = try daemon(stubs, ["--panel-orientation", "left-up"])
    let client = try TestClient(path: socket)
    client.send("info\n")
    let info = client.readLines(through: "ok")
    #expect(info.contains("info panel left-up"), "\(info)")
    #expect(info.contains("info panel-from set by panel-orientation"), "\(info)")
    let doctor = try orientctl(socket, "doctor")
    #expect(
      doctor.stdout.contains(
        "Panel: mounted left-up, from set by panel-orientation; the hooks' transforms add it."),
      "\(doctor.stdout)")
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test("A value the setting does not take is refused, naming the values it takes")
  func badValue() throws {
    let result = try runToCompletion([TestPaths.orientd, "--panel-orientation", "portrait", "--demo"])
    #expect(result.status == 64)
    #expect(
      result.stderr.contains(
        "--panel-orientation: expected auto, normal, left-up, bottom-up or right-up, got 'portrait'"),
      "\(result.stderr)")
  }
}
