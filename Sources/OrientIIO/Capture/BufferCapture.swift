import CIIO
import OrientCore
import OrientSystem

/// Buffered capture of accel x, y and z through libiio: the kernel delivers scans only
/// when the sensor has data, and the sampling thread sleeps until then.
///
/// Starting it enables the three channels, picks a trigger and sizes the kernel's buffer;
/// stopping it restores all of them. The sampling frequency is raised apart
/// (`SamplingFrequencies`), as polling needs it too.
public final class BufferCapture {
  private let accelerometer: Accelerometer
  private let context: IIOContext
  private var buffer: OpaquePointer?
  private let decoder: ScanDecoder
  /// Holds a scan that a refill ended inside until the next refill completes it.
  private var stream: ScanStream
  private var restoreTrigger: (() -> Void)?
  /// Sysfs attributes to write back on stop: the channel enables, the buffer's length and
  /// watermark.
  private var restoreAttributes: [(path: String, value: String)] = []
  /// The descriptor that becomes readable when scans arrive; libiio owns it.
  public private(set) var pollDescriptor: Int32 = -1
  /// What was set up, for the log.
  public private(set) var summary = ""

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

  /// Whether accel x, y and z are scan elements of `device` (`scan_elements/in_accel_x_en`...).
  static func isSupported(by device: IIODevice) -> Bool {
    ["accel_x", "accel_y", "accel_z"].allSatisfy { id in
      device.channel(id).map { iio_channel_is_scan_element($0) } ?? false
    }
  }

  /// Sets the device up and opens the buffer.
  public init(accelerometer: Accelerometer, context: IIOContext) throws(IIOError) {
    self.accelerometer = accelerometer
    self.context = context
    let device = accelerometer.device
    var channels: [OpaquePointer] = []
    var elements: [(index: Int, format: ScanFormat)] = []
    for id in ["accel_x", "accel_y", "accel_z"] {
      guard let channel = device.channel(id), iio_channel_is_scan_element(channel),
        let raw = iio_channel_get_data_format(channel)?.pointee
      else {
        throw .bufferUnusable("\(id) is not a scan element")
      }
      do {
        let format = try ScanFormat(
          isBigEndian: raw.is_be, isSigned: raw.is_signed, bits: Int(raw.bits), storageBits: Int(raw.length),
          shift: Int(raw.shift), repeatCount: Int(max(raw.repeat, 1)))
        elements.append((Int(iio_channel_get_index(channel)), format))
      } catch {
        throw .bufferUnusable("\(id) has an unusable scan type: \(error.message)")
      }
      channels.append(channel)
    }
    do {
      decoder = try ScanDecoder(x: elements[0], y: elements[1], z: elements[2])
    } catch {
      throw .bufferUnusable("cannot lay out the scan: \(error.message)")
    }
    stream = ScanStream(decoder: decoder)

    if context.isLocal { restoreAttributes = Self.snapshotAttributes(of: device) }
    let trigger = chooseTrigger()
    for channel in channels { iio_channel_enable(channel) }
    if iio_device_set_kernel_buffers_count(device.pointer, Self.kernelBlocks) != 0 {
      Log.debug("\(accelerometer.summary): cannot set libiio's kernel buffers count: \(Errno.current)")
    }
    guard let opened = iio_device_create_buffer(device.pointer, Self.scansPerRefill, false) else {
      let code = Errno.current
      for channel in channels { iio_channel_disable(channel) }
      undoSetup()
      throw .bufferUnusable("cannot open the buffer: \(code)")
    }
    buffer = opened
    _ = iio_buffer_set_blocking_mode(opened, false)
    pollDescriptor = iio_buffer_get_poll_fd(opened)
    let step = Int(iio_buffer_step(opened))
    if step != decoder.scanSize {
      Log.warning(
        "\(accelerometer.summary): libiio's scan size \(step) differs from the computed \(decoder.scanSize)")
    }
    summary = "scan \(decoder.scanSize) bytes, trigger \(trigger ?? "none")"
  }

  deinit { stop() }

  /// Reads what the kernel has (refill after refill, until it has nothing more or
  /// `refillsPerRead` were read) and calls `body` with every whole scan's raw x, y and z.
  /// Returns the number of scans, or the errno of a failed read that came before any scan.
  public func readScans(_ body: (Int64, Int64, Int64) -> Void) -> Result<Int, SystemError> {
    guard let buffer else { return .failure(SystemError("buffer closed", code: .badDescriptor)) }
    var scans = 0
    for _ in 0..<Self.refillsPerRead {
      let count = iio_buffer_refill(buffer)
      if count < 0 {
        let code = Errno(libiioResult: count)
        if code == .wouldBlock || scans > 0 { break }
        return .failure(SystemError("refill", code: code))
      }
      guard count > 0, let start = iio_buffer_start(buffer), let end = iio_buffer_end(buffer) else { break }
      scans += stream.decode(UnsafeRawBufferPointer(start: start, count: end - start), body)
    }
    return .success(scans)
  }

  /// Closes the buffer and restores the trigger, the channel enables and the buffer's size.
  public func stop() {
    guard let opened = buffer else { return }
    buffer = nil
    iio_buffer_destroy(opened)
    undoSetup()
  }

  private func undoSetup() {
    restoreTrigger?()
    restoreTrigger = nil
    for (path, value) in restoreAttributes { writeSysfs(path, value) }
    restoreAttributes = []
  }

  // MARK: Trigger

  /// Picks `<name>-dev<N>` (HID sensor hub), else `<name>-trigger`, else none, and sets it.
  private func chooseTrigger() -> String? {
    let device = accelerometer.device
    let triggers = context.devices.filter(\.isTrigger)
    let name = device.name
    func isNumbered(_ candidate: String) -> Bool {
      guard candidate.hasPrefix(name + "-dev") else { return false }
      let digits = candidate.dropFirst(name.count + 4)
      return !digits.isEmpty && digits.allSatisfy(\.isNumber)
    }
    let ownNumber = device.number.map { "\(name)-dev\($0)" }
    let chosen =
      triggers.first(where: { $0.name == ownNumber }) ?? triggers.first(where: { isNumbered($0.name) })
      ?? triggers.first(where: { $0.name == name + "-trigger" })
    var current: OpaquePointer?
    let hadTrigger = iio_device_get_trigger(device.pointer, &current) == 0
    guard let chosen else { return nil }
    guard iio_device_set_trigger(device.pointer, chosen.pointer) == 0 else {
      Log.warning("\(accelerometer.summary): cannot set trigger \(chosen.name): \(Errno.current)")
      return nil
    }
    let devicePointer = device.pointer
    restoreTrigger = hadTrigger ? { _ = iio_device_set_trigger(devicePointer, current) } : nil
    return chosen.name
  }

  // MARK: Channel enables and the buffer's size (local sysfs)

  /// The channel enables, then the buffer's length and watermark (libiio sets both when it
  /// opens the buffer, and leaves them set).
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

  private func writeSysfs(_ path: String, _ value: String) {
    guard let file = try? FileDescriptor.open(path, .writeOnly) else { return }
    try? file.writeAll(value + "\n")
  }
}
