import Foundation
import Testing

/// orientd on `devices` with `extra` options, serving its socket, once it has said the mode
/// `mode` (the hinge sensor's first reading).
private func hingeDaemon(_ devices: [FakeDevice], mode: String, fifoDevices: [Int] = []) throws -> (
  run: FakeSensorRun, socket: String
) {
  let directory = try Scratch.current().makeDirectory("daemon")
  let socket = directory + "/s"
  let run = try FakeSensorRun(
    devices: devices,
    arguments: [
      "--interval", "50", "--settle", "0", "--verbose", "--socket", socket, "--state", directory + "/state",
    ], fifoDevices: fifoDevices)
  try #require(run.process.waitFor("info: mode \(mode)", inStderr: true), "no mode: \(run.process.stderr)")
  try #require(run.process.waitFor("info: orientation normal", inStderr: true), "\(run.process.stderr)")
  return (run, socket)
}

/// `info`'s line for `key`.
private func info(_ socket: String, _ key: String) throws -> String? {
  let asker = try TestClient(path: socket)
  asker.send("info\n")
  return asker.readLines(through: "ok").first { $0.hasPrefix("info \(key) ") }.map {
    String($0.dropFirst("info \(key) ".count))
  }
}

/// A client past its greeting, which ends with the mode and the hinge.
private func client(_ socket: String, mode: String, hinge: Int) throws -> TestClient {
  let client = try TestClient(path: socket)
  let greeting = client.readLines(through: "hinge \(hinge)")
  try #require(greeting.suffix(2) == ["mode \(mode)", "hinge \(hinge)"], "greeting: \(greeting)")
  return client
}

@Suite("The Intel hinge sensor as the tablet-mode source, read with real libiio", .scratch)
struct HingeSensorProcessTests {
  @Test(
    "A polled hinge sensor gives the angle and the mode, tablet from 200 and laptop again at 160, and laptop holds the screen"
  )
  func polled() throws {
    let (run, socket) = try hingeDaemon([.accelerometer(), .hingeSensor(angle: 100)], mode: "laptop")
    let client = try client(socket, mode: "laptop", hinge: 100)
    try run.write("in_angl0_raw", "250", device: 1)
    #expect(client.readLines(2) == ["hinge 250", "mode tablet"])
    try run.setRaw(256, 0, 0)
    #expect(client.readLines(2) == ["device left-up", "orientation left-up"], "a tablet turns")
    // Between the thresholds the mode holds.
    try run.write("in_angl0_raw", "170", device: 1)
    #expect(client.readLine() == "hinge 170")
    #expect(client.linesBeforePong() == [])
    try run.write("in_angl0_raw", "150", device: 1)
    #expect(client.readLines(3) == ["hinge 150", "mode laptop", "orientation normal"])
    #expect(
      try info(socket, "tablet-mode") == "laptop (from hinge sensor at 150 degrees; rotate tablet, from auto)"
    )
    #expect(
      try info(socket, "hinge-sensor") == "iio:device1 (hinge): poll in_angl0_raw every 500 ms; read now")
    // A reading that is no angle is said, naming the device, and skipped.
    try run.write("in_angl0_raw", "4000", device: 1)
    #expect(
      run.process.waitFor(
        "iio:device1 (hinge): in_angl0_raw: reading 4000 is 4000 degrees, not a hinge angle (0 to 360); reading skipped",
        inStderr: true), "\(run.process.stderr)")
    try run.write("in_angl0_raw", "300", device: 1)
    #expect(client.readLines(3) == ["hinge 300", "mode tablet", "orientation left-up"])
    #expect(run.stop() == 0)
  }

  @Test("A hinge sensor is read through its own buffer and trigger, 16 bits of each 32-bit field")
  func buffered() throws {
    let (run, socket) = try hingeDaemon(
      [
        .hingeSensor(angle: 100, id: "iio:device0"),
        .accelerometer(path: "/devices/platform/accel/iio:device1", id: "iio:device1"),
        .trigger("hinge-dev0", number: 0),
      ], mode: "laptop", fifoDevices: [0])
    let client = try client(socket, mode: "laptop", hinge: 100)
    #expect(waitUntil { run.read("buffer/enable") == "1" })
    #expect(run.read("scan_elements/in_angl0_en") == "1")
    // 250 in the lower half; the upper half holds the next field's bytes, as the driver stores it.
    try run.writeNode([0xfa, 0x00, 0x5a, 0x00], device: 0)
    #expect(client.readLines(2) == ["hinge 250", "mode tablet"])
    try run.writeNode(scans32([120]), device: 0)
    #expect(client.readLines(2) == ["hinge 120", "mode laptop"])
    #expect(try info(socket, "hinge-sensor")?.contains("buffer angl0, trigger hinge-dev0") == true)
    #expect(run.stop() == 0)
  }

  @Test("orientd --list shows the hinge sensor and how it would be read")
  func listed() throws {
    let listing = try runWithFakeDevices([.accelerometer(), .hingeSensor()], ["--list"])
    #expect(listing.status == 0, "\(listing.stderr)")
    #expect(
      listing.stdout.contains("* hinge sensor: iio:device1 (hinge)  (would be used)"), "\(listing.stdout)")
    #expect(listing.stdout.contains("poll in_angl0_raw"), "\(listing.stdout)")
  }
}

