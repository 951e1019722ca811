import OrientCore
import OrientSystem

/// Reads an accelerometer's raw attributes once per interval on a periodic timerfd.
///
/// Between ticks the daemon sleeps: the timer is the only wake-up.
public final class PollingSource {
  private let accelerometer: Accelerometer
  private let converter: SampleConverter
  private let origin: UInt64
  private let deliver: (Sample) -> Void
  private var timer: LoopTimer?
  private var readWarning = RateLimitedWarning()

  /// Prepares polling; `origin` is the monotonic time that sample times count from.
  public init(
    accelerometer: Accelerometer, converter: SampleConverter, origin: UInt64,
    deliver: @escaping (Sample) -> Void
  ) {
    self.accelerometer = accelerometer
    self.converter = converter
    self.origin = origin
    self.deliver = deliver
  }

  /// Reads once now, then every `intervalMilliseconds`.
  public func start(loop: EventLoop, intervalMilliseconds: Int) throws(SystemError) {
    let timer = try LoopTimer(loop: loop) { [unowned self] _ in self.poll() }
    let interval = UInt64(intervalMilliseconds) * 1_000_000
    timer.schedule(afterNanoseconds: 0, repeatingEveryNanoseconds: interval)
    self.timer = timer
  }

  /// Stops the timer.
  public func stop() { timer = nil }

  private func poll() {
    let now = Clock.monotonicNanoseconds
    switch accelerometer.readRaw() {
    case .failure(let error):
      readWarning.warn("\(accelerometer.summary): \(error); sample skipped")
    case .success(let (x, y, z)):
      let raw = converter.uncorrected(rawX: x, rawY: y, rawZ: z)
      let time = SampleTime(microseconds: Int64((now - origin) / 1000))
      deliver(Sample(time: time, raw: raw, gravity: converter.mountMatrix * raw))
    }
  }
}
