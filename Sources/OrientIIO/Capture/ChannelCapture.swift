import CIIO
import OrientCore
import OrientSystem

/// Buffered capture of one channel (a light level, a proximity reading, a heading) through
/// libiio: the sampling thread sleeps until the kernel has a scan. A HID sensor hub sends a
/// value sensor's report when the value changes by its change sensitivity, so a value at rest
/// wakes nobody.
///
/// The channel is enabled with every scan element that comes before it (by scan index), and
/// read at its place in the scan: the HID sensor hub's drivers push every channel of their
/// fixed layout whatever is enabled, and the kernel does not rearrange a driver's scans when
/// the enabled channels are all it is asked for, so each scan is the first bytes of that
/// layout. With hid-sensor-magn-3d's heading (the fourth channel) enabled alone, every scan
/// carried the x flux, read as the heading (seen on Debian 12's kernel). Drivers that do pack
/// only the enabled channels give the same scan for the same channels. Stopping puts back what
/// `IIOBufferSession` changed.
package final class ChannelCapture {
  private let session: IIOBufferSession
  private var stream: ChannelScanStream
  /// The descriptor that becomes readable when scans arrive; libiio owns it.
  package var pollDescriptor: Int32 { session.pollDescriptor }
  /// What was set up, for the log: `channel intensity_both (le:u32/32>>0), trigger als-dev3`.
  package let summary: String

  /// Opens `device`'s buffer for the scan element `channelID` (as its files are named:
  /// `in_<channelID>_en`), filled by `trigger`.
  package init(device: IIODevice, context: IIOContext, channelID: String, trigger: String) throws(IIOError) {
    guard let channel = device.scanElement(channelID) else {
      throw .bufferUnusable("\(channelID) is not a scan element")
    }
    let wanted = Int(iio_channel_get_index(channel))
    // The channels in each scan: this one and the input scan elements before it; every other
    // channel is disabled.
    var enabled: [(channel: OpaquePointer, index: Int, format: ScanFormat)] = []
    let format: ScanFormat
    do {
      for position in 0..<iio_device_get_channels_count(device.pointer) {
        guard let other = iio_device_get_channel(device.pointer, position) else { continue }
        let index = Int(iio_channel_get_index(other))
        guard
          other == channel
            || (iio_channel_is_scan_element(other) && !iio_channel_is_output(other)
              && index >= 0 && index < wanted)
        else {
          iio_channel_disable(other)
          continue
        }
        enabled.append((other, index, try device.scanFormat(of: other)))
      }
      format = try device.scanFormat(of: channel)
      let layout = ScanLayout(channels: enabled.map { ($0.index, $0.format) })
      let place = enabled.firstIndex { $0.channel == channel } ?? 0
      stream = try ChannelScanStream(format: format, offset: layout.offsets[place], scanSize: layout.scanSize)
    } catch {
      throw .bufferUnusable(
        "\(channelID) or a scan element before it has an unusable scan type: \(error.message)")
    }
    session = try IIOBufferSession(
      device: device, context: context, channels: enabled.map(\.channel), preferredTrigger: trigger)
    if session.step != stream.scanSize {
      Log.warning(
        "\(device.summary): libiio's scan size \(session.step) differs from the computed \(stream.scanSize)")
    }
    summary = "channel \(channelID), trigger \(session.trigger ?? "none")"
  }

  deinit { stop() }

  /// Reads what the kernel has and calls `body` with the channel's raw value of every whole
  /// scan, oldest first. Returns the scans read, or the errno of a read that failed first.
  package func readValues(_ body: (Int64) -> Void) -> Result<Int, SystemError> {
    var scans = 0
    return session.refill { bytes in scans += stream.decode(bytes, body) }.map { _ in scans }
  }

  /// Closes the buffer and puts the device back.
  package func stop() { session.stop() }
}
