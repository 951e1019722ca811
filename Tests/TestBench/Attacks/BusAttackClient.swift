import CSystemd
import Glibc
import OrientCore
import OrientSystem

// A hostile client of a message bus for the D-Bus attacks. OrientBus serves well-formed
// clients from an event loop; an attacker wants the opposite: messages of any shape (huge
// arguments, signals it has no right to send), calls it never waits for, and a connection
// it stops reading. So this drives sd-bus directly and blocks, as a one-off tool may.

/// One connection to the bus at a D-Bus address, as a client of the bus daemon.
final class BusAttackClient {
  private var bus: OpaquePointer?

  /// Connects and waits for the bus daemon's `Hello`, so that the unique name is known.
  init(address: String) throws(SystemError) {
    var bus: OpaquePointer?
    try Self.check("create a bus connection", sd_bus_new(&bus))
    self.bus = bus
    try Self.check("use bus address \(address)", sd_bus_set_address(bus, address))
    try Self.check("use bus address \(address)", sd_bus_set_bus_client(bus, 1))
    try Self.check("connect to \(address)", sd_bus_start(bus))
    var name: UnsafePointer<CChar>?
    try Self.check("say Hello on \(address)", sd_bus_get_unique_name(bus, &name))
  }

  deinit { close() }

  /// The unique name the bus gave this connection.
  var uniqueName: String {
    var name: UnsafePointer<CChar>?
    guard let bus, sd_bus_get_unique_name(bus, &name) >= 0, let name else { return "" }
    return String(cString: name)
  }

