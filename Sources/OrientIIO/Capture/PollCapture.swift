/// Polling: reads an accelerometer's x, y and z raw attributes once per call.
///
/// On the local sysfs it re-reads files it keeps open (`SysfsAttributeReader`); for a remote
/// iiod, or a local tree that is not sysfs, it reads through libiio (`LibiioAttributeReader`).
/// Which one is decided once, by the file system the attributes live on.
public final class PollCapture {
  private enum Reader {
    case sysfs(SysfsAttributeReader)
    case libiio(LibiioAttributeReader)
  }

  private let reader: Reader
  private var values = [0.0, 0.0, 0.0]

  /// The attribute files polled, x, y and z.
  static let files = ["x", "y", "z"].map { "in_accel_\($0)_raw" }

  /// How the attributes are read, for the log: `sysfs` or `libiio`.
  public let method: String

  /// Prepares polling `accelerometer`.
  public init(accelerometer: Accelerometer) {
    let device = accelerometer.device
    if device.context.isLocal,
      let sysfs = SysfsAttributeReader(directory: "/sys/bus/iio/devices/\(device.id)", files: Self.files)
    {
      reader = .sysfs(sysfs)
      method = "sysfs"
    } else {
      // Accelerometer's initializer has checked that the three attributes exist.
      reader = .libiio(LibiioAttributeReader(device: device, files: Self.files)!)
      method = "libiio"
    }
  }

  /// Reads the three raw values.
  public func read() -> Result<RawReading, RawReadError> {
    let failure: RawReadError?
    switch reader {
    case .sysfs(let sysfs): failure = sysfs.read(into: &values)
    case .libiio(let libiio): failure = libiio.read(into: &values)
    }
    if let failure { return .failure(failure) }
    return .success((values[0], values[1], values[2]))
  }
}
