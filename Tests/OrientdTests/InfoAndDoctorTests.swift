import Foundation
import Testing

/// `info`'s keys and what `orientctl doctor` makes of them.
@Suite("info's keys and doctor's report", .scratch)
struct InfoAndDoctorTests {
  /// The `info` lines of the orientd at `socket`, as key and value.
  static func info(_ socket: String) throws -> [(key: String, value: String)] {
    let client = try TestClient(path: socket)
    _ = client.readLines(greetingLines)
    client.send("info\n")
    return client.readLines(through: "ok").dropLast().map { line in
      let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
      return (String(words.count > 1 ? words[1] : ""), words.count > 2 ? String(words[2]) : "")
    }
  }

  @Test("Every info key has one meaning: the capture is `capture`, the tablet mode `tablet-mode`")
  func everyKeyOnce() throws {
    let (run, socket) = try laptopDaemon()
    let items = try Self.info(socket)
    var counts: [String: Int] = [:]
    for item in items { counts[item.key, default: 0] += 1 }
    // Only `hook` may repeat: one line per hook, each a hook.
    let repeated = counts.filter { $0.value > 1 && $0.key != "hook" }.map(\.key)
    #expect(repeated.isEmpty, "keys given more than once: \(repeated) in \(items)")
    let value = { (key: String) in items.first { $0.key == key }?.value }
    #expect(value("capture")?.hasPrefix("poll every 20 ms") == true, "\(items)")
    #expect(value("capture-reason") != nil, "\(items)")
    #expect(value("tablet-mode") == "unknown (no source; rotate always, from auto)", "\(items)")
    // The old name of the capture, for clients of earlier versions, says the same.
    #expect(value("mode") == value("capture"))
    #expect(value("mode-reason") == value("capture-reason"))
    #expect(run.stop() == 0)
  }

  @Test("doctor shows the mode and where it comes from, sampling on or stopped, and D-Bus")
  func doctorShowsModeSamplingAndBus() throws {
    let (run, socket) = try laptopDaemon()
    #expect(try runToCompletion([TestPaths.orientctl, "--socket", socket, "mode", "laptop"]).status == 0)
    let result = try runToCompletion([TestPaths.orientctl, "--socket", socket, "doctor"])
    #expect(result.status == 0, "\(result.stderr)")
    let text = result.stdout
    #expect(text.contains("Capture: poll every 20 ms, every 1000 ms at rest: "), "\(text)")
    #expect(text.contains("Mode: laptop (from manual; rotate tablet, from auto)."), "\(text)")
    // doctor's own connection needs the sensor while it asks.
    #expect(text.contains("Sampling: on."), "\(text)")
    #expect(text.contains("D-Bus: off."), "\(text)")
    #expect(run.stop() == 0)
  }

  @Test("With no sensor, doctor repeats why orientd found none")
  func doctorRepeatsTheReason() throws {
    let device = FakeDevice.accelerometer(raw: (0, -256, 0))
    let (run, socket) = try servingFakeSensor(
      [device], extra: ["--interval", "20", "--settle", "0"],
      prepare: "mv \"$UMOCKDEV_DIR/sys\(device.sysfsPath)\" \"$UMOCKDEV_DIR/later\"",
      ready: "serving 'sensor offline' and looking again every second")
    let warning = try #require(
      run.process.stderr.split(separator: "\n").first { $0.contains("serving 'sensor offline'") })
    let reason = try #require(
      warning.range(of: "warning: ").flatMap { start in
        warning.range(of: "; serving 'sensor offline'").map {
          String(warning[start.upperBound..<$0.lowerBound])
        }
      }, "\(warning)")
    let result = try runToCompletion([TestPaths.orientctl, "--socket", socket, "doctor"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Sensor: no sensor attached"), "\(result.stdout)")
    #expect(result.stdout.contains(reason), "doctor must say '\(reason)': \(result.stdout)")
    #expect(run.stop() == 0)
  }

  @Test("doctor says who owns the D-Bus name while orientd waits in the bus's queue")
  func doctorNamesTheBusOwner() throws {
    let bus = try TestBus()
    let first = try bus.servingOrientd()
    let second = try bus.orientd()
    #expect(
      second.run.process.waitFor("waiting for it in the bus's queue", inStderr: true),
      "\(second.run.process.stderr)")
    let owner = "owned by orientd (pid \(first.run.programPID))"
    #expect(
      waitUntil { (try? second.busInfo())?.contains(owner) == true }, "\((try? second.busInfo()) ?? "")")
    let result = try runToCompletion([TestPaths.orientctl, "--socket", second.socket, "doctor"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.contains("D-Bus: waiting for net.hadess.SensorProxy on the system bus, \(owner)"),
      "\(result.stdout)")
    let serving = try runToCompletion([TestPaths.orientctl, "--socket", first.socket, "doctor"])
    #expect(
      serving.stdout.contains("D-Bus: serving net.hadess.SensorProxy on the system bus"), "\(serving.stdout)")
    #expect(second.run.stop() == 0)
    #expect(first.run.stop() == 0)
  }

  @Test("get hinge without a hinge prints undefined (null in JSON) and succeeds")
  func hingeUndefined() throws {
    let daemon = try ServedDaemon()
    let text = try daemon.orientctl("get", "hinge")
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout == "undefined\n")
    let json = try daemon.orientctl("get", "hinge", "--json")
    #expect(json.status == 0)
    #expect(json.stdout == "null\n")
    #expect(daemon.stop() == 0)
  }

  @Test("info config says when the config file orientd reads is absent")
  func absentConfigSaid() throws {
    let scratch = try Scratch.current()
    let absent = scratch.path("no-such.conf")
    let directory = try scratch.makeDirectory("daemon")
    // Through env: TestProcess would give orientd a --config of its own, and the default
    // config file, absent here, is what is looked at.
    let env = try #require(TestPaths.which("env"))
    let process = try TestProcess([
      env, TestPaths.orientd, "--demo", "--default-config", absent, "--socket", directory + "/s", "--state",
      directory + "/st",
    ])
    #expect(process.waitFor("listening on", inStderr: true), "\(process.stderr)")
    let items = try Self.info(directory + "/s")
    #expect(
      items.contains { $0.key == "config" && $0.value == "\(absent) (absent: the defaults apply)" },
      "\(items)")
    process.signal(SIGTERM)
    #expect(process.waitForExit() == 0)
  }
}
