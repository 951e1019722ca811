import CIIO
import OrientCore
import OrientSystem

/// One open IIO buffer of a device, for whatever channels a capture reads: it picks the
/// device's trigger, enables the channels, sizes the kernel's buffer and opens libiio's, and
/// on `stop` puts back the trigger, every channel enable and the buffer's size.
///
/// The accelerometer's capture (`BufferCapture`) and the readings' (`ChannelCapture`) decode
/// what it reads each their own way.
final class IIOBufferSession {
  private let device: IIODevice
  private let context: IIOContext
  private var buffer: OpaquePointer?
  private var restoreTrigger: (() -> Void)?
  /// Sysfs attributes to write back on stop: the channel enables, the buffer's length and
  /// watermark.
  private var restoreAttributes: [(path: String, value: String)] = []
  /// The descriptor that becomes readable when scans arrive; libiio owns it.
  let pollDescriptor: Int32
  /// The trigger set, if any.
  let trigger: String?
  /// libiio's bytes per scan.
  let step: Int

  /// The size of libiio's buffer, in scans. libiio 0.24 writes this to the kernel buffer's
  /// `watermark` (and this times `kernelBlocks` to its `length`): the descriptor becomes
  /// readable only once this many scans are in. One, so that every scan wakes the reader at
  /// once: with 64 a real HID sensor hub at 10 Hz woke orientd every 6.4 s. The one place
  /// both are decided.
  static let scansPerRefill = 1
  /// How many refills the kernel holds (libiio's kernel buffers count): the kernel buffer's
  /// `length` is `scansPerRefill` times this, room for 1.6 s of scans at 10 Hz while the
  /// sampling thread is busy elsewhere.
  static let kernelBlocks: UInt32 = 16
  /// At most this many refills are read at one wake-up; the rest wait for the next.
  static let refillsPerRead = 64

  /// Sets `device` up to capture `channels` (libiio channel pointers of it) and opens the
  /// buffer. `preferredTrigger` names the trigger to take when the context has it; otherwise
  /// the device's own (`<name>-dev<N>`, the HID sensor hub's), else `<name>-trigger`, else none.
  init(device: IIODevice, context: IIOContext, channels: [OpaquePointer], preferredTrigger: String? = nil)
    throws(IIOError)
  {
    self.device = device
    self.context = context
    if context.isLocal {
      restoreAttributes = Self.snapshotAttributes(of: device)
      Self.disableLeftBuffer(of: device)
    }
    var restore: (() -> Void)?
    trigger = Self.setTrigger(of: device, in: context, preferred: preferredTrigger, restore: &restore)
    restoreTrigger = restore
    for channel in channels { iio_channel_enable(channel) }
    if iio_device_set_kernel_buffers_count(device.pointer, Self.kernelBlocks) != 0 {
      Log.debug("\(device.summary): cannot set libiio's kernel buffers count: \(Errno.current)")
    }
    guard let opened = iio_device_create_buffer(device.pointer, Self.scansPerRefill, false) else {
      let code = Errno.current
      for channel in channels { iio_channel_disable(channel) }
      restoreTrigger?()
      for (path, value) in restoreAttributes { Self.writeSysfs(path, value) }
      throw .bufferUnusable("cannot open the buffer: \(code)")
    }
    buffer = opened
    _ = iio_buffer_set_blocking_mode(opened, false)
    pollDescriptor = iio_buffer_get_poll_fd(opened)
    step = Int(iio_buffer_step(opened))
  }

  deinit { stop() }

  /// Reads what the kernel has, refill after refill, until it has nothing more or
  /// `refillsPerRead` were read, handing `body` each refill's bytes. Returns whether any bytes
  /// came, or the errno of a failed read that came before any.
  func refill(_ body: (UnsafeRawBufferPointer) -> Void) -> Result<Bool, SystemError> {
    guard let buffer else { return .failure(SystemError("buffer closed", code: .badDescriptor)) }
    var any = false
    for _ in 0..<Self.refillsPerRead {
      let count = iio_buffer_refill(buffer)
      if count < 0 {
        let code = Errno(libiioResult: count)
        if code == .wouldBlock || any { break }
        return .failure(SystemError("refill", code: code))
      }
      guard count > 0, let start = iio_buffer_start(buffer), let end = iio_buffer_end(buffer) else { break }
      any = true
      body(UnsafeRawBufferPointer(start: start, count: end - start))
    }
    return .success(any)
  }

  /// Closes the buffer and restores the trigger, the channel enables and the buffer's size.
  func stop() {
    guard let opened = buffer else { return }
    buffer = nil
    iio_buffer_destroy(opened)
    restoreTrigger?()
    restoreTrigger = nil
    for (path, value) in restoreAttributes { Self.writeSysfs(path, value) }
    restoreAttributes = []
  }

  // MARK: Trigger

