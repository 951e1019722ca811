import OrientCore
import OrientInput
import OrientSystem

/// Reads a front proximity switch (`SW_FRONT_PROXIMITY`) through libevdev, while needed: its
/// events wake the loop, nothing is polled.
final class InputProximityDriver: SensorDriver {
  let kind = SensorKind.proximity
  private(set) var summary: String
  private let devnode: String
  private let loop: EventLoop
  private var model = ProximityModel(rule: .presence)
  private let report: (DriverReport) -> Void
  private var device: ProximitySwitch?
  private var watch: Watch?

  init(devnode: String, loop: EventLoop, report: @escaping (DriverReport) -> Void) {
    self.devnode = devnode
    self.loop = loop
    self.report = report
    summary = "SW_FRONT_PROXIMITY events"
  }

  func setNeeded(_ needed: Bool) {
    guard needed != (device != nil) else { return }
    needed ? start() : stop()
  }

  func close() { stop() }

  private func start() {
    do {
      let opened = try ProximitySwitch(devnode: devnode)
      watch = try loop.watch(opened.descriptor) { [unowned self] events in self.ready(events) }
      device = opened
      summary = "SW_FRONT_PROXIMITY events"
      if let value = model.take(near: opened.isNear) { report(.value(value)) }
    } catch {
      report(.lost("\(devnode): \(error)"))
    }
  }

  private func stop() {
    if let watch { loop.unwatch(watch) }
    watch = nil
    device = nil
    model.reset()
  }

  private func ready(_ events: IOEvents) {
    guard let device else { return }
    switch device.drain() {
    case .read:
      if let value = model.take(near: device.isNear) { report(.value(value)) }
      if !events.isDisjoint(with: [.hangUp, .error]) {
        stop()
        report(.lost("\(devnode) hung up"))
      }
    case .gone:
      stop()
      report(.lost("\(devnode) is gone"))
    case .failed(let why):
      stop()
      report(.lost(why))
    }
  }
}
