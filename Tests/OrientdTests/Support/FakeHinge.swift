import Foundation
import Testing

/// A convertible's two fake accelerometers: the display's (device 0, no location, so the
/// display) and the keyboard base's (device 1, `ACCEL_LOCATION=base`, with a mount matrix
/// of its own), and the raw readings that put its lid at a given opening.
///
/// Angles follow the hinge's convention: the hinge is x in both corrected frames, and in the
/// frame the angle is worked out in, the base reads as the display does with the device open
/// flat. The base sensor itself is set up as systemd's hwdb asks (it reads as the display
/// does with the lid closed), half a turn about x from that frame.
enum FakeHinge {
  static let display = FakeDevice.accelerometer(
    path: "/devices/platform/lid/iio:device0", id: "iio:device0", name: "accel_lid")
  /// Its matrix swaps x and y and turns z over: a reading that ignored it would be wrong.
  static let base = FakeDevice.accelerometer(
    path: "/devices/platform/base/iio:device1", id: "iio:device1", name: "accel_base"
  )
  .with(property: "ACCEL_LOCATION", "base")
  .with(property: "ACCEL_MOUNT_MATRIX", "0, 1, 0; 1, 0, 0; 0, 0, -1")
  /// The base sensor with a buffer to capture through, as the first device (the one whose
  /// node `FakeSensorRun` can make a FIFO to feed scans into), and the display sensor second.
  static let bufferedPair = [
    FakeDevice.bufferedAccelerometer()
      .with(attribute: "name", "accel_base")
      .with(property: "ACCEL_LOCATION", "base")
      .with(property: "ACCEL_MOUNT_MATRIX", "0, 1, 0; 1, 0, 0; 0, 0, -1"),
    FakeDevice.accelerometer(path: "/devices/platform/lid/iio:device1", id: "iio:device1", name: "accel_lid"),
  ]

  /// The base's matrix, its own inverse.
  static let baseMatrix: [[Double]] = [[0, 1, 0], [1, 0, 0], [0, 0, -1]]

  static let displayIndex = 0
  static let baseIndex = 1

  /// Gravity in g as a lying-flat base sees it, in the flat frame.
  static let flat = (x: 0.0, y: 0.0, z: -1.0)

  /// Raw units per g with the fake devices' scale.
  static let unitsPerG = 256.0

  /// The raw readings at `opening` degrees when gravity in the base's flat frame is `base`,
  /// its magnitude scaled by `baseScale` (a moving device reads unequal magnitudes).
  static func raw(opening: Double, base: (x: Double, y: Double, z: Double) = flat, baseScale: Double = 1)
    -> (display: (Int, Int, Int), base: (Int, Int, Int))
  {
    // The lid's frame is the base's flat frame turned about x by the opening less 180.
    let turn = (opening - 180) * Double.pi / 180
    let lid = (
      x: base.x, y: cos(turn) * base.y - sin(turn) * base.z, z: sin(turn) * base.y + cos(turn) * base.z
    )
    // The sensor reads the flat frame turned half a turn about x; its raw reading is that
    // reading through the inverse of its matrix (which is the matrix itself).
    let corrected = [base.x, -base.y, -base.z].map { $0 * baseScale }
    let baseRaw = baseMatrix.map { row in zip(row, corrected).map { $0 * $1 }.reduce(0, +) }
    return (units(lid.x, lid.y, lid.z), units(baseRaw[0], baseRaw[1], baseRaw[2]))
  }

  /// Gravity along (x, y, z), normalised.
  static func direction(_ x: Double, _ y: Double, _ z: Double) -> (x: Double, y: Double, z: Double) {
    let length = (x * x + y * y + z * z).squareRoot()
    return (x / length, y / length, z / length)
  }

  private static func units(_ x: Double, _ y: Double, _ z: Double) -> (Int, Int, Int) {
    (Int((x * unitsPerG).rounded()), Int((y * unitsPerG).rounded()), Int((z * unitsPerG).rounded()))
  }

  /// orientd polling both sensors every 10 ms, printing changes (`--dump`) and logging the
  /// hinge's angles too (`--verbose`).
  static let arguments = ["--dump", "--interval", "10", "--settle", "50", "--verbose"]

