import OrientSystem

/// What a service that owns a name and exports objects needs of its bus connection: the seam
/// between the service's decisions and sd-bus. `BusConnection` is the real one; a test scripts
/// its own, records what the service sends and hands it the bus's events.
///
/// The connection's events (its name owned, queued or lost, a watched client gone, the bus
/// gone) reach the handler it was opened with on the service's `EventLoop`, never from inside
/// one of these calls; so do the answers to `unixUser` and `processID`. An exported object's
/// method handler runs on the loop too, and a signal it emits follows its reply.
package protocol ServiceBus: AnyObject {
  /// Asks the bus for `name`, queueing behind its owner and never replacing it; the answer
  /// arrives as a `.name` or `.nameRequestFailed` event.
  func requestName(_ name: String) throws(SystemError)
  /// Serves `object`'s methods and properties.
  func export(_ object: BusObject) throws(SystemError)
  /// Broadcasts `PropertiesChanged` for `names`, with their values read from the exported
  /// object's properties.
  func emitPropertiesChanged(path: String, interface: String, names: [String])
  /// Reports `.peerGone(name)` once the client `name` leaves the bus (also if it has left).
  func watchPeer(_ name: String) throws(SystemError)
  /// Stops watching the client `name`.
  func forgetPeer(_ name: String)
  /// Asks which user runs the client `name`; nil: the bus does not know it.
  func unixUser(of name: String, completion: @escaping (UInt32?) -> Void) throws(SystemError)
  /// Asks which process owns `name`; nil: nobody owns it now.
  func processID(of name: String, completion: @escaping (UInt32?) -> Void) throws(SystemError)
  /// Closes the connection; nothing more is reported from it.
  func close()
}

/// Opens a connection to a bus for a service: the address, the loop its events are delivered
/// on, the screening of method calls and the handler of its events.
package typealias ServiceBusOpener = (
  _ address: BusAddress, _ loop: EventLoop, _ screening: BusCallScreening?,
  _ handler: @escaping (BusEvent) -> Void
) throws(SystemError) -> any ServiceBus

extension BusConnection: ServiceBus {
  /// Opens a `BusConnection`, sd-bus on the loop: the daemon's `ServiceBusOpener`.
  package static func openForService(
    _ address: BusAddress, loop: EventLoop, screening: BusCallScreening?,
    handler: @escaping (BusEvent) -> Void
  ) throws(SystemError) -> any ServiceBus {
    try BusConnection(address, loop: loop, screening: screening, handler: handler)
  }
}
