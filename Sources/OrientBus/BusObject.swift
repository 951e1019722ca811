/// A value of a property, in the D-Bus types orientd's interfaces use.
public enum BusValue: Sendable, Equatable {
  case boolean(Bool)
  case string(String)
  case double(Double)
}

/// The D-Bus type of a property: its one-letter signature.
public enum BusValueType: String, Sendable {
  case boolean = "b"
  case string = "s"
  case double = "d"
}

/// A method call an exported object answers.
public struct BusMethodCall: Sendable, Equatable {
  /// The method's name.
  public var member: String
  /// The caller's unique name (`:1.42`), set by the bus daemon.
  public var sender: String
}

/// What a method returns.
public enum BusReply: Sendable, Equatable {
  /// An empty method return.
  case empty
  /// A D-Bus error, such as `org.freedesktop.DBus.Error.LimitsExceeded`, with a message for
  /// people.
  case error(name: String, message: String)
}

/// An object with one interface to export on a `BusConnection`.
///
/// Its methods take no arguments; sd-bus answers a call with arguments with `InvalidArgs`, an
/// unknown method with `UnknownMethod`, and an unknown property with `UnknownProperty`. The
/// properties are read-only and announce their changes with `PropertiesChanged`, values
/// included. `Properties`, `Introspectable` (with the XML built from this description) and
/// `Peer` come from sd-bus.
public struct BusObject {
  public var path: String
  public var interface: String
  /// The methods, each without arguments or results.
  public var methods: [String]
  /// The properties, in the order introspection and `GetAll` list them.
  public var properties: [(name: String, type: BusValueType)]
  /// A property's value now; its type must be the declared one.
  public var value: (String) -> BusValue
  /// Answers a method call. It runs while sd-bus processes the call; what it sends waits until
  /// the reply has gone.
  public var call: (BusMethodCall) -> BusReply

  /// An object at `path` with `interface`.
  public init(
    path: String, interface: String, methods: [String], properties: [(name: String, type: BusValueType)],
    value: @escaping (String) -> BusValue, call: @escaping (BusMethodCall) -> BusReply
  ) {
    self.path = path
    self.interface = interface
    self.methods = methods
    self.properties = properties
    self.value = value
    self.call = call
  }
}
