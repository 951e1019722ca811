/// Polling: reads a device's raw attributes once per call, the accelerometer's x, y and z or
/// a value sensor's one reading.
///
/// A local device's files are kept open and re-read (`DirectAttributeReader`); a remote
/// iiod's attributes are read through libiio (`LibiioAttributeReader`).
package final class PollCapture {
  private enum Reader {
    case direct(DirectAttributeReader)
    case libiio(LibiioAttributeReader)
    /// The device lacks one of the files: every read says so.
    case none
  }

  private let reader: Reader
  private var values: [Double]

  /// The attribute files polled for an accelerometer, x, y and z.
  static let files = Accelerometer.axes.map { "in_accel_\($0)_raw" }

  /// How the attributes are read, for the log.
  package let method: String

  /// Prepares polling `accelerometer`; one without raw attributes gives `noRawAttributes`
  /// on every read.
  package convenience init(accelerometer: Accelerometer) {
    self.init(device: accelerometer.device, files: accelerometer.canPoll ? Self.files : [])
  }

  /// Prepares polling `files` of `device`, in this order; with none, or one the device does
  /// not have, every read gives `noRawAttributes`.
  package init(device: IIODevice, files: [String]) {
    values = [Double](repeating: 0, count: files.count)
    if files.isEmpty || !files.allSatisfy({ device.handle(for: $0) != nil }) {
      reader = .none
      method = "nothing (no raw attributes)"
    } else if device.context.isLocal,
      let direct = DirectAttributeReader(directory: "/sys/bus/iio/devices/\(device.id)", files: files)
    {
      reader = .direct(direct)
      method =
        direct.checksForReplacement
        ? "open files, checked for replacement on every poll (not sysfs)" : "open sysfs files"
    } else {
      // Every file was found above.
      reader = .libiio(LibiioAttributeReader(device: device, files: files)!)
      method = "libiio"
    }
  }

  /// Reads the three raw values of an accelerometer.
  package func read() -> Result<RawReading, RawReadError> {
    readAll().map { ($0[0], $0[1], $0[2]) }
  }

  /// Reads the one value of a value sensor.
  package func readValue() -> Result<Double, RawReadError> { readAll().map { $0[0] } }

  private func readAll() -> Result<[Double], RawReadError> {
    let failure: RawReadError?
    switch reader {
    case .direct(let direct): failure = direct.read(into: &values)
    case .libiio(let libiio): failure = libiio.read(into: &values)
    case .none: failure = .noRawAttributes
    }
    if let failure { return .failure(failure) }
    return .success(values)
  }
}