  /// Sets the trigger: `preferred` when the context has it, else the device's own
  /// `<name>-dev<N>`, any `<name>-devN`, then `<name>-trigger`; returns its name and how to put
  /// back the one that was set.
  private static func setTrigger(
    of device: IIODevice, in context: IIOContext, preferred: String?, restore: inout (() -> Void)?
  ) -> String? {
    let chosen = trigger(for: device, in: context, preferred: preferred)
    var current: OpaquePointer?
    let hadTrigger = iio_device_get_trigger(device.pointer, &current) == 0
    guard let chosen else { return nil }
    guard iio_device_set_trigger(device.pointer, chosen.pointer) == 0 else {
      Log.warning("\(device.summary): cannot set trigger \(chosen.name): \(Errno.current)")
      return nil
    }
    let devicePointer = device.pointer
    restore = hadTrigger ? { _ = iio_device_set_trigger(devicePointer, current) } : nil
    return chosen.name
  }

  /// The trigger a buffer of `device` is set to: `preferred` when the context has it, else the
  /// device's own `<name>-dev<N>`, any `<name>-devN`, then `<name>-trigger`; nil when the
  /// context has none of them.
  static func trigger(for device: IIODevice, in context: IIOContext, preferred: String? = nil) -> IIODevice? {
    let triggers = context.devices.filter(\.isTrigger)
    return preferred.flatMap { name in triggers.first { $0.name == name } }
      ?? triggers.first { $0.name == device.ownTriggerName }
      ?? triggers.first { device.isNumberedTrigger($0.name) }
      ?? triggers.first { $0.name == device.name + "-trigger" }
  }

  // MARK: Channel enables and the buffer's size (local sysfs)

  /// Disables a buffer another process left enabled, before the trigger is set: the kernel
  /// refuses to change `current_trigger` while the buffer is enabled (EBUSY). Debian 12's
  /// iio-sensor-proxy (3.0) leaves its accelerometer's buffer enabled when it is stopped, so
  /// orientd, taking over the bus name, found the trigger busy and captured with whatever
  /// trigger was left. libiio disables the buffer anyway when it opens it; this only does it
  /// before the trigger. A buffer is opened only while it may be taken (no other daemon owns
  /// the bus name), so no one is reading it.
  private static func disableLeftBuffer(of device: IIODevice) {
    let enable = "/sys/bus/iio/devices/\(device.id)/buffer/enable"
    // Not readable is taken as not enabled: if it was, setting the trigger fails next, and
    // says so.
    guard let text = try? FileSystem.readText(enable), text.trimmingSpaces == "1" else { return }
    Log.debug("\(device.summary): its buffer was left enabled; disabling it to set the trigger")
    writeSysfs(enable, "0")
  }

  /// The channel enables, then the buffer's length and watermark (libiio sets both when it
  /// opens the buffer, and leaves them set). One that cannot be read is not restored: the
  /// snapshot is a courtesy to the device's next reader, and capture does not depend on it.
  private static func snapshotAttributes(of device: IIODevice) -> [(path: String, value: String)] {
    let directory = "/sys/bus/iio/devices/\(device.id)"
    let names = (try? FileSystem.entries(of: directory + "/scan_elements")) ?? []
    let paths =
      names.filter { $0.hasSuffix("_en") }.map { directory + "/scan_elements/" + $0 }
      + ["buffer/length", "buffer/watermark"].map { directory + "/" + $0 }
    return paths.compactMap { path in
      (try? FileSystem.readText(path)).map { (path, String($0.trimmingSpaces)) }
    }
  }

  /// Writes `value` to the attribute at `path`, as a courtesy (disabling a left buffer, putting
  /// back what another reader had): a refusal changes nothing orientd could act on, as with
  /// the trigger's restore, and what depends on it (the trigger) reports its own failure.
  private static func writeSysfs(_ path: String, _ value: String) {
    guard let file = try? FileDescriptor.open(path, .writeOnly) else { return }
    try? file.writeAll(value + "\n")
  }
}

extension IIODevice {
  /// A one-line identity for logs: `iio:device3 (als)`.
  package var summary: String { name.isEmpty ? id : "\(id) (\(name))" }

  /// The trigger of the device's own, as the HID sensor hub names it: `als-dev3`.
  var ownTriggerName: String? { number.map { "\(name)-dev\($0)" } }

  /// Whether `candidate` is `<name>-dev<digits>`.
  func isNumberedTrigger(_ candidate: String) -> Bool {
    guard candidate.hasPrefix(name + "-dev") else { return false }
    let digits = candidate.dropFirst(name.count + 4)
    return !digits.isEmpty && digits.allSatisfy(\.isNumber)
  }

  /// The scan type of a channel as libiio reads it.
  func scanFormat(of channel: OpaquePointer) throws(ValueError) -> ScanFormat {
    guard let raw = iio_channel_get_data_format(channel)?.pointee else { throw ValueError("no scan type") }
    return try ScanFormat(
      isBigEndian: raw.is_be, isSigned: raw.is_signed, bits: Int(raw.bits), storageBits: Int(raw.length),
      shift: Int(raw.shift), repeatCount: Int(max(raw.repeat, 1)))
  }
}
