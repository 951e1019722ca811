import Foundation
import Testing

@Suite("Accelerometers with scan elements and no raw attributes", .scratch)
struct ScanOnlySensorTests {
  @Test("A device with only accel scan elements is read through its buffer, in auto and in buffer mode")
  func readThroughBuffer() throws {
    for (mode, reason) in [
      ([], "capture mode buffer (the device has no raw attributes to poll)"),
      (["--mode", "buffer"], "capture mode buffer (--mode buffer)"),
    ] {
      let run = try FakeSensorRun(
        devices: [.scanOnlyAccelerometer()], arguments: ["--dump", "--settle", "0"] + mode, bufferFIFO: true)
      #expect(run.process.waitFor(reason, inStderr: true), "\(mode): \(run.process.stderr)")
      run.writeScans([(256, 0, 0)])
      #expect(run.process.waitForLines(2).map(dropTime) == ["device left-up", "orientation left-up"])
      run.writeScans([(0, 256, 0)])
      #expect(
        run.process.waitForLines(4).suffix(2).map(dropTime) == ["device bottom-up", "orientation bottom-up"])
      #expect(!run.process.stderr.contains("capture mode poll"), "\(mode): \(run.process.stderr)")
      #expect(run.stop() == 0)
      #expect(run.read("buffer/enable") == "0")
    }
  }

  @Test("--mode poll on it exits 69 with --dump, naming the device and why")
  func pollModeFailsClearly() throws {
    let result = try runWithFakeDevices([.scanOnlyAccelerometer()], ["--dump", "--mode", "poll"])
    #expect(result.status == 69)
    #expect(
      result.stderr.contains(
        "iio:device0 (accel_3d) cannot be polled: it has scan elements for accel x, y and z but no "
          + "in_accel_{x,y,z}_raw attributes; use mode auto or buffer"), "\(result.stderr)")
  }

  @Test("--mode poll on it while serving says why once and serves sensor offline")
  func pollModeServesOffline() throws {
    let (run, socket) = try servingFakeSensor(
      [.scanOnlyAccelerometer()], extra: ["--mode", "poll"],
      ready: "serving 'sensor offline' and looking again every second")
    let state = try runToCompletion([TestPaths.orientctl, "--socket", socket, "get"])
    #expect(state.stdout.hasPrefix("sensor offline\n"), "\(state.stdout)")
    let lines = run.process.stderr.split(separator: "\n").filter { $0.contains("cannot be polled") }
    #expect(lines.count == 1, "\(run.process.stderr)")
    #expect(lines.first?.contains("iio:device0 (accel_3d) cannot be polled") == true)
    #expect(run.stop() == 0)
  }

  @Test("Without a scale, raw values are taken as m/s² (scale 1.0) with a warning naming the device")
  func missingScale() throws {
    let run = try FakeSensorRun(
      devices: [.scanOnlyAccelerometer(scale: nil)], arguments: ["--dump", "--settle", "0"], bufferFIFO: true)
    #expect(run.process.waitFor("capture mode buffer", inStderr: true))
    // 10 m/s² along x is 1.02 g: left-up.
    run.writeScans([(10, 0, 0)])
    #expect(run.process.waitForLines(2).map(dropTime) == ["device left-up", "orientation left-up"])
    #expect(run.stop() == 0)
    let warnings = run.process.stderr.split(separator: "\n").filter { $0.contains("warning:") }
    #expect(
      warnings.contains {
        $0.contains("iio:device0 (accel_3d): no usable scale for axis x, y, z") && $0.contains("assuming 1.0")
      },
      "\(run.process.stderr)")
  }

  @Test("--list shows it as buffer only, with no polled reading")
  func listing() throws {
    let result = try runWithFakeDevices([.scanOnlyAccelerometer()], ["--list"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("* iio:device0  accel_3d"))
    #expect(
      result.stdout.contains(
        "capture: buffer only (scan elements for accel x, y and z, no in_accel_{x,y,z}_raw"))
    #expect(result.stdout.contains("reading: unavailable (the device has no in_accel_{x,y,z}_raw"))
  }
}
