import CEvdev
import Glibc
import OrientSystem

/// libevdev's messages, as log lines: by default libevdev prints them on stderr itself,
/// where a full pipe could stop the event loop and where they would not look like the log's.
enum LibevdevMessages {
  /// Installs the handler, once per process (libevdev's handler is global).
  static func install() { _ = installed }

  private static let installed: Void = {
    libevdev_set_log_function(
      { priority, _, _, _, _, format, arguments in
        guard let format, let arguments else { return }
        var buffer = [CChar](repeating: 0, count: 512)
        _ = vsnprintf(&buffer, buffer.count, format, arguments)
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: "\n")
        let level: LogLevel =
          switch priority {
          case LIBEVDEV_LOG_ERROR: .error
          case LIBEVDEV_LOG_INFO: .info
          default: .debug
          }
        Log.write(level, "libevdev: " + text)
      }, nil)
  }()
}

extension String {
  fileprivate func trimmingCharacters(in character: Character) -> String {
    var text = Substring(self)
    while text.last == character { text = text.dropLast() }
    return String(text).escapingControlCharacters
  }
}
