import OrientCore
import OrientSystem

/// What the daemon's wiring runs against besides its options: in a process, the machine's
/// clock, the sampling thread and the input devices; in a test, a scripted clock and a scripted
/// sampler, and no input devices, so that the real `Daemon` runs in the test process without
/// touching the host.
struct DaemonSurroundings {
  /// The main loop's clock, which every timer on the loop follows (the sampling demand's idle
  /// delay, the reading sensors' linger, the fresh-sample wait, the clients' idle timeout).
  var clock: () -> MonotonicInstant = { .now }
  /// Starts the sampler; called once, from `Daemon.start()`, after the sinks exist.
  var startSampler: (SamplerConfiguration) throws(SystemError) -> any SamplerLink = {
    (configuration) throws(SystemError) in try SamplingThread(configuration: configuration)
  }
  /// Whether the machine's input devices are used: the tablet-mode and lid switches read
  /// (live local IIO only) and the virtual tablet-mode switch made (`--tablet-switch`).
  var usesInputDevices = true
  /// The kernel's display connectors, for the panel's mount (`panel-orientation = auto`): the
  /// machine's DRM devices, or none in a test.
  var displayConnectors: () -> DisplayConnectorReading = { DRMConnectors.read().reading }

  /// What a process runs against.
  static var machine: DaemonSurroundings { DaemonSurroundings() }
}

extension DRMConnectors.Reading {
  /// The same, in the pure core's terms.
  var reading: DisplayConnectorReading {
    switch self {
    case .noDevice(let why): return .noDevice(why)
    case .connectors(let connectors, let problems):
      return .connectors(
        connectors.map {
          DisplayConnector(
            card: $0.card, type: $0.type, typeIndex: $0.typeIndex, panelOrientation: $0.panelOrientation)
        }, problems: problems)
    }
  }
}
