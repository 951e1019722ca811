import OrientSystem

/// What went wrong while opening a context, choosing a sensor or setting up its capture.
///
/// Each case's description is the message orientd shows, word for word. What a case means
/// for the program (its exit status, how long to wait before looking again) is decided by
/// the caller, from the case.
package enum IIOError: Error, Sendable, CustomStringConvertible {
  /// The context could not be opened: libiio failed, or the server did not answer. `hint`
  /// says what to try.
  case contextUnavailable(SystemError, hint: String?)
  /// A context refused for what it would cost (see `RemoteContextLimits`).
  case contextRefused(uri: String, reason: String)
  /// The local context was asked for on a machine without an IIO subsystem.
  case noIIODevices
  /// No accelerometer matches `--device`; `found` lists those there are.
  case noSuchSensor(selector: String, uri: String, found: String)
  /// No accelerometer outside the keyboard base; `found` lists those there are.
  case noUsableSensor(uri: String, devices: Int, found: String, baseSkipped: Bool)
  /// No accelerometer in the keyboard base.
  case noBaseSensor(uri: String)
  /// `sensor` was to be polled but has no raw attributes, only scan elements.
  case notPollable(sensor: String)
  /// `sensor` can be read only through its buffer, and the buffer is left to the daemon that
  /// owns `net.hadess.SensorProxy` (iio-sensor-proxy) while it does.
  case bufferLeft(sensor: String)
  /// The buffer cannot be used, for the reason given (a channel that is no scan element, a
  /// scan that cannot be laid out, a buffer libiio cannot open).
  case bufferUnusable(String)

  package var description: String {
    switch self {
    case .contextUnavailable(let cause, let hint):
      return hint.map { "\(cause); \($0)" } ?? "\(cause)"
    case .contextRefused(let uri, let reason):
      return "refusing the IIO context \(uri): \(reason)"
    case .noIIODevices:
      return "no IIO devices on this machine (/sys/bus/iio/devices is missing); "
        + "try --uri ip:HOST for a remote iiod, or --demo"
    case .noSuchSensor(let selector, let uri, let found):
      return "no accelerometer matches --device \(selector) in IIO context \(uri) (found \(found)); "
        + "run orientd --list to see them"
    case .noUsableSensor(let uri, let devices, let found, let baseSkipped):
      return "no usable accelerometer in IIO context \(uri): \(devices) IIO device(s), \(found)"
        + (baseSkipped ? " (base sensors are skipped)" : "")
        + "; try --uri ip:HOST for a remote iiod, --device ID to pick one, or --demo"
    case .noBaseSensor(let uri):
      return "no base accelerometer in IIO context \(uri)"
    case .notPollable(let sensor):
      return "\(sensor) cannot be polled: it has scan elements for accel x, y and z but no "
        + "in_accel_{x,y,z}_raw attributes; use mode auto or buffer to read it through its buffer"
    case .bufferLeft(let sensor):
      return "\(sensor) can be read only through its buffer, which is left to the owner of "
        + "net.hadess.SensorProxy (iio-sensor-proxy?) while another process owns that name; its "
        + "clients see the device turn, orientd's wait"
    case .bufferUnusable(let reason):
      return reason
    }
  }
}