@Suite("The tablet-mode switch cross-checked by the hinge sensor", .scratch)
struct HingeSensorSwitchTests {
  @Test(
    "A switch's tablet is not trusted while the hinge sensor reads a laptop's angle, said once; a switch's laptop is kept against a tablet's angle"
  )
  func crossCheck() throws {
    let directory = try Scratch.current().makeDirectory("daemon")
    let socket = directory + "/s"
    let run = try FakeInputRun(
      devices: ["tablet"], others: [.accelerometer(raw: (0, -256, 0)), .hingeSensor(angle: 172)],
      program: [
        TestPaths.orientd, "--interval", "10", "--settle", "50", "--socket", socket, "--state",
        directory + "/state",
      ])
    let distrust =
      "warning: tablet-mode switch says tablet while the hinge sensor reads 172 degrees, a laptop's angle "
      + "(some switches fire when a laptop stands on its side): not trusted while the hinge reads so; the mode is laptop"
    #expect(run.logs(distrust), "\(run.process.stderr)")
    let orientctl = { (arguments: [String]) in
      try runToCompletion([TestPaths.orientctl, "--socket", socket] + arguments)
    }
    #expect(try orientctl(["get", "mode"]).stdout == "laptop\n")
    let info = try orientctl(["doctor"]).stdout
    #expect(
      info.contains(
        "Mode: laptop (from hinge sensor at 172 degrees; switch says tablet, not trusted: the hinge reads a laptop's angle; rotate tablet, from auto)."
      ), "\(info)")
    #expect(
      info.contains("  Hinge sensor: iio:device1 (hinge): poll in_angl0_raw every 500 ms; read now."),
      "\(info)")
    let subscriber = try TestClient(path: socket)
    #expect(subscriber.readLines(through: "hinge 172").suffix(2) == ["mode laptop", "hinge 172"])
    // The hinge moves, still a laptop's: nothing more is said.
    try run.write("in_angl0_raw", "150", device: 1)
    #expect(subscriber.readLine() == "hinge 150")
    // Opened past 200 the hinge agrees with the switch, which is trusted again.
    try run.write("in_angl0_raw", "250", device: 1)
    #expect(subscriber.readLines(2) == ["hinge 250", "mode tablet"])
    #expect(
      try orientctl(["doctor"]).stdout.contains("Mode: tablet (from switch; rotate tablet, from auto)."))
    // The switch says laptop while the hinge reads a tablet's angle: the switch is kept.
    run.send("switch tablet tablet 0")
    #expect(subscriber.readLine() == "mode laptop")
    #expect(
      run.logs(
        "info: tablet-mode switch says laptop while the hinge sensor reads 250 degrees, a tablet's angle: "
          + "the switch is kept (the keyboard follows it too)"), "\(run.process.stderr)")
    #expect(
      try orientctl(["doctor"]).stdout.contains(
        "Mode: laptop (from switch; hinge sensor says tablet at 250 degrees, the switch's laptop is kept; rotate tablet, from auto)"
      ))
    #expect(run.stop() == 0)
    #expect(occurrences(of: "not trusted while the hinge reads so", in: run.process.stderr) == 1)
  }
}