  /// The display and base sensors with the lid at `opening`, the base lying flat.
  static func devices(opening: Double) -> [FakeDevice] {
    let readings = raw(opening: opening)
    return [
      display.with(attribute: "in_accel_x_raw", "\(readings.display.0)")
        .with(attribute: "in_accel_y_raw", "\(readings.display.1)")
        .with(attribute: "in_accel_z_raw", "\(readings.display.2)"),
      base.with(attribute: "in_accel_x_raw", "\(readings.base.0)")
        .with(attribute: "in_accel_y_raw", "\(readings.base.1)")
        .with(attribute: "in_accel_z_raw", "\(readings.base.2)"),
    ]
  }

  /// Starts orientd on both sensors with the lid at `opening` and waits until it pairs them.
  static func start(opening: Double = 90, extra: [String] = []) throws -> FakeSensorRun {
    let run = try FakeSensorRun(devices: devices(opening: opening), arguments: arguments + extra)
    try #require(run.process.waitFor("hinge: pairing", inStderr: true), "no hinge: \(run.process.stderr)")
    return run
  }
}

/// One line the hinge logs when what it says changes: `hinge 210 degrees: tablet mode`, or
/// `hinge angle unknown: unknown mode (no hinge)` once a sensor of the pair is gone.
struct HingeLine: Equatable, CustomStringConvertible {
  var angle: Int?
  var mode: String
  /// Whether both sensors are there.
  var available = true

  var description: String {
    "\(angle.map { "\($0)" } ?? "unknown"): \(mode)\(available ? "" : " (no hinge)")"
  }

  /// The hinge lines in a log, in order.
  static func all(in log: String) -> [HingeLine] {
    log.split(separator: "\n").compactMap { line in
      guard let start = line.range(of: "hinge ")?.lowerBound, !line.contains("hinge: ") else { return nil }
      let words = line[start...].split(separator: " ")
      guard words.count >= 4, let modeIndex = words.firstIndex(where: { $0.hasSuffix(":") }),
        modeIndex + 1 < words.count
      else { return nil }
      return HingeLine(
        angle: Int(words[1]), mode: String(words[modeIndex + 1]), available: !line.hasSuffix("(no hinge)"))
    }
  }
}

/// orientd running on fake sensors, in a testbed of IIO devices alone or with evdev switches.
protocol FakeHingeRun: FakeSysfs {
  var process: TestProcess { get }
}

extension FakeSensorRun: FakeHingeRun {}
extension FakeInputRun: FakeHingeRun {}

extension FakeHingeRun {
  /// Puts the lid at `opening` (and the base's gravity at `base`, scaled by `baseScale`), and
  /// waits until orientd has read both sensors since: the display twice, as a poll may have
  /// read one axis before the step and the next after (the hinge then takes the second).
  func setHinge(
    _ opening: Double, base: (x: Double, y: Double, z: Double) = FakeHinge.flat, baseScale: Double = 1
  ) throws {
    let readings = FakeHinge.raw(opening: opening, base: base, baseScale: baseScale)
    try setRaw(readings.base.0, readings.base.1, readings.base.2, device: FakeHinge.baseIndex)
    try setRaw(readings.display.0, readings.display.1, readings.display.2, device: FakeHinge.displayIndex)
    try #require(try waitForPolls(device: FakeHinge.baseIndex), "the base sensor was not read")
    try #require(try waitForPolls(2, device: FakeHinge.displayIndex), "the display sensor was not read")
  }

  /// Sets each opening in turn and, for each between the unstable ends (30 to 330 degrees),
  /// waits until orientd has published an angle within 5 degrees of it (`latestAngle` reads
  /// the newest angle published). A sweep then checks what orientd made of every step, however
  /// late a loaded machine lets it pair the two sensors' readings; a step never published fails
  /// here.
  func sweepHinge(
    _ openings: some Sequence<Double>, base: (x: Double, y: Double, z: Double) = FakeHinge.flat,
    latestAngle: () -> Int?
  ) throws {
    for opening in openings {
      try setHinge(opening, base: base)
      guard (30...330).contains(opening) else { continue }
      let published = waitUntil { latestAngle().map { abs(Double($0) - opening) < 5 } ?? false }
      try #require(published, "no angle near \(opening) was published: \(hingeLines)")
    }
  }

  /// The hinge lines logged so far.
  var hingeLines: [HingeLine] { HingeLine.all(in: process.stderr) }

  /// Waits for a hinge line for `angle` in `mode`.
  func waitForHinge(_ angle: Int?, _ mode: String, timeout: Double = patience) -> Bool {
    waitUntil(timeout: timeout) { hingeLines.contains(HingeLine(angle: angle, mode: mode)) }
  }
}
