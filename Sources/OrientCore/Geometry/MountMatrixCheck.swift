/// Whether the display sensor's mount matrix agrees with the one thing orientd knows for sure
/// about a laptop in use: its display stands upright. A display that reads another screen
/// orientation all along, while a source independent of that sensor (a tablet-mode switch)
/// says the machine is a laptop with its lid open, has a mount matrix a quarter or half turn
/// off; the fix is that turn applied before the matrix, which orientd says and never applies
/// (the user may, after all, hold the laptop on its side).
///
/// Pure: every input carries its time; the shell looks again at `Step.checkAt`.
package struct MountMatrixCheck: Sendable {
  /// How long the display must read one orientation in laptop use for a finding.
  package static let persistence = Duration.seconds(10)

  /// What the check found.
  package enum Finding: Equatable, Sendable {
    /// The display read upright in laptop use.
    case agrees
    /// The display read `reads` in laptop use; `turn` applied before the mount matrix
    /// (`turn * matrix`) would make it read normal.
    case wrong(reads: DeviceOrientation, turn: Matrix3)
  }

  /// What the shell does after an observation.
  package enum Step: Equatable, Sendable {
    /// Nothing to wait for.
    case idle
    /// Observe again at this time, if nothing changes before.
    case checkAt(SampleTime)
    /// A finding other than the last one: say it.
    case found(Finding)
  }

  /// The last finding; nil before any.
  package private(set) var finding: Finding?
  /// The orientation the display reads in laptop use, and since when.
  private var reading: (orientation: DeviceOrientation, since: SampleTime)?

  /// A check that has seen nothing.
  package init() {}

  /// Takes the display's orientation (`device`) and whether the machine is a laptop in use
  /// (`laptopInUse`), as they are at `time`.
  package mutating func observe(device: DeviceOrientation?, laptopInUse: Bool, at time: SampleTime) -> Step {
    // Face-up or face-down says nothing of a turn in the screen's plane (a lid opened flat).
    guard laptopInUse, let device, device.screen != nil else {
      reading = nil
      return .idle
    }
    let since = reading?.orientation == device ? reading?.since ?? time : time
    reading = (device, since)
    guard time - since >= Self.persistence else { return .checkAt(since + Self.persistence) }
    let found = device == .normal ? Finding.agrees : .wrong(reads: device, turn: Self.turn(from: device))
    guard found != finding else { return .idle }
    finding = found
    return .found(found)
  }

  /// The turn about the screen's normal that takes `reads`'s gravity to normal's.
  package static func turn(from reads: DeviceOrientation) -> Matrix3 {
    switch reads {
    case .leftUp: return Matrix3(rows: Vector3(0, 1, 0), Vector3(-1, 0, 0), Vector3(0, 0, 1))
    case .rightUp: return Matrix3(rows: Vector3(0, -1, 0), Vector3(1, 0, 0), Vector3(0, 0, 1))
    case .bottomUp: return Matrix3(rows: Vector3(-1, 0, 0), Vector3(0, -1, 0), Vector3(0, 0, 1))
    case .normal, .faceUp, .faceDown: return .identity
    }
  }
}
