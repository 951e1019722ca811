import Foundation
import Testing

/// What monitor-sensor prints of a machine without a light sensor, a proximity sensor or a
/// compass (the compass for a user who may have it: root).
private let noReadingSensors = ["=== No ambient light sensor", "=== No proximity sensor", "=== No compass"]

@Suite("The orientctl client", .scratch)
struct OrientctlTests {
  @Test("get prints the state lines; get --json prints them as one JSON object")
  func get() throws {
    let daemon = try ServedDaemon(holding: (1, 0, 0))
    let text = try daemon.orientctl("get")
    #expect(text.status == 0)
    #expect(
      text.stdout == "sensor online\ndevice left-up\norientation left-up\nlock off\n"
        + "allowed normal,left-up,bottom-up,right-up\nmode unknown\n")
    let json = try daemon.orientctl("get", "--json")
    #expect(json.status == 0)
    #expect(
      json.stdout == #"{"sensor":"online","device":"left-up","orientation":"left-up","lock":"off","#
        + #""allowed":["normal","left-up","bottom-up","right-up"],"mode":"unknown"}"# + "\n")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any],
      "get --json must print one JSON object: \(json.stdout)")
    #expect(object["orientation"] as? String == "left-up")
    #expect(daemon.stop() == 0)
  }

  @Test("get FIELD prints only that value, for status bars; with --json, as a JSON value")
  func getField() throws {
    let daemon = try ServedDaemon(holding: (1, 0, 0))
    #expect(try daemon.orientctl("lock", "bottom-up").status == 0)
    let expected = [
      "sensor": "online", "device": "left-up", "orientation": "bottom-up", "lock": "bottom-up",
      "allowed": "normal,left-up,bottom-up,right-up",
    ]
    for (field, value) in expected {
      let result = try daemon.orientctl("get", field)
      #expect(result.status == 0)
      #expect(result.stdout == value + "\n", "get \(field)")
    }
    #expect(try daemon.orientctl("get", "orientation", "--json").stdout == "\"bottom-up\"\n")
    #expect(
      try daemon.orientctl("get", "--json", "allowed").stdout
        == #"["normal","left-up","bottom-up","right-up"]"# + "\n")
    #expect(daemon.stop() == 0)
  }

  @Test("lock --toggle locks to the current orientation, then unlocks")
  func toggleLock() throws {
    let daemon = try ServedDaemon(holding: (1, 0, 0))
    #expect(try daemon.orientctl("lock", "--toggle").status == 0)
    #expect(try daemon.orientctl("get", "lock").stdout == "left-up\n")
    #expect(try daemon.orientctl("lock", "--toggle").status == 0)
    #expect(try daemon.orientctl("get", "lock").stdout == "off\n")
    #expect(try daemon.orientctl("lock", "bottom-up").status == 0)
    #expect(try daemon.orientctl("lock", "--toggle").status == 0)
    #expect(try daemon.orientctl("get", "lock").stdout == "off\n")
    #expect(try daemon.orientctl("get", "orientation").stdout == "left-up\n")
    #expect(daemon.stop() == 0)
  }

  @Test("get with an unknown field exits 64 naming the fields there are")
  func getUnknownField() throws {
    let socket = try Scratch.current().path("nothing.sock")
    let result = try runToCompletion([TestPaths.orientctl, "--socket", socket, "get", "rotation"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("'rotation'"))
    #expect(result.stderr.contains("sensor, device, orientation, lock, allowed"))
  }

  @Test("monitor prints the state and then every change; --json prints objects")
  func monitor() throws {
    let daemon = try ServedDaemon()
    let text = try TestProcess([TestPaths.orientctl, "--socket", daemon.socket, "monitor", "--once"])
    let json = try TestProcess([
      TestPaths.orientctl, "--socket", daemon.socket, "monitor", "--json", "--once",
    ])
    #expect(text.waitForLines(greetingLines) == normalSnapshot)
    #expect(
      json.waitForLines(greetingLines) == [
        #"{"event":"sensor","value":"online"}"#, #"{"event":"device","value":"normal"}"#,
        #"{"event":"orientation","value":"normal"}"#, #"{"event":"lock","value":"off"}"#,
        #"{"event":"allowed","value":["normal","left-up","bottom-up","right-up"]}"#,
        #"{"event":"mode","value":"unknown"}"#,
      ])
    #expect(try daemon.orientctl("rotate", "ccw").status == 0)
    #expect(text.waitForLines(8).suffix(2) == ["lock right-up", "orientation right-up"])
    #expect(
      json.waitForLines(8).suffix(2) == [
        #"{"event":"lock","value":"right-up"}"#, #"{"event":"orientation","value":"right-up"}"#,
      ])
    #expect(!json.stdout.contains("reply"), "replies are not events")
    #expect(daemon.stop() == 0)
    #expect(text.waitForExit() == 69)
    #expect(text.stderr.contains("closed the connection"))
    #expect(json.waitForExit() == 69)
  }

  @Test("monitor reconnects when orientd restarts, says so on stderr, and prints the state again")
  func monitorReconnects() throws {
    let first = try ServedDaemon()
    let text = try TestProcess([TestPaths.orientctl, "--socket", first.socket, "monitor"])
    let sensor = try TestProcess([
      TestPaths.orientctl, "--socket", first.socket, "monitor", "--iio-sensor-proxy",
    ])
    #expect(text.waitForLines(greetingLines) == normalSnapshot)
    #expect(sensor.waitForLines(4) == ["=== Has accelerometer (orientation: normal)"] + noReadingSensors)
    #expect(first.stop() == 0)
    #expect(text.waitFor("closed the connection; reconnecting", inStderr: true), "\(text.stderr)")
    #expect(sensor.waitFor("closed the connection; reconnecting", inStderr: true), "\(sensor.stderr)")
    // The same socket, now held left-up by a new orientd.
    let second = try ServedDaemon(holding: (1, 0, 0), directory: first.directory)
    #expect(text.waitFor("reconnected to orientd", inStderr: true), "\(text.stderr)")
    #expect(
      Array(text.waitForLines(12).suffix(6)) == [
        "sensor online", "device left-up", "orientation left-up", "lock off",
        "allowed normal,left-up,bottom-up,right-up", "mode unknown",
      ])
    #expect(
      sensor.waitForLines(5) == ["=== Has accelerometer (orientation: normal)"] + noReadingSensors + [
        "    Accelerometer orientation changed: left-up"
      ])
    #expect(try second.orientctl("lock", "bottom-up").status == 0)
    #expect(text.waitForLines(14).suffix(2) == ["lock bottom-up", "orientation bottom-up"])
    text.signal(SIGTERM)
    sensor.signal(SIGTERM)
    #expect(text.waitForExit() != nil)
    #expect(sensor.waitForExit() != nil)
    // The lock turned the screen only: monitor-sensor's format shows the device.
    #expect(sensor.stdout.split(separator: "\n").count == 5, "\(sensor.stdout)")
    #expect(second.stop() == 0)
  }

  @Test("monitor --iio-sensor-proxy prints monitor-sensor's lines for the physical orientation only")
  func monitorSensorLines() throws {
    let (run, socket) = try laptopDaemon(extra: ["--mount-matrix", rotatedMount])
    let monitor = try TestProcess([
      TestPaths.orientctl, "--socket", socket, "monitor", "--iio-sensor-proxy", "--once",
    ])
    #expect(monitor.waitForLines(4) == ["=== Has accelerometer (orientation: normal)"] + noReadingSensors)
    // A lock turns the screen, not the device: monitor-sensor would print nothing.
    #expect(try runToCompletion([TestPaths.orientctl, "--socket", socket, "lock", "bottom-up"]).status == 0)
    for pose in ["left-up", "face-up", "face-down", "bottom-up"] {
      let (x, y, z) = rawFor[pose]!
      try run.setRaw(x, y, z)
      #expect(run.process.waitFor("info: device \(pose)", inStderr: true), "\(run.process.stderr)")
    }
    // Lying flat is not a four-way orientation: left-up stays until the device turns again.
    #expect(
      monitor.waitForLines(6) == ["=== Has accelerometer (orientation: normal)"] + noReadingSensors + [
        "    Accelerometer orientation changed: left-up",
        "    Accelerometer orientation changed: bottom-up",
      ])
    #expect(run.stop() == 0)
    #expect(monitor.waitForExit() == 69)
    #expect(monitor.stdout.split(separator: "\n").count == 6, "\(monitor.stdout)")
  }

  @Test("monitor --iio-sensor-proxy says undefined until the device has been upright once")
  func monitorSensorUndefinedWhileFlat() throws {
    let daemon = try ServedDaemon(holding: (0, 0, -1))
    #expect(try daemon.orientctl("get", "device").stdout == "face-up\n")
    let monitor = try TestProcess([
      TestPaths.orientctl, "--socket", daemon.socket, "monitor", "--iio-sensor-proxy", "--once",
    ])
    #expect(monitor.waitForLines(4) == ["=== Has accelerometer (orientation: undefined)"] + noReadingSensors)
    #expect(try daemon.orientctl("lock", "left-up").status == 0)
    #expect(daemon.stop() == 0)
    #expect(monitor.waitForExit() == 69)
    #expect(
      monitor.stdout == (["=== Has accelerometer (orientation: undefined)"] + noReadingSensors).joined(
        separator: "\n") + "\n")
  }

  @Test("orientctl monitor | head -1 exits cleanly without waiting for another event")
  func monitorIntoHead() throws {
    let daemon = try ServedDaemon()
    let bash = try #require(TestPaths.which("bash"))
    // No further event ever comes: a monitor that waited for one to notice the closed pipe
    // would never finish.
    let result = try runToCompletion([
      bash, "-c", "set -o pipefail; \"$0\" --socket \"$1\" monitor | head -1", TestPaths.orientctl,
      daemon.socket,
    ])
    #expect(result.status == 0)
    #expect(result.stdout == "sensor online\n")
    #expect(result.stderr.isEmpty)
    #expect(daemon.stop() == 0)
  }

  @Test("An unreachable daemon exits 69 naming the socket path")
  func unreachable() throws {
    let path = try Scratch.current().path("nothing.sock")
    let result = try runToCompletion([TestPaths.orientctl, "--socket", path, "get"])
    #expect(result.status == 69)
    #expect(result.stderr.contains(path))
  }

  @Test("The socket defaults to $ORIENTD_SOCKET")
  func socketFromEnvironment() throws {
    let daemon = try ServedDaemon()
    var environment = try Scratch.current().environment
    environment["ORIENTD_SOCKET"] = daemon.socket
    let result = try runToCompletion([TestPaths.orientctl, "get"], environment: environment)
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("sensor online"))
    #expect(daemon.stop() == 0)
  }

  @Test(
    "Bad usage exits 64 before connecting",
    arguments: [
      ["frob"], [], ["lock", "face-up"], ["lock", "--toggle", "normal"], ["rotate"], ["rotate", "left"],
      ["allow"], ["allow", "up"],
      ["--bogus", "get"],
      ["monitor", "--xml"], ["unlock", "now"],
    ])
  func badUsage(arguments: [String]) throws {
    // Nothing listens there: connecting first would exit 69, not 64.
    let socket = try Scratch.current().path("nothing.sock")
    let result = try runToCompletion([TestPaths.orientctl, "--socket", socket] + arguments)
    #expect(result.status == 64)
    #expect(result.stderr.contains("Try 'orientctl --help'."))
  }

  @Test(
    "-h, help and help COMMAND print the help and exit 0", arguments: [["-h"], ["help"], ["help", "lock"]])
  func helpSpellings(arguments: [String]) throws {
    let result = try runToCompletion([TestPaths.orientctl] + arguments)
    #expect(result.status == 0)
    #expect(result.stdout.contains("lock --toggle"))
    #expect(result.stdout.contains("--socket PATH"))
  }

  @Test(
    "COMMAND --help prints that command's help without connecting",
    arguments: [["get", "--help"], ["lock", "-h"], ["hook", "--help"], ["monitor", "--json", "--help"]])
  func commandHelp(arguments: [String]) throws {
    let socket = try Scratch.current().path("nothing.sock")
    let result = try runToCompletion([TestPaths.orientctl, "--socket", socket] + arguments)
    #expect(result.status == 0)
    #expect(result.stdout.contains("\n  \(arguments[0]) "), "\(result.stdout)")
    #expect(!result.stdout.contains("\n  unlock "), "only \(arguments[0])'s part: \(result.stdout)")
    #expect(result.stdout.contains("--socket PATH"))
  }

  @Test("Options may follow the command")
  func optionsAfterCommand() throws {
    let daemon = try ServedDaemon(holding: (1, 0, 0))
    let result = try runToCompletion([TestPaths.orientctl, "get", "orientation", "--socket", daemon.socket])
    #expect(result.status == 0)
    #expect(result.stdout == "left-up\n")
    let timed = try runToCompletion([
      TestPaths.orientctl, "lock", "--timeout=2", "--socket=\(daemon.socket)", "bottom-up",
    ])
    #expect(timed.status == 0)
    #expect(try daemon.orientctl("get", "lock").stdout == "bottom-up\n")
    #expect(daemon.stop() == 0)
  }

  @Test(
    "An unknown command suggests the closest one",
    arguments: [("gte", "get"), ("unlokc", "unlock"), ("moniter", "monitor"), ("doc", "doctor")])
  func didYouMean(typed: String, meant: String) throws {
    let result = try runToCompletion([TestPaths.orientctl, typed])
    #expect(result.status == 64)
    #expect(
      result.stderr.contains("unknown command '\(typed)'; did you mean '\(meant)'?"), "\(result.stderr)")
  }

  @Test("No command lists every command")
  func noCommand() throws {
    let result = try runToCompletion([TestPaths.orientctl])
    #expect(result.status == 64)
    for command in [
      "get", "monitor", "lock", "unlock", "rotate", "allow", "samples", "doctor", "calibrate", "hook", "help",
    ] {
      #expect(result.stderr.contains(command), "\(command) missing: \(result.stderr)")
    }
  }

  @Test("--help prints the commands")
  func help() throws {
    let result = try runToCompletion([TestPaths.orientctl, "--help"])
    #expect(result.status == 0)
    // The command list: one line per command, indented, its name first.
    let names = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.map
    {
      $0.split(separator: " ").first.map(String.init) ?? ""
    }
    for command in [
      "get", "monitor", "lock", "unlock", "rotate", "allow", "samples", "doctor", "calibrate", "hook",
    ] {
      #expect(names.contains(command), "--help must list \(command): \(names)")
    }
  }
}
