import Foundation
import Testing

/// A HID sensor hub's accelerometer as hid-sensor-accel-3d makes it: raw values in milli-g
/// (scale 9.80665 mm/s²), a change sensitivity of 0 and a 10 Hz report rate, and a buffer.
private func hubAccelerometer() -> FakeDevice {
  var device = FakeDevice.bufferedAccelerometer(raw: (0, -1000, 0))
  device.attributes.removeAll {
    ["in_accel_scale", "sampling_frequency", "sampling_frequency_available"].contains($0.0)
  }
  device.attributes += [
    ("in_accel_scale", "0.009806650"), ("in_accel_hysteresis", "0.000000"),
    ("in_accel_sampling_frequency", "10.000000"),
  ]
  return device
}

@Suite("A sensor hub's change sensitivity while its buffer captures", .scratch)
struct HubSensitivityTests {
  @Test(
    "The buffer sets 0.05 g and 25 Hz, a hub that sends quiet scans is slowed to its own rate at rest and sped up when the device moves, and stopping puts both back"
  )
  func setAdaptedAndRestored() throws {
    let run = try FakeSensorRun(devices: [hubAccelerometer()], arguments: bufferArguments, bufferFIFO: true)
    #expect(run.process.waitFor("capture mode buffer", inStderr: true), "\(run.process.stderr)")
    // Set at the first scan the classifier has nothing pending after (settle 0: the first).
    #expect(run.read("in_accel_hysteresis") == "0.000000")
    run.writeScans([(0, -1000, 0)])
    #expect(
      run.process.waitFor(
        "iio:device0 (accel_3d): the sensor hub reports moves of 0.05 g or more, at 25 Hz, while the buffer "
          + "captures (in_accel_hysteresis 0.000000 -> 0.05, in_accel_sampling_frequency 10.000000 -> 25 Hz); "
          + "both go back when capture stops", inStderr: true), "\(run.process.stderr)")
    #expect(run.read("in_accel_hysteresis") == "0.05")
    #expect(run.read("in_accel_sampling_frequency") == "25")

    // The hub goes on sending at every interval while the device rests (within 0.02 g): after
    // ten quiet scans orientd says so and asks for the hub's own rate.
    run.writeScans((0..<10).map { Int16($0 % 2 == 0 ? 20 : 0) }.map { ($0, -1000, 0) })
    #expect(run.process.waitFor("the sensor hub ignores its change sensitivity of 0.05 g", inStderr: true))
    #expect(waitUntil { run.read("in_accel_sampling_frequency") == "10.000000" })
    // A scan that moves by the sensitivity: the fast rate again, while the device moves.
    run.writeScans([(100, -995, 0)])
    #expect(waitUntil { run.read("in_accel_sampling_frequency") == "25" })
    run.writeScans(Array(repeating: (100, -995, 0), count: 10))
    #expect(waitUntil { run.read("in_accel_sampling_frequency") == "10.000000" })
    #expect(run.process.stderr.components(separatedBy: "ignores its change sensitivity").count == 2)

    #expect(run.stop() == 0)
    #expect(run.read("in_accel_hysteresis") == "0.000000")
    #expect(run.read("in_accel_sampling_frequency") == "10.000000")
  }

  @Test("A hub that honours its sensitivity is left at the fast rate, however long the device turns")
  func honouringHubStaysFast() throws {
    let run = try FakeSensorRun(devices: [hubAccelerometer()], arguments: bufferArguments, bufferFIFO: true)
    #expect(run.process.waitFor("capture mode buffer", inStderr: true))
    run.writeScans([(0, -1000, 0)])
    #expect(run.process.waitFor("in_accel_sampling_frequency 10.000000 -> 25 Hz", inStderr: true))
    // A turn to left-up as such a hub reports it: each scan 0.05 g or more from the last.
    run.writeScans(
      (0...18).map { step in
        let radians = Double(step) * 5 * Double.pi / 180
        return (Int16((1000 * sin(radians)).rounded()), Int16((-1000 * cos(radians)).rounded()), 0)
      })
    #expect(
      run.process.waitForLines(4).map(dropTime) == [
        "device normal", "orientation normal", "device left-up", "orientation left-up",
      ])
    #expect(run.read("in_accel_sampling_frequency") == "25")
    #expect(!run.process.stderr.contains("ignores its change sensitivity"))
    #expect(run.stop() == 0)
    #expect(run.read("in_accel_sampling_frequency") == "10.000000")
  }

  @Test("The hub is set only once no change is pending, so that its reports decide the first orientation")
  func setOnceNothingPending() throws {
    let run = try FakeSensorRun(
      devices: [hubAccelerometer()], arguments: ["--dump", "--settle", "200", "--mode", "buffer"],
      bufferFIFO: true)
    #expect(run.process.waitFor("capture mode buffer", inStderr: true))
    // The first scan proposes normal, which waits for the settle time; no scan follows, and the
    // quiet timer decides it one report period after the settle time.
    run.writeScans([(0, -1000, 0)])
    let lines = run.process.waitForLines(2)
    #expect(lines.map(dropTime) == ["device normal", "orientation normal"])
    #expect(lines.first.flatMap { Double($0.split(separator: " ")[0]) }.map { $0 >= 0.2 } == true, "\(lines)")
    // Decided with no scan since: the hub was not set while the change was pending.
    #expect(run.read("in_accel_hysteresis") == "0.000000")
    // The hub's next report, with nothing pending, sets it.
    run.writeScans([(0, -1000, 0)])
    #expect(waitUntil { run.read("in_accel_hysteresis") == "0.05" })
    #expect(run.stop() == 0)
    #expect(run.read("in_accel_hysteresis") == "0.000000")
  }

  @Test("An accelerometer whose scale is in no unit a hub uses is left alone")
  func otherAccelerometerLeftAlone() throws {
    let device = hubAccelerometer().with(attribute: "in_accel_scale", "0.038307")
    let run = try FakeSensorRun(devices: [device], arguments: bufferArguments, bufferFIFO: true)
    #expect(run.process.waitFor("capture mode buffer", inStderr: true))
    run.writeScans(Array(repeating: (0, -256, 0), count: 12))
    #expect(run.process.waitForLines(2).map(dropTime) == ["device normal", "orientation normal"])
    #expect(run.read("in_accel_hysteresis") == "0.000000")
    #expect(run.read("in_accel_sampling_frequency") == "10.000000")
    #expect(!run.process.stderr.contains("sensor hub"), "\(run.process.stderr)")
    #expect(run.stop() == 0)
  }
}
