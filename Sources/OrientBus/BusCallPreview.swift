import CSystemd
import Glibc

/// Looks at a method call before sd-bus dispatches it; a reply answers the call in its place.
package typealias BusCallScreening = (BusCallPreview) -> BusReply?

/// A method call as it arrives, seen before sd-bus dispatches it: enough to refuse what would
/// cost out of proportion (sd-bus looks an object path up by each of its prefixes, and echoes
/// an unknown property's name in its error) without copying any of it.
///
/// Valid only while the screening runs.
package struct BusCallPreview {
  private let message: OpaquePointer

  init(message: OpaquePointer) { self.message = message }

  /// The length of the call's object path in bytes.
  package var pathLength: Int { sd_bus_message_get_path(message).map { strlen($0) } ?? 0 }

  /// Calls `body` with the length in bytes of each of the call's leading arguments that are
  /// strings, object paths or signatures (the names of interfaces and properties), in order,
  /// until one of another type or until `body` returns false.
  package func forEachLeadingStringLength(_ body: (Int) -> Bool) {
    guard var next = sd_bus_message_get_signature(message, 1) else { return }
    let stringTypes = [UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g")]
    while stringTypes.contains(UInt8(bitPattern: next.pointee)) {
      var text: UnsafePointer<CChar>?
      guard sd_bus_message_read_basic(message, next.pointee, &text) > 0, let text, body(strlen(text)) else {
        return
      }
      next += 1
    }
  }
}
