/// When a polled device shows that it moves, so that a buffer that stayed silent (a sensor
/// hub that sends only on change) is worth trying again at once rather than at the end of its
/// backoff: a reading that differs clearly from the previous one, or a change of orientation
/// pending. Tries are at least a second apart, whatever started them, and each try that
/// movement starts doubles the spacing before the next one (up to a minute): a buffer that
/// stayed silent through one movement is not opened again at every turn of the device
/// (a try opens the buffer and its scan elements and waits up to a second; on a tablet turned
/// every few seconds that was most of orientd's work while turning). A buffer that delivers
/// ends the polling, and with it this trigger.
///
/// Pure: the caller passes each reading's time.
package struct BufferRetryTrigger: Sendable {
  /// A reading that differs from the previous one by this much (in g, the length of the
  /// difference) is movement; a still sensor's noise is a few hundredths of a g.
  static let movement = 0.1
  /// The least time between two tries of the buffer, at first.
  package static let spacing = Duration.seconds(1)
  /// The most the spacing grows to.
  package static let maximumSpacing = Duration.seconds(60)

  private var previous: Vector3?
  private var lastTry: SampleTime?
  /// The least time from the last try to the next one that movement starts.
  private var currentSpacing = Self.spacing

  /// A trigger with no reading and no try yet.
  package init() {}

  /// Takes a polled reading (`gravity` in g) at `time`, and whether a change of orientation is
  /// pending after it; returns whether to try the buffer now. A true answer counts as a try.
  package mutating func shouldTry(gravity: Vector3, changePending: Bool, at time: SampleTime) -> Bool {
    let moved =
      previous.map {
        Vector3(gravity.x - $0.x, gravity.y - $0.y, gravity.z - $0.z).magnitude >= Self.movement
      } ?? false
    previous = gravity
    guard moved || changePending else { return false }
    guard lastTry.map({ time - $0 >= currentSpacing }) ?? true else {
      return false
    }
    lastTry = time
    currentSpacing = min(currentSpacing * 2, Self.maximumSpacing)
    return true
  }

  /// Notes a try made for another reason (the backoff's timer), which the spacing counts from.
  package mutating func tried(at time: SampleTime) { lastTry = time }

  /// Forgets the previous reading (polling starts again, perhaps after a pause).
  package mutating func forgetReading() { previous = nil }
}
