import CSystemd
import Glibc

/// A `BusObject` as sd-bus holds it: the vtable array, the strings it points to, the table
/// its callbacks are handed, and the object's slot. sd-bus keeps pointers into the vtable and
/// its strings for as long as the slot lives, so this owns them until it is released; the
/// connection releases the slot before the bus.
///
/// sd-bus hands a method handler the object's userdata, and a property's getter the userdata
/// plus the offset in the property's vtable entry. The userdata is `table`: its first slot is
/// this object (for the methods), and each property's entry carries the offset of a slot of
/// its own, which holds that property. A getter thus reads its property directly, without
/// looking its name up.
final class ExportedObject {
  let object: BusObject
  /// The connection it is exported on, for replies sent later.
  weak var connection: BusConnection?
  private let vtable: UnsafeMutablePointer<sd_bus_vtable>
  private var strings: [UnsafeMutablePointer<CChar>] = []
  /// This object, then each property's `ExportedProperty`, unretained (`properties` keeps them).
  private let table: UnsafeMutablePointer<UnsafeMutableRawPointer>
  private let properties: [ExportedProperty]
  private(set) var slot: OpaquePointer?

  init(_ object: BusObject, connection: BusConnection) {
    self.object = object
    self.connection = connection
    properties = object.properties.map(ExportedProperty.init)
    table = .allocate(capacity: 1 + properties.count)
    let count = 2 + object.methods.count + object.properties.count
    vtable = .allocate(capacity: count)
    table[0] = Unmanaged.passUnretained(self).toOpaque()
    var entry = vtable
    orient_bus_vtable_start(entry)
    for method in object.methods {
      entry += 1
      orient_bus_vtable_method(entry, keep(method), keep(""), keep(""), Self.methodHandler)
    }
    for (index, property) in properties.enumerated() {
      table[1 + index] = Unmanaged.passUnretained(property).toOpaque()
      let offset = (1 + index) * MemoryLayout<UnsafeMutableRawPointer>.stride
      entry += 1
      orient_bus_vtable_property(
        entry, keep(property.property.name), keep(property.property.type.rawValue), Self.getter, offset)
    }
    entry += 1
    orient_bus_vtable_end(entry)
  }

  deinit {
    release()
    vtable.deallocate()
    table.deallocate()
    for string in strings { free(string) }
  }

  /// Adds the object to `bus`; returns sd-bus's result (negative errno on failure).
  func add(to bus: OpaquePointer) -> Int32 {
    var slot: OpaquePointer?
    let result = sd_bus_add_object_vtable(
      bus, &slot, object.path, object.interface, vtable, UnsafeMutableRawPointer(table))
    self.slot = slot
    return result
  }

  /// Removes the object from its bus.
  func release() {
    if let slot { sd_bus_slot_unref(slot) }
    slot = nil
  }

  /// A copy of `text` that lives as long as this object.
  private func keep(_ text: String) -> UnsafeMutablePointer<CChar> {
    let copy = strdup(text)!
    strings.append(copy)
    return copy
  }

  // MARK: C callbacks

  private static let methodHandler: sd_bus_message_handler_t = { message, userdata, _ in
    guard let message, let userdata else { return 0 }
    let exported = Unmanaged<ExportedObject>.fromOpaque(userdata.load(as: UnsafeMutableRawPointer.self))
      .takeUnretainedValue()
    let member = sd_bus_message_get_member(message).map { String(cString: $0) } ?? ""
    let sender = sd_bus_message_get_sender(message).map { String(cString: $0) } ?? ""
    let call = BusMethodCall(member: member, sender: sender) { [weak connection = exported.connection] in
      ExportedObject.replyLater(to: message, on: connection)
    }
    guard let reply = exported.object.call(call) else { return 1 }
    let sent = BusReply.send(reply, to: message)
    return sent < 0 ? sent : 1
  }

  /// Keeps `message` (a reference of its own) to answer it once the handler has returned; a
  /// reply sent after the connection closed is dropped with it.
  private static func replyLater(to message: OpaquePointer, on connection: BusConnection?) -> BusPendingReply
  {
    let kept = sd_bus_message_ref(message)
    return BusPendingReply { [weak connection] reply in
      defer { sd_bus_message_unref(kept) }
      // The connection is gone, and the caller with it as far as this one can tell.
      guard let kept, let connection, connection.isOpen else { return }
      _ = BusReply.send(reply, to: kept)
      connection.flush()
    }
  }

  /// sd-bus passes the object's userdata plus the property's offset: its own slot in `table`.
  private static let getter: sd_bus_property_get_t = { _, _, _, _, reply, userdata, _ in
    guard let reply, let userdata else { return -EINVAL }
    let exported = Unmanaged<ExportedProperty>.fromOpaque(userdata.load(as: UnsafeMutableRawPointer.self))
      .takeUnretainedValue()
    switch exported.property.value() {
    case .boolean(let value):
      var flag: Int32 = value ? 1 : 0
      return sd_bus_message_append_basic(reply, CChar(UInt8(ascii: "b")), &flag)
    case .string(let value):
      return value.withCString { sd_bus_message_append_basic(reply, CChar(UInt8(ascii: "s")), $0) }
    case .double(let value):
      var number = value
      return sd_bus_message_append_basic(reply, CChar(UInt8(ascii: "d")), &number)
    }
  }
}

/// One property of an exported object, at the address its getter is handed.
final class ExportedProperty {
  let property: BusProperty

  init(_ property: BusProperty) { self.property = property }
}
