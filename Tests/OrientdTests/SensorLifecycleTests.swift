import Foundation
import Testing

/// Buffered capture with settle 0, so every scan counts at once.
let bufferArguments = ["--dump", "--settle", "0", "--mode", "buffer"]

@Suite("Buffered capture, hot-plug and sensor faults", .scratch)
struct SensorLifecycleTests {
  @Test("Buffer mode turns scans from the device node into events, using every scan of a batch")
  func bufferEvents() throws {
    let run = try FakeSensorRun(
      devices: [.bufferedAccelerometer()], arguments: bufferArguments, bufferFIFO: true)
    #expect(run.process.waitFor("capture mode buffer", inStderr: true))
    run.writeScans([(256, 0, 0)])
    #expect(run.process.waitForLines(2).map(dropTime) == ["device left-up", "orientation left-up"])
    // A batch whose middle scan is the only bottom-up one: it must still be seen.
    run.writeScans([(256, 0, 0), (0, 256, 0), (256, 0, 0)])
    #expect(
      run.process.waitForLines(6).suffix(4).map(dropTime) == [
        "device bottom-up", "orientation bottom-up", "device left-up", "orientation left-up",
      ])
    #expect(run.stop() == 0)
  }

  @Test(
    "Buffer setup enables x, y and z, picks the HID trigger, raises the frequency, wakes at every scan, and restores it all on exit"
  )
  func bufferSetupAndRestore() throws {
    let devices: [FakeDevice] = [
      .bufferedAccelerometer(), .trigger("accel_3d-trigger", number: 0), .trigger("accel_3d-dev0", number: 1),
    ]
    let run = try FakeSensorRun(devices: devices, arguments: bufferArguments, bufferFIFO: true)
    #expect(run.process.waitFor("capture mode buffer", inStderr: true))
    #expect(run.read("trigger/current_trigger") == "accel_3d-dev0")
    #expect(run.read("sampling_frequency") == "20")
    #expect(run.read("buffer/enable") == "1")
    #expect(["x", "y", "z"].map { run.read("scan_elements/in_accel_\($0)_en") } == ["1", "1", "1"])
    #expect(run.read("scan_elements/in_timestamp_en") == "0")
    // The kernel wakes a reader once `watermark` scans are in: one, so that a change is seen
    // at the next scan (with libiio's 64 a real hub at 10 Hz woke it every 6.4 s).
    #expect(run.read("buffer/watermark") == "1")
    #expect(run.read("buffer/length") == "16")
    #expect(run.process.stderr.contains("trigger accel_3d-dev0, sampling_frequency 5 -> 20 Hz"))
    #expect(run.stop() == 0)
    #expect(run.read("buffer/length") == "2")
    #expect(run.read("buffer/watermark") == "1")
    #expect(run.read("trigger/current_trigger") == "")
    #expect(run.read("sampling_frequency") == "5")
    #expect(run.read("buffer/enable") == "0")
    #expect(["x", "y", "z"].map { run.read("scan_elements/in_accel_\($0)_en") } == ["0", "0", "0"])
    #expect(run.read("scan_elements/in_timestamp_en") == "1")
  }

  @Test("Without a -dev<N> trigger, <name>-trigger is used; without either, none")
  func triggerFallbacks() throws {
    let named = try FakeSensorRun(
      devices: [
        .bufferedAccelerometer(), .trigger("other-dev0", number: 0), .trigger("accel_3d-trigger", number: 1),
      ],
      arguments: bufferArguments, bufferFIFO: true)
    #expect(named.process.waitFor("capture mode buffer", inStderr: true))
    #expect(named.read("trigger/current_trigger") == "accel_3d-trigger")
    #expect(named.stop() == 0)

    let none = try FakeSensorRun(
      devices: [.bufferedAccelerometer()], arguments: bufferArguments, bufferFIFO: true)
    #expect(none.process.waitFor("trigger none", inStderr: true))
    #expect(none.read("trigger/current_trigger") == "")
    #expect(none.stop() == 0)
  }

  @Test("A frequency with no list of available values is raised to 10 Hz")
  func frequencyWithoutList() throws {
    var device = FakeDevice.bufferedAccelerometer()
    device.attributes.removeAll { $0.0 == "sampling_frequency_available" }
    let run = try FakeSensorRun(devices: [device], arguments: bufferArguments, bufferFIFO: true)
    #expect(run.process.waitFor("capture mode buffer", inStderr: true))
    #expect(run.read("sampling_frequency") == "10")
    #expect(run.stop() == 0)
    #expect(run.read("sampling_frequency") == "5")
  }

  @Test("Auto mode uses the buffer when it delivers within 1 s")
  func autoChoosesBuffer() throws {
    let run = try FakeSensorRun(
      devices: [.bufferedAccelerometer()], arguments: ["--dump", "--settle", "0"], bufferFIFO: true)
    run.writeScans([(0, 0, -256)])
    #expect(run.process.waitForLines(1).prefix(1).map(dropTime) == ["device face-up"])
    #expect(run.process.waitFor("capture mode buffer: the first scan came after", inStderr: true))
    #expect(run.stop() == 0)
  }

  @Test("Auto mode falls back to polling when the buffer stays silent, and says why")
  func autoFallsBackToPolling() throws {
    let run = try FakeSensorRun(
      devices: [.bufferedAccelerometer(raw: (0, -256, 0))],
      arguments: ["--dump", "--settle", "0", "--interval", "20"],
      bufferFIFO: true)
    #expect(run.process.waitFor("the buffer delivered no sample within 1 s", inStderr: true))
    #expect(run.read("buffer/enable") == "0", "the silent buffer must be closed")
    #expect(run.process.waitForLines(2).map(dropTime) == ["device normal", "orientation normal"])
    try run.setRaw(-256, 0, 0)
    #expect(
      run.process.waitForLines(4).suffix(2).map(dropTime) == ["device right-up", "orientation right-up"])
    #expect(run.stop() == 0)
  }

  @Test("--list says which capture each sensor allows")
  func listCapture() throws {
    let buffered = try runWithFakeDevices([.bufferedAccelerometer()], ["--list"])
    #expect(buffered.stdout.contains("capture: buffer or poll"))
    let polled = try runWithFakeDevices([.accelerometer()], ["--list"])
    #expect(polled.stdout.contains("capture: poll only"))
  }

  @Test("A device without scan elements is polled, and the log says why")
  func noScanElements() throws {
    let run = try FakeSensorRun(devices: [.accelerometer()], arguments: ["--dump", "--settle", "0"])
    #expect(
      run.process.waitFor(
        "capture mode poll every 200 ms, every 1000 ms at rest: the device has no scan elements",
        inStderr: true))
    #expect(run.process.waitForLines(1).prefix(1).map(dropTime) == ["device normal"])
    #expect(run.stop() == 0)
  }

  @Test("The device vanishing mid-run gives sensor offline, orientation still served, then sensor online")
  func vanishAndReturn() throws {
    let device = FakeDevice.accelerometer(raw: (256, 0, 0))
    let (run, socket) = try servingFakeSensor(
      [device], extra: ["--interval", "20", "--settle", "0"], ready: "info: orientation left-up")
    let subscriber = try TestClient(path: socket)
    #expect(
      subscriber.readLines(greetingLines).prefix(3) == [
        "sensor online", "device left-up", "orientation left-up",
      ])

    try run.unplug()
    #expect(subscriber.readLine() == "sensor offline")
    let state = try runToCompletion([TestPaths.orientctl, "--socket", socket, "get"])
    #expect(state.stdout.hasPrefix("sensor offline\ndevice left-up\norientation left-up\n"))

    try run.plug()
    #expect(subscriber.readLine() == "sensor online")
    try run.setRaw(0, 256, 0)
    #expect(subscriber.readLines(2) == ["device bottom-up", "orientation bottom-up"])
    #expect(run.stop() == 0)
  }

  @Test("With no sensor at start the daemon serves sensor offline and attaches the one that appears")
  func noSensorAtStart() throws {
    let device = FakeDevice.accelerometer(raw: (0, -256, 0))
    let (run, socket) = try servingFakeSensor(
      [device], extra: ["--interval", "20", "--settle", "0"],
      prepare: "mv \"$UMOCKDEV_DIR/sys\(device.sysfsPath)\" \"$UMOCKDEV_DIR/later\"",
      ready: "serving 'sensor offline' and looking again every second")
    let subscriber = try TestClient(path: socket)
    #expect(
      subscriber.readLines(greetingLines) == [
        "sensor offline", "device undefined", "orientation undefined", "lock off",
        "allowed normal,left-up,bottom-up,right-up", "mode unknown",
      ])

    try FileManager.default.moveItem(
      atPath: run.testbed + "/later", toPath: run.testbed + "/sys" + device.sysfsPath)
    // Still running, it finds the sensor on one of its looks.
    #expect(subscriber.readLines(3) == ["sensor online", "device normal", "orientation normal"])
    #expect(run.stop() == 0)
  }

  @Test("Garbage attribute values are skipped with a rate-limited warning, never classified")
  func garbageValues() throws {
    let run = try FakeSensorRun(
      devices: [.accelerometer(raw: (256, 0, 0))],
      arguments: ["--dump", "--settle", "0", "--interval", "10"])
    #expect(run.process.waitForLines(2).map(dropTime) == ["device left-up", "orientation left-up"])
    // y now says normal. Any garbage x read as a number near 0 would make that a change.
    for (round, garbage) in ["", "abc", "nan", "99999999999"].enumerated() {
      try run.write("in_accel_x_raw", garbage)
      if round == 0 { try run.write("in_accel_y_raw", "-256") }
      #expect(try run.waitForPolls(), "no poll read '\(garbage)'")
    }
    #expect(run.process.stdoutLines.count == 2, "garbage must not be classified: \(run.process.stdoutLines)")
    let warnings = run.process.stderr.split(separator: "\n").filter { $0.contains("sample skipped") }
    // At least four polls read garbage (one per value); one warning stands for all of them.
    #expect(!warnings.isEmpty)
    #expect(warnings.count <= 2, "warnings must be rate-limited, got \(warnings.count)")
    // y first: while x still holds garbage every poll is skipped, so no poll can see the
    // half-written (0, -256, 0), which is normal.
    try run.write("in_accel_y_raw", "256")
    try run.write("in_accel_x_raw", "0")
    #expect(
      run.process.waitForLines(4).suffix(2).map(dropTime) == ["device bottom-up", "orientation bottom-up"])
    #expect(run.stop() == 0)
  }

  @Test("A sysfs read that blocks does not delay socket clients")
  func blockingReadDoesNotStall() throws {
    let (run, socket) = try servingFakeSensor(
      [.accelerometer()], extra: ["--interval", "20", "--settle", "0", "--verbose"],
      ready: "info: orientation normal")
    // A FIFO with no writer in place of a raw attribute: orientd opens it at its next poll,
    // which blocks the sensor thread like a driver waiting for its next sample.
    let attribute = run.path("in_accel_x_raw")
    try FileManager.default.removeItem(atPath: attribute)
    #expect(mkfifo(attribute, 0o644) == 0)
    // The sensor thread sleeps in openat (system call 257) waiting for a writer.
    func blocked() -> [pid_t] { threads(of: run.programPID, sleepingIn: "wait_for_partner", syscall: 257) }
    try #require(waitUntil { blocked().count == 1 }, "orientd never blocked opening the FIFO")
    let client = try TestClient(path: socket)
    #expect(client.readLines(greetingLines) == normalSnapshot)
    for _ in 0..<20 {
      client.send("ping\n")
      #expect(client.readLine() == "pong")
    }
    #expect(try runToCompletion([TestPaths.orientctl, "--socket", socket, "get"]).status == 0)
    #expect(blocked().count == 1, "the read must have stayed blocked while the clients were served")
    // Unblock the reader so the daemon can stop cleanly.
    let writer = open(attribute, O_RDWR | O_CLOEXEC)
    _ = "0\n".withCString { write(writer, $0, 2) }
    #expect(run.stop() == 0)
    close(writer)
  }
}
