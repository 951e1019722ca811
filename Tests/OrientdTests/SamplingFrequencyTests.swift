import Foundation
import Testing

/// A polled accelerometer (no scan elements) left at `rate` Hz, offering `available`.
private func slowAccelerometer(rate: String = "1", available: String?) -> FakeDevice {
  var device = FakeDevice.accelerometer().with(attribute: "sampling_frequency", rate)
  if let available { device = device.with(attribute: "sampling_frequency_available", available) }
  return device
}

@Suite("The sensor's sampling frequency while polling", .scratch)
struct SamplingFrequencyTests {
  @Test(
    "Poll mode raises a 1 Hz sensor to the lowest offered rate the interval needs, at least 10 Hz, and restores it on SIGTERM or SIGINT"
  )
  func raisedAndRestored() throws {
    // Every 200 ms needs 5 Hz, so 10 Hz: 20 is the lowest offered. Every 20 ms needs 50 Hz.
    // Every 5 ms needs 200 Hz, more than offered: the highest, 100.
    for (interval, expected, signal) in [("200", "20", SIGTERM), ("20", "50", SIGINT), ("5", "100", SIGTERM)]
    {
      let run = try FakeSensorRun(
        devices: [slowAccelerometer(available: "1 5 20 50 100")],
        arguments: ["--dump", "--settle", "0", "--mode", "poll", "--interval", interval])
      #expect(run.process.waitFor("capture mode poll", inStderr: true), "\(run.process.stderr)")
      #expect(run.read("sampling_frequency") == expected, "--interval \(interval)")
      #expect(run.process.stderr.contains("sampling_frequency 1 -> \(expected) Hz"), "\(run.process.stderr)")
      #expect(run.process.waitForLines(2).map(dropTime) == ["device normal", "orientation normal"])
      #expect(run.stop(signal: signal) == 0)
      #expect(run.read("sampling_frequency") == "1", "--interval \(interval): not restored")
    }
  }

  @Test("A range of rates gives the lowest step at or above the need; with no list, the need itself")
  func rangeAndNoList() throws {
    // [1 4 100]: 1, 5, 9, 13 ...; 10 Hz is needed, so 13.
    for (available, expected) in [("[1 4 100]", "13"), (nil, "10")] {
      let run = try FakeSensorRun(
        devices: [slowAccelerometer(available: available)], arguments: ["--dump", "--settle", "0"])
      #expect(run.process.waitFor("capture mode poll", inStderr: true), "\(run.process.stderr)")
      #expect(run.read("sampling_frequency") == expected, "\(available ?? "no list")")
      #expect(run.stop() == 0)
      #expect(run.read("sampling_frequency") == "1")
    }
  }

  @Test("A rate already high enough is left alone, and nothing is written back")
  func fastEnoughLeftAlone() throws {
    let run = try FakeSensorRun(
      devices: [slowAccelerometer(rate: "50", available: "1 5 20 50 100")],
      arguments: ["--dump", "--settle", "0"])
    #expect(run.process.waitFor("capture mode poll", inStderr: true))
    #expect(run.read("sampling_frequency") == "50")
    #expect(!run.process.stderr.contains("sampling_frequency 50 ->"))
    #expect(run.stop() == 0)
    #expect(run.read("sampling_frequency") == "50")
  }

  /// A sensor lost and back: at its driver's default rate (a device plugged in again), or
  /// still at the raised one (as after a read error or an iiod hiccup), where 50 must not
  /// pass for the driver's own rate.
  @Test(
    "A sensor that goes away has nothing restored; when it comes back it is raised again and its own rate restored on exit",
    arguments: [true, false])
  func goneAndBack(backAtDriverDefault: Bool) throws {
    let (run, socket) = try servingFakeSensor(
      [slowAccelerometer(available: "1 5 20 50 100")], extra: ["--interval", "20", "--settle", "0"])
    let subscriber = try TestClient(path: socket)
    #expect(subscriber.readLines(greetingLines).prefix(1) == ["sensor online"])
    #expect(run.read("sampling_frequency") == "50")
    try run.unplug()
    #expect(subscriber.readLine() == "sensor offline")
    if backAtDriverDefault {
      try "1\n".write(
        toFile: run.testbed + "/unplugged-0/sampling_frequency", atomically: false, encoding: .utf8)
    }
    try run.plug()
    #expect(subscriber.readLine() == "sensor online")
    #expect(run.read("sampling_frequency") == "50")
    #expect(run.stop() == 0)
    #expect(run.read("sampling_frequency") == "1")
    #expect(!run.process.stderr.contains("cannot raise"), "\(run.process.stderr)")
  }
}
