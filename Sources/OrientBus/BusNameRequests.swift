import CSystemd
import OrientSystem

/// The well-known names a `BusConnection` asked for, and what the bus last said about each:
/// the answer to `RequestName`, then `NameAcquired` and `NameLost`, each raised as a
/// `.name` event when it changes what is known.
final class BusNameRequests {
  private unowned let connection: BusConnection
  /// What the bus last said about each name asked for (nil: no answer yet).
  private var names: [String: NameOwnership?] = [:]

  init(connection: BusConnection) { self.connection = connection }

  /// What the bus last said about `name`: nil before its answer or if it was not asked for.
  func ownership(of name: String) -> NameOwnership? { names[name] ?? nil }

  /// Follows `NameAcquired` and `NameLost` on `bus`. The bus daemon sends these to the
  /// connection they concern; sd-bus cannot check the sender of this match itself, so the
  /// handler does (`isFromBusDaemon`).
  func follow(on bus: OpaquePointer, address: BusAddress) throws(SystemError) {
    let me = Unmanaged.passUnretained(self).toOpaque()
    for member in ["NameAcquired", "NameLost"] {
      try BusConnection.check(
        "add a match for \(member) on \(address)",
        sd_bus_match_signal_async(
          bus, nil, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", member,
          Self.signalHandler, nil, me))
    }
  }

  /// Asks for `name` with queueing, never replacing its owner.
  func request(_ name: String, on bus: OpaquePointer, operation: String) throws(SystemError) {
    // The reply carries no name: the reply handler is told which one it was.
    let reply = ReplyHandler { [unowned self] message in replied(name, message) }
    try reply.attach(operation) { userdata, slot in
      sd_bus_request_name_async(bus, slot, name, UInt64(SD_BUS_NAME_QUEUE), ReplyHandler.callback, userdata)
    }
    if names[name] == nil { names[name] = .some(nil) }
  }

  /// Forgets every name: the connection is closed, and the bus releases them.
  func forgetAll() { names = [:] }

  private func record(_ name: String, _ ownership: NameOwnership) {
    guard let known = names[name], known != ownership else { return }
    names[name] = ownership
    connection.raise(.name(name, ownership))
  }

  private func replied(_ name: String, _ message: OpaquePointer?) {
    // When the connection drops, sd-bus answers pending calls itself; `.disconnected` says it.
    guard let bus = connection.bus, sd_bus_is_open(bus) > 0, let message else { return }
    if let error = BusConnection.errorText(message) {
      connection.raise(.nameRequestFailed(name, error: error))
      return
    }
    var code: UInt32 = 0
    guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &code) > 0 else {
      connection.raise(.nameRequestFailed(name, error: "RequestName answered without a result"))
      return
    }
    // RequestName's results: 1 primary owner, 2 in queue, 3 exists (not queued), 4 already owner.
    switch code {
    case 1, 4: record(name, .owned)
    case 2: record(name, .queued)
    default: record(name, .lost)
    }
  }

  private func signal(_ message: OpaquePointer?) {
    guard let message, BusConnection.isFromBusDaemon(message), let member = sd_bus_message_get_member(message)
    else {
      return
    }
    var argument: UnsafePointer<CChar>?
    guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &argument) > 0, let argument else {
      return
    }
    let name = String(cString: argument)
    switch String(cString: member) {
    case "NameAcquired": record(name, .owned)
    // Since the name is never requested with replacement allowed, losing it leaves no place in the queue.
    case "NameLost": record(name, .lost)
    default: break
    }
  }

  private static let signalHandler: sd_bus_message_handler_t = { message, userdata, _ in
    guard let userdata else { return 0 }
    Unmanaged<BusNameRequests>.fromOpaque(userdata).takeUnretainedValue().signal(message)
    // Other handlers on this connection may want the signal too.
    return 0
  }
}