  /// Makes the kernel keep as little as it allows of what arrives unread, so that the bus
  /// daemon has to queue what it sends this connection at once.
  func shrinkReceiveBuffer() {
    guard let bus else { return }
    var size: Int32 = 1
    _ = setsockopt(sd_bus_get_fd(bus), SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
  }

  /// Closes at once: what is queued is dropped and the bus daemon sees the socket close.
  func close() {
    if let bus { sd_bus_close_unref(bus) }
    bus = nil
  }

  /// The arguments of a message, appended in order.
  enum Argument {
    case string(String)
    case unsigned(UInt32)
    /// An array of `count` bytes (`ay`).
    case bytes(count: Int)
    /// A variant holding a string (`v` of `s`), as `Properties.Set` takes.
    case variantString(String)
  }

  /// Calls a method and waits for its reply (at most `timeout`, sd-bus's default): nil for a
  /// method return, else the error's name.
  func call(
    _ destination: String, _ path: String, _ interface: String?, _ member: String,
    _ arguments: [Argument] = [], timeout: Duration = .seconds(25)
  ) throws(SystemError) -> String? {
    let message = try methodCall(destination, path, interface, member, arguments)
    defer { sd_bus_message_unref(message) }
    var error = sd_bus_error()
    defer { sd_bus_error_free(&error) }
    var reply: OpaquePointer?
    let result = sd_bus_call(bus, message, Self.microseconds(timeout), &error, &reply)
    sd_bus_message_unref(reply)
    guard result < 0 else { return nil }
    if let name = error.name { return String(cString: name) }
    throw SystemError("call \(member) on \(destination)", code: Errno(rawValue: -result))
  }

  /// Sends a method call without waiting for its reply, and flushes it to the bus daemon.
  /// With `expectingReply` the reply comes back for `takeReplies` (sd-bus marks a call sent
  /// without asking for its serial as expecting none).
  func send(
    _ destination: String, _ path: String, _ interface: String?, _ member: String,
    _ arguments: [Argument] = [], expectingReply: Bool = false
  ) throws(SystemError) {
    let message = try methodCall(destination, path, interface, member, arguments)
    defer { sd_bus_message_unref(message) }
    var serial: UInt64 = 0
    try Self.check(
      "send \(member) to \(destination)",
      expectingReply ? sd_bus_send(bus, message, &serial) : sd_bus_send(bus, message, nil))
    try Self.check("flush \(member) to \(destination)", sd_bus_flush(bus))
  }

  /// The connection's descriptor, to wait on several connections at once.
  var descriptor: Int32 { bus.map { sd_bus_get_fd($0) } ?? -1 }

  /// Processes what has arrived without waiting, and returns the replies to calls sent with
  /// `send` among it: how many were method returns, and the names of the errors.
  func takeReplies() -> (returns: Int, errors: [String]) {
    var returns = 0
    var errors: [String] = []
    while let bus {
      var message: OpaquePointer?
      let result = sd_bus_process(bus, &message)
      if let message {
        var type: UInt8 = 0
        _ = sd_bus_message_get_type(message, &type)
        if type == UInt8(SD_BUS_MESSAGE_METHOD_RETURN) { returns += 1 }
        if type == UInt8(SD_BUS_MESSAGE_METHOD_ERROR), let error = sd_bus_message_get_error(message) {
          errors.append(error.pointee.name.map { String(cString: $0) } ?? "error")
        }
        sd_bus_message_unref(message)
      }
      if result <= 0 { break }
    }
    return (returns, errors)
  }

  /// Sends a signal to one connection (`destination`), as only the bus daemon should send
  /// some of them: the bus stamps the true sender on it, the receiver must check it.
  func sendSignal(
    to destination: String, path: String, interface: String, member: String, _ arguments: [Argument]
  ) throws(SystemError) {
    let operation = "send \(interface).\(member) to \(destination)"
    var message: OpaquePointer?
    try Self.check(operation, sd_bus_message_new_signal(bus, &message, path, interface, member))
    defer { sd_bus_message_unref(message) }
    try Self.check(operation, sd_bus_message_set_destination(message, destination))
    try append(arguments, to: message, operation)
    try Self.check(operation, sd_bus_send(bus, message, nil))
    try Self.check(operation, sd_bus_flush(bus))
  }

  /// Asks the bus daemon for the signals `rule` matches, and waits until it is in place.
  func addMatch(_ rule: String) throws(SystemError) {
    if let error = try call(
      "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "AddMatch", [.string(rule)])
    {
      throw SystemError("AddMatch \(rule): \(error)", code: .permissionDenied)
    }
  }

  /// The unique name that owns `name`, or nil.
  func owner(of name: String) throws(SystemError) -> String? {
    let message = try methodCall(
      "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner", [.string(name)]
    )
    defer { sd_bus_message_unref(message) }
    var error = sd_bus_error()
    defer { sd_bus_error_free(&error) }
    var reply: OpaquePointer?
    guard sd_bus_call(bus, message, Self.microseconds(Self.busDaemonWait), &error, &reply) >= 0 else {
      return nil
    }
    defer { sd_bus_message_unref(reply) }
    var text: UnsafePointer<CChar>?
    guard sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &text) > 0, let text else { return nil }
    return String(cString: text)
  }

  /// Asks the bus for `name` with RequestName's `flags`: the error's name, or the result
  /// code (1 owner, 2 queued, 3 exists, 4 already owner).
  func requestName(_ name: String, flags: UInt32) throws(SystemError) -> String {
    let message = try methodCall(
      "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
      [.string(name), .unsigned(flags)])
    defer { sd_bus_message_unref(message) }
    var error = sd_bus_error()
    defer { sd_bus_error_free(&error) }
    var reply: OpaquePointer?
    let result = sd_bus_call(bus, message, Self.microseconds(Self.busDaemonWait), &error, &reply)
    defer { sd_bus_message_unref(reply) }
    guard result >= 0 else { return error.name.map { String(cString: $0) } ?? "failed" }
    var code: UInt32 = 0
    guard sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "u")), &code) > 0 else { return "no result" }
    return String(code)
  }

  private func methodCall(
    _ destination: String, _ path: String, _ interface: String?, _ member: String, _ arguments: [Argument]
  ) throws(SystemError) -> OpaquePointer? {
    let operation = "call \(member) on \(destination) \(path)"
    guard let bus else { throw SystemError(operation, code: .notConnected) }
    var message: OpaquePointer?
    try Self.check(
      operation, sd_bus_message_new_method_call(bus, &message, destination, path, interface, member))
    do throws(SystemError) {
      try append(arguments, to: message, operation)
    } catch {
      sd_bus_message_unref(message)
      throw error
    }
    return message
  }

  private func append(_ arguments: [Argument], to message: OpaquePointer?, _ operation: String)
    throws(SystemError)
  {
    for argument in arguments {
      switch argument {
      case .string(let text):
        try Self.check(
          operation, text.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) })
      case .unsigned(let value):
        var number = value
        try Self.check(operation, sd_bus_message_append_basic(message, CChar(UInt8(ascii: "u")), &number))
      case .bytes(let count):
        var space: UnsafeMutableRawPointer?
        try Self.check(
          operation, sd_bus_message_append_array_space(message, CChar(UInt8(ascii: "y")), count, &space))
        if let space { memset(space, 0x41, count) }
      case .variantString(let text):
        try Self.check(operation, sd_bus_message_open_container(message, CChar(UInt8(ascii: "v")), "s"))
        try append([.string(text)], to: message, operation)
        try Self.check(operation, sd_bus_message_close_container(message))
      }
    }
  }

  /// How long a question to the bus daemon itself may take.
  private static let busDaemonWait = Duration.seconds(5)

  /// A timeout as sd-bus takes it: whole microseconds, where 0 would mean its default.
  private static func microseconds(_ timeout: Duration) -> UInt64 {
    UInt64(max(1, timeout.wholeMicroseconds))
  }

  private static func check(_ operation: @autoclosure () -> String, _ result: Int32) throws(SystemError) {
    guard result >= 0 else { throw SystemError(operation(), code: Errno(rawValue: -result)) }
  }
}

/// The service the attacks aim at.
enum SensorProxyTarget {
  static let name = "net.hadess.SensorProxy"
  static let path = "/net/hadess/SensorProxy"
  static let interface = "net.hadess.SensorProxy"
}
