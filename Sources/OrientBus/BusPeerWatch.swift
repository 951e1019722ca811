import CSystemd
import OrientSystem

/// The clients a `BusConnection` watches for leaving the bus: one match rule on the bus
/// daemon's `NameOwnerChanged` each, held as its slot. A client that leaves, or whose match the
/// bus refuses, is reported as `.peerGone` once.
final class BusPeerWatch {
  private unowned let connection: BusConnection
  /// The match slots, by unique name.
  private var slots: [String: OpaquePointer] = [:]

  init(connection: BusConnection) { self.connection = connection }

  /// Watches the client `name` on `bus`; a client watched already is left as it is.
  func watch(_ name: String, on bus: OpaquePointer, operation: String) throws(SystemError) {
    guard slots[name] == nil else { return }
    // Unique names are made by the bus (`:1.42`) and hold no quote to escape.
    let rule =
      "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
      + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(name)'"
    var slot: OpaquePointer?
    try BusConnection.check(
      operation,
      sd_bus_add_match_async(
        bus, &slot, rule, Self.signalHandler, Self.matchInstalled, Unmanaged.passUnretained(self).toOpaque()))
    guard let slot else { throw SystemError(operation, code: .invalidArgument) }
    slots[name] = slot
    // The bus daemon handles a connection's messages in order: a client that left before
    // the match took effect is no longer there when this is answered.
    do throws(SystemError) {
      try connection.callBusDaemon("NameHasOwner", about: name, operation: operation) {
        [unowned self] message in
        guard let message, sd_bus_message_get_error(message) == nil else { return }
        var present: Int32 = 1
        if sd_bus_message_read_basic(message, CChar(UInt8(ascii: "b")), &present) > 0, present == 0 {
          left(name)
        }
      }
    } catch {
      // Not watched after all: the caller refuses what needed the watch.
      forget(name)
      throw error
    }
  }

  /// Stops watching `name`.
  func forget(_ name: String) {
    guard let slot = slots.removeValue(forKey: name) else { return }
    sd_bus_slot_unref(slot)
  }

  /// Stops watching everyone: the slots hold references to the bus, which is being closed.
  func forgetAll() {
    for slot in slots.values { sd_bus_slot_unref(slot) }
    slots = [:]
  }

  private func signal(_ message: OpaquePointer?) {
    guard let message, BusConnection.isFromBusDaemon(message) else { return }
    var fields: [String] = []
    for _ in 0..<3 {
      var text: UnsafePointer<CChar>?
      guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &text) > 0, let text else { return }
      fields.append(String(cString: text))
    }
    // NameOwnerChanged(name, old owner, new owner): a unique name's owner goes only when it leaves.
    if fields[2].isEmpty { left(fields[0]) }
  }

  private func left(_ name: String) {
    guard slots[name] != nil else { return }
    forget(name)
    connection.raise(.peerGone(name))
  }

  /// Without an install callback sd-bus closes the whole connection when the bus refuses a
  /// match (a bus at its limit of match rules): here only that client goes unwatched, and
  /// since its claims could outlive it, they go as if it had left.
  private static let matchInstalled: sd_bus_message_handler_t = { message, userdata, _ in
    guard let message, let userdata, sd_bus_message_get_error(message) != nil else { return 0 }
    let watch = Unmanaged<BusPeerWatch>.fromOpaque(userdata).takeUnretainedValue()
    let slot = sd_bus_get_current_slot(sd_bus_message_get_bus(message))
    if let name = watch.slots.first(where: { $0.value == slot })?.key { watch.left(name) }
    return 0
  }

  private static let signalHandler: sd_bus_message_handler_t = { message, userdata, _ in
    guard let userdata else { return 0 }
    Unmanaged<BusPeerWatch>.fromOpaque(userdata).takeUnretainedValue().signal(message)
    return 0
  }
}
