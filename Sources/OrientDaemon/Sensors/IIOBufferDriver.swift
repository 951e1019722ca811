import OrientCore
import OrientIIO
import OrientSystem

/// Reads a value sensor through its IIO buffer, while needed: the sampling thread sleeps
/// until the kernel has a scan, which a HID sensor hub sends when the value changes by its
/// change sensitivity. A value at rest costs no wake-up at all.
///
/// When it starts, the sensor is read once directly where it can be (a HID hub answers a
/// `_raw` read with a report of its own), so a claim gets the value at once even while the
/// hub sends nothing.
///
/// Why this type has about 14 stored properties: most are the constant facts of one buffered
/// channel (device, context, channel, trigger, the file read for a first value) fixed at
/// open; the state is the capture, its watch and the model.
final class IIOBufferDriver: SensorDriver {
  let kind: SensorKind
  let summary: String
  private let device: IIODevice
  private let context: IIOContext
  private let channelID: String
  private let trigger: String
  /// The file read once at start, if the device has one.
  private let initialFile: String?
  private let loop: EventLoop
  private var model: any ReadingModel
  private let report: (DriverReport) -> Void
  /// Called when the buffer cannot be opened, with why: the owner reads the sensor another way.
  private let unusable: (String) -> Void
  private var capture: ChannelCapture?
  private var watch: Watch?
  private var warning = RateLimitedWarning()

  init(
    kind: SensorKind, device: IIODevice, context: IIOContext, channelID: String, trigger: String,
    initialFile: String?, model: any ReadingModel, loop: EventLoop,
    report: @escaping (DriverReport) -> Void, unusable: @escaping (String) -> Void
  ) {
    self.kind = kind
    self.device = device
    self.context = context
    self.channelID = channelID
    self.trigger = trigger
    self.initialFile = initialFile
    self.model = model
    self.loop = loop
    self.report = report
    self.unusable = unusable
    summary = "buffer \(channelID), trigger \(trigger)"
  }

  func setNeeded(_ needed: Bool) {
    guard needed != (capture != nil) else { return }
    needed ? start() : stop()
  }

  func close() { stop() }

  private func start() {
    let opened: ChannelCapture
    do {
      opened = try ChannelCapture(device: device, context: context, channelID: channelID, trigger: trigger)
    } catch {
      return unusable("its buffer cannot be used: \(error)")
    }
    do {
      watch = try loop.watch(opened.pollDescriptor) { [unowned self] events in
        self.readBuffer(hungUp: events.contains(.hangUp) || events.contains(.error))
      }
    } catch {
      opened.stop()
      return unusable("its buffer's node cannot be watched for scans: \(error)")
    }
    capture = opened
    if let initialFile, let raw = IIOPollDriver.readOnce(device: device, file: initialFile) { take(raw) }
  }

  private func stop() {
    if let watch { loop.unwatch(watch) }
    watch = nil
    capture?.stop()
    capture = nil
    model.reset()
  }

  private func readBuffer(hungUp: Bool) {
    guard let capture else { return }
    var last: Double?
    switch capture.readValues({ last = Double($0) }) {
    case .failure(let error):
      stop()
      report(.lost("\(device.summary): reading its buffer failed: \(error.code)"))
    case .success(let scans):
      // Only the newest scan of a batch matters: it is what the sensor says now.
      if let last { take(last) }
      if scans == 0, hungUp {
        stop()
        report(.lost("\(device.summary): its buffer's device hung up"))
      }
    }
  }

  private func take(_ raw: Double) {
    switch model.take(raw: raw) {
    case .success(let value?): report(.value(value))
    case .success(nil): break
    case .failure(let error):
      warning.warn("\(device.summary): \(channelID): \(error.message); reading skipped")
    }
  }
}
