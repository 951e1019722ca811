import Foundation
import Testing

/// A laptop whose accelerometer is mounted rotated: its raw frame is M^-1 x the display
/// frame with M = `0, 1, 0; -1, 0, 0; 0, 0, 1` (not symmetric, so M and its transpose differ).
/// Raw readings (256 units = 1 g) for each pose of the display:
let rotatedMount = "0, 1, 0; -1, 0, 0; 0, 0, 1"
let rawFor: [String: (Int, Int, Int)] = [
  "normal": (256, 0, 0), "left-up": (0, 256, 0), "face-up": (0, 0, -256), "bottom-up": (-256, 0, 0),
  "right-up": (0, -256, 0), "face-down": (0, 0, 256),
]
let laptopDevices: [FakeDevice] = [
  FakeDevice.accelerometer(path: "/devices/platform/BOSC0200:00/iio:device0", raw: rawFor["normal"]!),
  .platformParent("/devices/platform/BOSC0200:00", modalias: "acpi:BOSC0200:BOSC0200:"),
  .dmi("dmi:bvnLENOVO:bvr5WCN31WW:bd01/01/2020:svnLENOVO:pn80XE:pvrLenovoYoga:rvnLENOVO:"),
]

/// orientd on the rotated laptop sensor, serving a socket, polling fast.
func laptopDaemon(extra: [String] = []) throws -> (run: FakeSensorRun, socket: String) {
  let directory = try Scratch.current().makeDirectory("daemon")
  let socket = directory + "/s"
  let run = try FakeSensorRun(
    devices: laptopDevices,
    arguments: [
      "--interval", "20", "--settle", "0", "--mode", "poll", "--socket", socket, "--state", directory + "/st",
    ]
      + extra)
  try #require(run.process.waitFor("info: orientation", inStderr: true))
  return (run, socket)
}

/// Puts the device in `pose`, waits for calibrate's `prompt`-th "press Enter", presses it,
/// and waits for its `measured`-th measurement.
func answer(_ pose: String, run: FakeSensorRun, client: TypedProcess, prompt: Int, measured: Int) throws {
  let (x, y, z) = rawFor[pose]!
  try run.setRaw(x, y, z)
  #expect(client.process.waitFor("press Enter", inStderr: true, count: prompt))
  // The pose is in place: orientd has read it, for long enough that what it read before has
  // reached orientctl, which drops samples while it waits for Enter.
  #expect(try run.waitForPolls(25))
  client.type("")
  #expect(client.process.waitFor("   measured (", inStderr: true, count: measured))
}

