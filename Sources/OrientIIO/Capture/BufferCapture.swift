import CIIO
import OrientCore
import OrientSystem

/// Buffered capture of accel x, y and z through libiio: the kernel delivers scans only
/// when the sensor has data, and the sampling thread sleeps until then.
///
/// Starting it enables the three channels, picks a trigger and sizes the kernel's buffer
/// (`IIOBufferSession`); stopping it restores all of them. The sampling frequency is raised
/// apart (`SamplingFrequencies`), as polling needs it too.
package final class BufferCapture {
  private let accelerometer: Accelerometer
  private let session: IIOBufferSession
  private let decoder: ScanDecoder
  /// Holds a scan that a refill ended inside until the next refill completes it.
  private var stream: ScanStream
  /// The descriptor that becomes readable when scans arrive; libiio owns it.
  package var pollDescriptor: Int32 { session.pollDescriptor }
  /// What was set up, for the log.
  package let summary: String

  /// Whether accel x, y and z are scan elements of `device` (`scan_elements/in_accel_x_en`...).
  static func isSupported(by device: IIODevice) -> Bool {
    ["accel_x", "accel_y", "accel_z"].allSatisfy { id in
      device.channel(id).map { iio_channel_is_scan_element($0) } ?? false
    }
  }

  /// Sets the device up and opens the buffer.
  package init(accelerometer: Accelerometer, context: IIOContext) throws(IIOError) {
    self.accelerometer = accelerometer
    let device = accelerometer.device
    var channels: [OpaquePointer] = []
    var elements: [(index: Int, format: ScanFormat)] = []
    for id in ["accel_x", "accel_y", "accel_z"] {
      guard let channel = device.channel(id), iio_channel_is_scan_element(channel) else {
        throw .bufferUnusable("\(id) is not a scan element")
      }
      do {
        elements.append((Int(iio_channel_get_index(channel)), try device.scanFormat(of: channel)))
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
    session = try IIOBufferSession(device: device, context: context, channels: channels)
    if session.step != decoder.scanSize {
      Log.warning(
        "\(accelerometer.summary): libiio's scan size \(session.step) differs from the computed \(decoder.scanSize)"
      )
    }
    summary = "scan \(decoder.scanSize) bytes, trigger \(session.trigger ?? "none")"
  }

  deinit { stop() }

  /// Reads what the kernel has and calls `body` with every whole scan's raw x, y and z.
  /// Returns the number of scans, or the errno of a failed read that came before any scan.
  package func readScans(_ body: (Int64, Int64, Int64) -> Void) -> Result<Int, SystemError> {
    var scans = 0
    return session.refill { bytes in scans += stream.decode(bytes, body) }.map { _ in scans }
  }

  /// Closes the buffer and restores the trigger, the channel enables and the buffer's size.
  package func stop() { session.stop() }
}
