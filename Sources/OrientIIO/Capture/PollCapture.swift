/// Polling: reads an accelerometer's x, y and z raw attributes once per call.
///
/// A local device's files are kept open and re-read (`DirectAttributeReader`); a remote
/// iiod's attributes are read through libiio (`LibiioAttributeReader`).
public final class PollCapture {
  private enum Reader {
    case direct(DirectAttributeReader)
    case libiio(LibiioAttributeReader)
    /// The device has no raw attributes (only scan elements): every read says so.
    case none
  }

  private let reader: Reader
  private var values = [0.0, 0.0, 0.0]

  /// The attribute files polled, x, y and z.
  static let files = Accelerometer.axes.map { "in_accel_\($0)_raw" }

  /// How the attributes are read, for the log.
  public let method: String

  /// Prepares polling `accelerometer`; one without raw attributes gives `noRawAttributes`
  /// on every read.
  public init(accelerometer: Accelerometer) {
    let device = accelerometer.device
    if !accelerometer.canPoll {
      reader = .none
      method = "nothing (no raw attributes)"
    } else if device.context.isLocal,
      let direct = DirectAttributeReader(directory: "/sys/bus/iio/devices/\(device.id)", files: Self.files)
    {
      reader = .direct(direct)
      method =
        direct.checksForReplacement
        ? "open files, checked for replacement on every poll (not sysfs)" : "open sysfs files"
    } else {
      // `canPoll` says that the three attributes exist.
      reader = .libiio(LibiioAttributeReader(device: device, files: Self.files)!)
      method = "libiio"
    }
  }

  /// Reads the three raw values.
  public func read() -> Result<RawReading, RawReadError> {
    let failure: RawReadError?
    switch reader {
    case .direct(let direct): failure = direct.read(into: &values)
    case .libiio(let libiio): failure = libiio.read(into: &values)
    case .none: failure = .noRawAttributes
    }
    if let failure { return .failure(failure) }
    return .success((values[0], values[1], values[2]))
  }
}