@Suite("Calibration and diagnostics", .scratch)
struct CalibrationTests {
  @Test("calibrate measures three poses answered on stdin and prints the matrix and the hwdb fix")
  func interactiveCalibration() throws {
    let (run, socket) = try laptopDaemon()
    let client = try TypedProcess([TestPaths.orientctl, "--socket", socket, "calibrate"])
    for (step, pose) in ["normal", "left-up", "face-up"].enumerated() {
      try answer(pose, run: run, client: client, prompt: step + 1, measured: step + 1)
    }
    #expect(!client.process.stderr.contains("rejected"), "\(client.process.stderr)")
    #expect(client.process.waitForExit() == 0, "\(client.process.stderr)")
    let output = client.process.stdout
    #expect(output.contains("Mount matrix: \(rotatedMount)\n"))
    #expect(output.contains("Orthonormal: yes; determinant +1.000 (a rotation)"))
    #expect(output.contains("Verdict: the current matrix is wrong"))
    #expect(
      output.contains(
        "sensor:modalias:acpi:BOSC0200:BOSC0200:*:dmi:*:svnLENOVO:pn80XE:*\n ACCEL_MOUNT_MATRIX=\(rotatedMount)\n"
      ))
    #expect(output.contains("sudo systemd-hwdb update"))
    #expect(output.contains("sudo udevadm trigger -v -p DEVNAME=/dev/iio:device0"))
    #expect(output.contains("mount-matrix = \(rotatedMount)"))
    #expect(run.stop() == 0)
  }

  @Test("The calibrated matrix gives the right orientation in all four upright poses")
  func calibratedMatrixWorks() throws {
    let run = try FakeSensorRun(
      devices: laptopDevices,
      arguments: [
        "--dump", "--interval", "20", "--settle", "60", "--mode", "poll", "--mount-matrix", rotatedMount,
      ])
    var seen: [String] = []
    for pose in ["normal", "left-up", "bottom-up", "right-up"] {
      let (x, y, z) = rawFor[pose]!
      try run.setRaw(x, y, z)
      let lines = run.process.waitForLines(seen.count + 2)
      seen = lines
      #expect(lines.suffix(2).map(dropTime) == ["device \(pose)", "orientation \(pose)"])
    }
    #expect(run.stop() == 0)
  }

  @Test("A shaking pose is rejected and asked for again")
  func shakingPoseRejected() throws {
    let (run, socket) = try laptopDaemon()
    let client = try TypedProcess([TestPaths.orientctl, "--socket", socket, "calibrate"])
    #expect(client.process.waitFor("press Enter", inStderr: true))
    client.type("")
    // Shake while the pose is measured: every poll finds x at the other of two values, until
    // the pose is rejected.
    var x = 330
    let rejected = try waitUntil {
      try run.write("in_accel_x_raw", "\(x)")
      x = 510 - x
      try #require(try run.waitForPolls())
      return client.process.stderr.contains("pose rejected: the reading was not steady")
    }
    #expect(rejected, "\(client.process.stderr)")
    #expect(client.process.waitFor("press Enter", inStderr: true, count: 2))
    try run.setRaw(256, 0, 0)
    #expect(try run.waitForPolls(25))
    client.type("")
    #expect(client.process.waitFor("   measured (", inStderr: true))
    client.process.signal(SIGTERM)
    _ = client.process.waitForExit()
    #expect(run.stop() == 0)
  }

  @Test(
    "A pose that repeats an earlier one is refused at once and asked again; the result says to restart orientd"
  )
  func repeatedPoseRejected() throws {
    let (run, socket) = try laptopDaemon()
    let client = try TypedProcess([TestPaths.orientctl, "--socket", socket, "calibrate"])
    // Pose 1 as asked, then pose 1 again where pose 2 (left edge up) is asked.
    for step in 1...2 {
      #expect(client.process.waitFor("press Enter", inStderr: true, count: step))
      #expect(try run.waitForPolls(25))
      client.type("")
      if step == 1 { #expect(client.process.waitFor("   measured (", inStderr: true)) }
    }
    #expect(
      client.process.waitFor("pose rejected: it is the same as pose 1 (normal)", inStderr: true),
      "\(client.process.stderr)")
    #expect(client.process.waitFor("2/3: Turn it so its left edge points up", inStderr: true, count: 2))
    for (step, pose) in ["left-up", "face-up"].enumerated() {
      try answer(pose, run: run, client: client, prompt: step + 3, measured: step + 2)
    }
    #expect(client.process.waitForExit() == 0, "\(client.process.stderr)")
    #expect(occurrences(of: "   measured (", in: client.process.stderr) == 3, "\(client.process.stderr)")
    #expect(client.process.stdout.contains("Mount matrix: \(rotatedMount)\n"))
    #expect(
      client.process.stdout.contains("restart orientd to apply it (sudo systemctl restart orientd)"),
      "\(client.process.stdout)")
    #expect(!client.process.stdout.contains("WARNING: this key matches"), "a precise key needs no warning")
    #expect(run.stop() == 0)
  }

  @Test("calibrate warns when the hwdb key it prints would match every sensor on every machine")
  func catchAllHwdbKeyWarned() throws {
    // No parent modalias and no DMI data: the key can only be the catch-all.
    let directory = try Scratch.current().makeDirectory("daemon")
    let socket = directory + "/s"
    let run = try FakeSensorRun(
      devices: [FakeDevice.accelerometer(raw: rawFor["normal"]!)],
      arguments: [
        "--interval", "20", "--settle", "0", "--mode", "poll", "--socket", socket, "--state",
        directory + "/st",
      ])
    #expect(run.process.waitFor("info: orientation", inStderr: true))
    let text = try TestProcess([TestPaths.orientctl, "--socket", socket, "calibrate", "--yes"])
    for (step, pose) in ["normal", "left-up", "face-up"].enumerated() {
      let (x, y, z) = rawFor[pose]!
      try run.setRaw(x, y, z)
      #expect(text.waitFor("   measured (", inStderr: true, count: step + 1), "\(text.stderr)")
    }
    #expect(text.waitForExit() == 0, "\(text.stderr)")
    #expect(text.stdout.contains("sensor:modalias:*:dmi:*\n ACCEL_MOUNT_MATRIX="), "\(text.stdout)")
    #expect(text.stdout.contains("WARNING: this key matches every sensor on every machine"), "\(text.stdout)")
    #expect(run.stop() == 0)
  }

  @Test("calibrate --yes --json takes each pose once steady and prints JSON; an already right matrix says so")
  func automaticJSON() throws {
    let (run, socket) = try laptopDaemon(extra: ["--mount-matrix", rotatedMount])
    let client = try TestProcess([TestPaths.orientctl, "--socket", socket, "calibrate", "--yes", "--json"])
    let measured = [
      "normal": "(+1.000, +0.000, +0.000)", "left-up": "(+0.000, +1.000, +0.000)",
      "face-up": "(+0.000, +0.000, -1.000)",
    ]
    for pose in ["normal", "left-up", "face-up"] {
      let (x, y, z) = rawFor[pose]!
      try run.setRaw(x, y, z)
      #expect(client.waitFor("measured \(measured[pose]!)", inStderr: true))
    }
    #expect(client.waitForExit() == 0)
    let json = try JSONSerialization.jsonObject(with: Data(client.stdout.utf8)) as? [String: Any]
    #expect(json?["matrix"] as? String == rotatedMount)
    #expect(json?["rounded"] as? Bool == true)
    #expect(json?["already_right"] as? Bool == true)
    #expect(json?["current_source"] as? String == "option --mount-matrix")
    #expect((json?["hwdb_key"] as? String)?.hasPrefix("sensor:modalias:acpi:BOSC0200") == true)
    #expect(run.stop() == 0)
  }

  @Test("samples corrected and raw stream to the asking connection only, until samples off")
  func sampleStream() throws {
    let (run, socket) = try laptopDaemon(extra: ["--mount-matrix", rotatedMount])
    let bystander = try TestClient(path: socket)
    _ = bystander.readLines(greetingLines)
    let client = try TestClient(path: socket)
    _ = client.readLines(greetingLines)
    client.send("samples corrected\n")
    #expect(client.readLine() == "ok")
    let corrected = client.readLines(3)
    #expect(corrected.count == 3)
    #expect(
      corrected.allSatisfy { $0.hasPrefix("sample ") && $0.hasSuffix(" 0.0000 -1.0000 0.0000") },
      "\(corrected)")
    client.send("samples raw\n")
    var line = client.readLine()
    while let current = line, current.hasPrefix("sample ") { line = client.readLine() }
    #expect(line == "ok")
    #expect(client.readLine()?.hasSuffix(" 1.0000 0.0000 0.0000") == true, "raw is before the mount matrix")
    client.send("format json\n")
    var json = client.readLine()
    while let current = json, !current.hasPrefix("{\"event\":\"raw\"") { json = client.readLine() }
    #expect(json?.contains("\"x\":1.0000,\"y\":0.0000,\"z\":0.0000") == true)
    client.send("samples off\n")
    var afterOff = client.readLine()
    while let current = afterOff, current.contains("\"raw\"") { afterOff = client.readLine() }
    #expect(afterOff == "{\"reply\":\"ok\"}")
    // Samples keep coming, to a third connection that asks for them...
    let watcher = try TestClient(path: socket)
    _ = watcher.readLines(greetingLines)
    watcher.send("samples raw\n")
    #expect(watcher.readLines(through: "ok").last == "ok")
    let seen = watcher.readLines(3)
    #expect(seen.count == 3 && seen.allSatisfy { $0.hasPrefix("raw ") }, "\(seen)")
    // ...and none of them reached the others. (orientd answers a ping after everything it
    // sent a connection before; those three samples went out before these pings were read.)
    client.send("format text\n")
    #expect(client.readLine() == "ok")
    #expect(client.linesBeforePong() == [], "no samples after samples off")
    #expect(bystander.linesBeforePong() == [], "a subscriber that did not ask sees no samples")

    let printed = try TestProcess([TestPaths.orientctl, "--socket", socket, "samples", "--raw"])
    // Two at least: a loaded machine may let more arrive before the test looks.
    let lines = printed.waitForLines(2)
    #expect(lines.count >= 2)
    #expect(lines.allSatisfy { $0.hasPrefix("raw ") && $0.hasSuffix(" 1.0000 0.0000 0.0000") }, "\(lines)")
    printed.signal(SIGTERM)
    #expect(printed.waitForExit() != nil)
    #expect(run.stop() == 0)
  }

  @Test("doctor explains the set-up, and warns when the live magnitude shows a wrong scale")
  func doctor() throws {
    var device = FakeDevice.accelerometer(raw: (0, -256, 0))
    device = device.with(attribute: "in_accel_scale", "0.0095").with(
      property: "ACCEL_MOUNT_MATRIX", "1, 0, 0; 0, 1, 0; 0, 0, 1")
    let directory = try Scratch.current().makeDirectory("daemon")
    let socket = directory + "/s"
    let run = try FakeSensorRun(
      devices: [device],
      arguments: [
        "--interval", "50", "--settle", "0", "--socket", socket, "--state", directory + "/st",
        "--hook", "true", "--shake-tolerance", "0.9",
      ])
    // Listening comes before the sensor is attached; doctor needs the sensor.
    #expect(run.process.waitFor("listening on", inStderr: true))
    #expect(try waitForSensorOnline(socket: socket))
    let result = try runToCompletion([TestPaths.orientctl, "--socket", socket, "doctor"])
    #expect(result.status == 0)
    let text = result.stdout
    #expect(text.contains("Sensor: iio:device0 (accel_3d), online."))
    #expect(text.contains("Chosen because it is the only accelerometer."))
    #expect(
      text.contains("Capture: poll every 50 ms, every 1000 ms at rest: the device has no scan elements"))
    #expect(text.contains("Scale: 0.0095 (in_accel_scale)"))
    #expect(text.contains("Live magnitude: 0.25 g. WARNING"), "\(text)")
    #expect(text.contains("wrong scale"))
    #expect(text.contains("Mount matrix: 1, 0, 0; 0, 1, 0; 0, 0, 1, from udev ACCEL_MOUNT_MATRIX."))
    #expect(text.contains("Lock: off"))
    #expect(text.contains("Allowed: normal, left-up, bottom-up, right-up, from the default."))
    #expect(text.contains("Hooks: 1 command(s), each killed after 5.0 s.\n  - true"))
    #expect(run.stop() == 0)
  }

  @Test("doctor with a right scale reports the magnitude as expected")
  func doctorHealthy() throws {
    let (run, socket) = try laptopDaemon()
    let result = try runToCompletion([TestPaths.orientctl, "--socket", socket, "doctor"])
    #expect(result.stdout.contains("Live magnitude: 1.00 g, as expected"))
    #expect(result.stdout.contains("No mount matrix is set"))
    #expect(result.stdout.contains("hwdb match for this machine: sensor:modalias:acpi:BOSC0200:BOSC0200:*"))
    #expect(run.stop() == 0)
  }

  @Test("--list shows the modalias, the hwdb match and the matrix source")
  func listDiagnostics() throws {
    let result = try runWithFakeDevices(laptopDevices, ["--list"])
    #expect(result.stdout.contains("modalias: acpi:BOSC0200:BOSC0200:"))
    #expect(
      result.stdout.contains("hwdb match: sensor:modalias:acpi:BOSC0200:BOSC0200:*:dmi:*:svnLENOVO:pn80XE:*"))
    #expect(result.stdout.contains("matrix source: identity (no matrix found)"))
  }
}
