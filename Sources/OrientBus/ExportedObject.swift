import CSystemd
import Glibc

/// A `BusObject` as sd-bus holds it: the vtable array, the strings it points to, and the
/// object's slot. sd-bus keeps pointers into the vtable and its strings for as long as the
/// slot lives, so this owns them until it is released; the connection releases the slot
/// before the bus.
final class ExportedObject {
  let object: BusObject
  /// The connection it is exported on, for replies sent later.
  weak var connection: BusConnection?
  private let vtable: UnsafeMutablePointer<sd_bus_vtable>
  private var strings: [UnsafeMutablePointer<CChar>] = []
  private(set) var slot: OpaquePointer?

  init(_ object: BusObject, connection: BusConnection) {
    self.object = object
    self.connection = connection
    let count = 2 + object.methods.count + object.properties.count
    vtable = .allocate(capacity: count)
    var entry = vtable
    orient_bus_vtable_start(entry)
    for method in object.methods {
      entry += 1
      orient_bus_vtable_method(entry, keep(method), keep(""), keep(""), Self.methodHandler)
    }
    for property in object.properties {
      entry += 1
      orient_bus_vtable_property(entry, keep(property.name), keep(property.type.rawValue), Self.getter)
    }
    entry += 1
    orient_bus_vtable_end(entry)
  }

  deinit {
    release()
    vtable.deallocate()
    for string in strings { free(string) }
  }

  /// Adds the object to `bus`; returns sd-bus's result (negative errno on failure).
  func add(to bus: OpaquePointer) -> Int32 {
    var slot: OpaquePointer?
    let result = sd_bus_add_object_vtable(
      bus, &slot, object.path, object.interface, vtable, Unmanaged.passUnretained(self).toOpaque())
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
    let exported = Unmanaged<ExportedObject>.fromOpaque(userdata).takeUnretainedValue()
    let member = sd_bus_message_get_member(message).map { String(cString: $0) } ?? ""
    let sender = sd_bus_message_get_sender(message).map { String(cString: $0) } ?? ""
    let call = BusMethodCall(
      member: member, sender: sender, message: message, connection: exported.connection)
    guard let reply = exported.object.call(call) else { return 1 }
    let sent = BusReply.send(reply, to: message)
    return sent < 0 ? sent : 1
  }

  private static let getter: sd_bus_property_get_t = { _, _, _, property, reply, userdata, _ in
    guard let property, let reply, let userdata else { return -EINVAL }
    let exported = Unmanaged<ExportedObject>.fromOpaque(userdata).takeUnretainedValue()
    switch exported.object.value(String(cString: property)) {
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
