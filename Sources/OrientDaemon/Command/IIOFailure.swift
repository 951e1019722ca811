import OrientCore
import OrientIIO

extension Failure {
  /// The failure that ends orientd when `error` keeps it from reading a sensor at all (`--list`,
  /// or `--dump` without a sensor): a context refused for what it would cost is bad data (65),
  /// everything else a service that is not available (69).
  init(_ error: IIOError) {
    switch error {
    case .contextRefused: self.init(error.description, exitCode: .dataError)
    case .contextUnavailable, .noIIODevices, .noSuchSensor, .noUsableSensor, .noBaseSensor, .notPollable,
      .bufferLeft,
      .bufferUnusable:
      self.init(error.description, exitCode: .unavailable)
    }
  }
}
