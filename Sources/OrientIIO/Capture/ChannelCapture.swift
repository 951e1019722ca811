import CIIO
import OrientCore
import OrientSystem

/// Buffered capture of one channel (a light level, a proximity reading, a heading) through
/// libiio: the sampling thread sleeps until the kernel has a scan. A HID sensor hub sends a
/// value sensor's report when the value changes by its change sensitivity, so a value at rest
/// wakes nobody.
///
/// Only that channel is enabled, so a scan holds it alone; stopping puts back what
/// `IIOBufferSession` changed.
public final class ChannelCapture {
  private let session: IIOBufferSession
  private var stream: ChannelScanStream
  /// The descriptor that becomes readable when scans arrive; libiio owns it.
  public var pollDescriptor: Int32 { session.pollDescriptor }
  /// What was set up, for the log: `channel intensity_both (le:u32/32>>0), trigger als-dev3`.
  public let summary: String

  /// Opens `device`'s buffer for the scan element `channelID` (as its files are named:
  /// `in_<channelID>_en`), filled by `trigger`.
  public init(device: IIODevice, context: IIOContext, channelID: String, trigger: String) throws(IIOError) {
    guard let channel = device.scanElement(channelID) else {
      throw .bufferUnusable("\(channelID) is not a scan element")
    }
    let format: ScanFormat
    do {
      format = try device.scanFormat(of: channel)
      stream = try ChannelScanStream(format: format)
    } catch {
      throw .bufferUnusable("\(channelID) has an unusable scan type: \(error.message)")
    }
    // Whatever else was enabled would be in every scan: only this channel is.
    for index in 0..<iio_device_get_channels_count(device.pointer) {
      if let other = iio_device_get_channel(device.pointer, index), other != channel { iio_channel_disable(other) }
    }
    session = try IIOBufferSession(device: device, context: context, channels: [channel], preferredTrigger: trigger)
    if session.step != stream.scanSize {
      Log.warning("\(device.summary): libiio's scan size \(session.step) differs from the computed \(stream.scanSize)")
    }
    summary = "channel \(channelID), trigger \(session.trigger ?? "none")"
  }

  deinit { stop() }

  /// Reads what the kernel has and calls `body` with the channel's raw value of every whole
  /// scan, oldest first. Returns the scans read, or the errno of a read that failed first.
  public func readValues(_ body: (Int64) -> Void) -> Result<Int, SystemError> {
    var scans = 0
    return session.refill { bytes in scans += stream.decode(bytes, body) }.map { _ in scans }
  }

  /// Closes the buffer and puts the device back.
  public func stop() { session.stop() }
}
