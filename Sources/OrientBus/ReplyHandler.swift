import CSystemd
import OrientSystem

/// What to do with the reply to one asynchronous call, kept by sd-bus with the call's slot.
///
/// sd-bus holds the box (retained) until the reply came or the bus is freed, then releases it
/// through the slot's destroy callback: nothing to track per call on the Swift side.
final class ReplyHandler {
  let handle: (OpaquePointer?) -> Void

  init(_ handle: @escaping (OpaquePointer?) -> Void) { self.handle = handle }

  /// Starts the call with `start(userdata, &slot)` and hands the slot to the bus.
  func attach(
    _ operation: @autoclosure () -> String,
    _ start: (UnsafeMutableRawPointer, UnsafeMutablePointer<OpaquePointer?>) -> Int32
  ) throws(SystemError) {
    let retained = Unmanaged.passRetained(self)
    var slot: OpaquePointer?
    let result = start(retained.toOpaque(), &slot)
    guard result >= 0, let slot else {
      retained.release()
      throw SystemError(
        operation(), code: Errno(rawValue: result < 0 ? -result : Errno.invalidArgument.rawValue))
    }
    _ = sd_bus_slot_set_destroy_callback(slot, Self.release)
    // A floating slot belongs to the bus: it goes when the reply was handled or the bus is freed.
    _ = sd_bus_slot_set_floating(slot, 1)
    sd_bus_slot_unref(slot)
  }

  static let callback: sd_bus_message_handler_t = { message, userdata, _ in
    guard let userdata else { return 0 }
    Unmanaged<ReplyHandler>.fromOpaque(userdata).takeUnretainedValue().handle(message)
    return 0
  }

  private static let release: sd_bus_destroy_t = { userdata in
    guard let userdata else { return }
    Unmanaged<ReplyHandler>.fromOpaque(userdata).release()
  }
}
