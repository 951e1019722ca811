import OrientCore
import OrientIIO
import OrientSystem

/// What broke an accelerometer's buffer, handed to its `CapturePlan` as a value. A look that
/// failed is an `IIOError`, a poll that failed a `RawReadError`; both are capture faults too
/// (below). Each description is what the log says.
enum BufferFault: CaptureFault {
  /// The buffer could not be opened.
  case unopened(IIOError)
  /// epoll would not watch the buffer's node: it refuses a node that is no device's (a
  /// regular file, as in some test beds) with EPERM.
  case unwatchable(SystemError)
  /// Reading the buffer failed with this errno.
  case readFailed(Errno)
  /// The buffer's device hung up with nothing to read.
  case hungUp
  /// udev said the buffered device was removed (the kernel never hangs up its buffer).
  case removed

  var description: String {
    switch self {
    case .unopened(let error): return "\(error)"
    case .unwatchable(let error): return "cannot watch its node for scans: \(error)"
    case .readFailed(let code): return "reading the buffer failed: \(code)"
    case .hungUp: return "the buffer's device hung up"
    case .removed: return "the device was removed"
    }
  }
}

/// A machine without an IIO subsystem, as a service that goes on looking says it (in the log
/// and `info`): plainly, without the advice `IIOError.noIIODevices` gives a command that ends
/// (`--uri`, `--demo`).
struct NoIIOSubsystem: CaptureFault {
  var description: String { "no IIO devices on this machine (/sys/bus/iio/devices is missing)" }
}

/// A look for the sensor that failed: a context refused for what it would cost, and a sensor
/// that cannot be read at all, are looked for further apart each time; the rest every second.
extension IIOError: CaptureFault {
  package var backOff: CapturePlan.BackOff {
    switch self {
    case .contextRefused: return .refused
    case .bufferUnusable: return .unusable
    case .contextUnavailable, .noIIODevices, .noSuchSensor, .noUsableSensor, .noBaseSensor, .notPollable,
      .bufferLeft:
      return .none
    }
  }
}

/// A poll that failed: an attribute that is gone, a device without raw attributes and a read
/// whose errno means the device is gone lose the sensor; other failed reads lose a sample.
extension RawReadError: CaptureFault {
  package var meansDeviceGone: Bool {
    switch self {
    case .missing, .noRawAttributes: return true
    case .readFailed(_, let code): return code.meansDeviceGone
    case .garbage: return false
    }
  }
}
