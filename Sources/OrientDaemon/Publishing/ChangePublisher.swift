import OrientCore
import OrientHooks
import OrientSystem

/// The one fan-out of what clients see: every change, whatever made it (the sensor, a switch,
/// the hinge, a client's command, a reload), is published from here to the socket's
/// subscribers, then D-Bus, then the hooks, then `--dump` or the log. Samples go to the
/// socket's sample streams and the tilt to D-Bus the same way.
///
/// Runs on the main loop; the daemon hands it each sink once the sink exists.
final class ChangePublisher {
  /// The socket's clients; nil without a socket.
  var server: SocketServer?
  /// `net.hadess.SensorProxy`; nil without D-Bus.
  var sensorProxy: SensorProxyService?
  /// The hook programs.
  var hooks: HookRunner?
  /// `--dump`'s stdout; without it changes are logged.
  var dump: DumpOutput?
  /// Change lines logged per second at most: a control flood must not flood the journal.
  private var changeLog = LineBudget(perWindow: 20, window: .seconds(1))
  /// The screen orientation the hooks last ran with, their `ORIENTD_PREVIOUS`.
  private var hookedScreen: ScreenOrientation?

  /// A publisher whose hooks start from `screen` as the previous orientation.
  init(screen: ScreenOrientation?) { hookedScreen = screen }

  /// Publishes `changes` of `state` (already applied to it), made at `time`.
  func publish(_ changes: [StateChange], of state: OrientationTracker, at time: SampleTime) {
    guard !changes.isEmpty else { return }
    server?.publish(changes)
    sensorProxy?.publish(changes)
    // Hooks run once per batch that turns the screen or changes the mode (a desktop may turn
    // its on-screen keyboard on in tablet mode).
    if let hooks, changes.contains(where: { $0.key == "orientation" || $0.key == "mode" }) {
      hooks.trigger(
        HookEnvironment.variables(
          orientation: state.orientation, previous: hookedScreen, device: state.device, mode: state.mode.mode)
      )
      hookedScreen = state.orientation
    }
    // One write for the whole batch: a change of device and screen orientation is one wake-up.
    if let dump {
      dump.write(changes, at: time)
    } else {
      changeLog.write(.info, lines: changes.map(\.line))
    }
  }

  /// Publishes a sample to the clients that stream samples.
  func publish(_ sample: Sample) { server?.publish(sample) }

  /// Publishes iio-sensor-proxy's tilt on D-Bus.
  func publish(_ tilt: AccelerometerTilt) { sensorProxy?.publish(tilt: tilt) }
}
