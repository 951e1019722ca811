import OrientCore
import OrientIIO
import OrientSystem

/// Reads a value sensor's attribute file every interval, while needed: a light level, a
/// proximity reading or a heading, through the kind's model.
final class IIOPollDriver: SensorDriver {
  let kind: SensorKind
  let summary: String
  private let device: IIODevice
  private let file: String
  private let interval: Duration
  private let loop: EventLoop
  private var model: any ReadingModel
  private let report: (DriverReport) -> Void
  private var capture: PollCapture?
  private var timer: LoopTimer?
  private var warning = RateLimitedWarning()

  /// A driver for `file` of `device`, read every `interval` into `model`; what it reads goes to
  /// `report`. Nothing is read until `setNeeded(true)`.
  init(
    kind: SensorKind, device: IIODevice, file: String, interval: Duration, model: any ReadingModel,
    loop: EventLoop, report: @escaping (DriverReport) -> Void
  ) {
    self.kind = kind
    self.device = device
    self.file = file
    self.interval = interval
    self.model = model
    self.loop = loop
    self.report = report
    summary = "poll \(file) every \(interval.wholeMilliseconds) ms"
  }

  func setNeeded(_ needed: Bool) {
    guard needed != (timer != nil) else { return }
    if needed {
      capture = PollCapture(device: device, files: [file])
      let timer = LoopTimer(loop: loop) { [unowned self] _ in self.poll() }
      timer.schedule(after: .zero, repeating: interval)
      self.timer = timer
    } else {
      timer = nil
      capture = nil
      model.reset()
    }
  }

  func close() { setNeeded(false) }

  /// Reads the sensor once now, outside polling (a buffered sensor's value at start).
  static func readOnce(device: IIODevice, file: String) -> Double? {
    if case .success(let value) = PollCapture(device: device, files: [file]).readValue() { return value }
    return nil
  }

  private func poll() {
    guard let capture else { return }
    switch capture.readValue() {
    case .success(let raw):
      switch model.take(raw: raw) {
      case .success(let value?): report(.value(value))
      case .success(nil): break
      case .failure(let error): warning.warn("\(device.summary): \(file): \(error.message); reading skipped")
      }
    case .failure(.garbage(let file, let value)):
      warning.warn("\(device.summary): \(file) holds '\(value)', not a reading; reading skipped")
    case .failure(.readFailed(let file, let code)) where !code.meansDeviceGone:
      warning.warn("\(device.summary): reading \(file) failed: \(code); reading skipped")
    case .failure(let error):
      close()
      report(.lost("\(device.summary): \(error)"))
    }
  }
}
