import CSystemd

/// A value of a property, in the D-Bus types orientd's interfaces use.
package enum BusValue: Sendable, Equatable {
  case boolean(Bool)
  case string(String)
  case double(Double)
}

/// The D-Bus type of a property: its one-letter signature.
package enum BusValueType: String, Sendable {
  case boolean = "b"
  case string = "s"
  case double = "d"
}

/// A method call an exported object answers.
package struct BusMethodCall {
  /// The method's name.
  package var member: String
  /// The caller's unique name (`:1.42`), set by the bus daemon.
  package var sender: String
  /// Keeps the call for a reply sent later: the connection's way to reach its caller.
  private let deferring: () -> BusPendingReply

  /// A call of `member` by `sender`; `deferReply` keeps it to be answered later.
  package init(member: String, sender: String, deferReply: @escaping () -> BusPendingReply) {
    self.member = member
    self.sender = sender
    deferring = deferReply
  }

  /// Keeps the call to be answered later, for a handler that returns nil: it waits for
  /// something only the bus can tell (who the caller is). Called while the handler runs.
  package func deferReply() -> BusPendingReply { deferring() }
}

/// A method call answered later, exactly once; one dropped unanswered gets an error.
package final class BusPendingReply {
  /// Sends a reply to the caller; nil once sent.
  private var deliver: ((BusReply) -> Void)?

  /// A reply that `deliver` sends, called once: with the reply given, or with an error if
  /// this is dropped unanswered.
  package init(_ deliver: @escaping (BusReply) -> Void) { self.deliver = deliver }

  deinit {
    send(.error(name: "org.freedesktop.DBus.Error.Failed", message: "the call was dropped unanswered"))
  }

  /// Sends the reply; calling it again does nothing.
  package func send(_ reply: BusReply) {
    guard let deliver else { return }
    self.deliver = nil
    deliver(reply)
  }
}

/// What a method returns.
package enum BusReply: Sendable, Equatable {
  /// An empty method return.
  case empty
  /// A D-Bus error, such as `org.freedesktop.DBus.Error.LimitsExceeded`, with a message for
  /// people.
  case error(name: String, message: String)

  /// Sends `reply` to the caller of `call`; sd-bus's result.
  static func send(_ reply: BusReply, to call: OpaquePointer) -> Int32 {
    switch reply {
    case .empty:
      var message: OpaquePointer?
      let created = sd_bus_message_new_method_return(call, &message)
      guard created >= 0 else { return created }
      defer { sd_bus_message_unref(message) }
      return sd_bus_send(nil, message, nil)
    case .error(let name, let text):
      var error = sd_bus_error()
      _ = sd_bus_error_set(&error, name, text)
      defer { sd_bus_error_free(&error) }
      return sd_bus_reply_method_error(call, &error)
    }
  }
}

/// A read-only property of a `BusObject`: its name and type as clients see them, and its value
/// now, read by a getter of its own (sd-bus hands each property's getter its own entry, so
/// the name is not looked up again).
package struct BusProperty {
  /// The property's name, e.g. `AccelerometerOrientation`.
  package var name: String
  /// Its D-Bus type.
  package var type: BusValueType
  /// Its value now; of `type`.
  package var value: () -> BusValue

  package init(_ name: String, _ type: BusValueType, value: @escaping () -> BusValue) {
    self.name = name
    self.type = type
    self.value = value
  }
}

/// An object with one interface to export on a `BusConnection`.
///
/// Its methods take no arguments; sd-bus answers a call with arguments with `InvalidArgs`, an
/// unknown method with `UnknownMethod`, and an unknown property with `UnknownProperty`. The
/// properties are read-only and announce their changes with `PropertiesChanged`, values
/// included. `Properties`, `Introspectable` (with the XML built from this description) and
/// `Peer` come from sd-bus.
package struct BusObject {
  /// Where the object is exported, e.g. `/net/hadess/SensorProxy`.
  package var path: String
  /// The one interface its methods and properties belong to.
  package var interface: String
  /// The methods, each without arguments or results.
  package var methods: [String]
  /// The properties, in the order introspection and `GetAll` list them.
  package var properties: [BusProperty]
  /// Answers a method call, or returns nil after `deferReply()` to answer later. It runs
  /// while sd-bus processes the call; what it sends waits until the reply has gone.
  package var call: (BusMethodCall) -> BusReply?

  /// An object at `path` with `interface`.
  package init(
    path: String, interface: String, methods: [String], properties: [BusProperty],
    call: @escaping (BusMethodCall) -> BusReply?
  ) {
    self.path = path
    self.interface = interface
    self.methods = methods
    self.properties = properties
    self.call = call
  }
}
