import OrientCore
import OrientSystem

/// One poll's raw x, y and z, as the attributes hold them (before scale and offset).
package typealias RawReading = (x: Double, y: Double, z: Double)

/// Why a raw sample could not be read.
package enum RawReadError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The attribute read failed with an errno.
  case readFailed(file: String, code: Errno)
  /// The attribute is gone.
  case missing(file: String)
  /// The attribute held something that is not a usable number.
  case garbage(file: String, value: String)
  /// The device has no raw attributes to poll, only scan elements.
  case noRawAttributes

  package var description: String {
    switch self {
    case .readFailed(let file, let code): return "reading \(file) failed: \(code)"
    case .missing(let file): return "\(file) is missing"
    case .garbage(let file, let value): return "\(file) holds '\(value)', not a raw reading"
    case .noRawAttributes: return "the device has no in_accel_{x,y,z}_raw; only its buffer gives readings"
    }
  }

  /// The error for a failed read of `file`.
  static func failed(_ file: String, _ code: Errno) -> RawReadError {
    code == .noSuchFile ? .missing(file: file) : .readFailed(file: file, code: code)
  }
}

/// Parses the bytes one raw attribute held; a value that is no number, or far beyond any
/// sensor's range, is garbage.
func parseRawValue(_ bytes: UnsafeBufferPointer<UInt8>, file: String) -> Result<Double, RawReadError> {
  guard let value = NumberParsing.finiteDouble(bytes: bytes), abs(value) < 1e12 else {
    // Quoted in a warning: escaped, so a value cannot start a log line of its own.
    let text = String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
    return .failure(.garbage(file: file, value: String(text.trimmingSpaces).escapingControlCharacters))
  }
  return .success(value)
}

extension Errno {
  /// Whether a read that failed with this error means that the device is gone (removed, or
  /// its remote connection lost), rather than that one reading failed.
  package var meansDeviceGone: Bool {
    [
      .noDevice, .noSuchFile, .noSuchDeviceOrAddress, .ioError, .shutDown, .brokenPipe, .connectionReset,
      .notConnected,
    ]
    .contains(self)
  }
}
