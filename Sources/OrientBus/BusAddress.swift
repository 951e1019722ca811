/// Which message bus a `BusConnection` connects to.
package enum BusAddress: Sendable, Equatable, CustomStringConvertible {
  /// The system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else sd-bus's default socket).
  case system
  /// The session bus of the user running the process (`DBUS_SESSION_BUS_ADDRESS`).
  case session
  /// A bus at a D-Bus address such as `unix:path=/run/dbus/system_bus_socket`.
  case address(String)

  package var description: String {
    switch self {
    case .system: "the system bus"
    case .session: "the session bus"
    case .address(let address): address
    }
  }
}
