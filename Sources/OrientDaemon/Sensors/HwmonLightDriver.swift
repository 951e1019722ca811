import OrientCore
import OrientSystem

/// Reads Apple's SMC light sensor through hwmon every second, while needed: its `light` file
/// holds `(LEFT,RIGHT)`, and the level is a percentage in the vendor's unit.
final class HwmonLightDriver: SensorDriver {
  let kind = SensorKind.light
  let summary: String
  private let file: String
  private let loop: EventLoop
  private var model = LightModel(conversion: LightConversion(processed: true, unit: .vendor))
  private let report: (DriverReport) -> Void
  private var timer: LoopTimer?
  private var warning = RateLimitedWarning()

  init(file: String, loop: EventLoop, report: @escaping (DriverReport) -> Void) {
    self.file = file
    self.loop = loop
    self.report = report
    summary = "poll \(file) every \(ReadingIntervals.hwmonLight.wholeMilliseconds) ms"
  }

  func setNeeded(_ needed: Bool) {
    guard needed != (timer != nil) else { return }
    if needed {
      let timer = LoopTimer(loop: loop) { [unowned self] _ in self.poll() }
      timer.schedule(after: .zero, repeating: ReadingIntervals.hwmonLight)
      self.timer = timer
    } else {
      timer = nil
      model.reset()
    }
  }

  func close() { setNeeded(false) }

  private func poll() {
    let text: String
    do {
      text = try FileSystem.readText(file, limit: 256)
    } catch {
      if error.code.meansDeviceGone {
        close()
        return report(.lost("\(file): \(error)"))
      }
      return warning.warn("\(file): \(error); reading skipped")
    }
    switch LightConversion.hwmonLevel(text) {
    case .success(let level):
      if let value = model.take(level: level) { report(.value(value)) }
    case .failure(let error):
      warning.warn("\(file): \(error.message); reading skipped")
    }
  }
}
