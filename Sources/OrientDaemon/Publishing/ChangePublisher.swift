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
  /// How the panel is mounted: the hooks' transforms add it (`HookEnvironment`).
  var panel = ScreenOrientation.normal
  /// `--dump`'s stdout; without it changes are logged.
  var dump: DumpOutput?
  /// Change lines logged per second at most: a control flood must not flood the journal.
  private var changeLog = LineBudget(perWindow: 20, window: .seconds(1))
  /// The screen orientation the hooks last ran with, their `ORIENTD_PREVIOUS`.
  private var hookedScreen: ScreenOrientation?
  /// The mode the hooks last ran with.
  private var hookedMode: TabletMode
  /// Hooks for a change of the mode alone wait until it has held this long, and then run once
  /// for it, at most once every `modeHookSpacing`: a client flipping the mode as fast as it can
  /// runs them now and then, not at every flip, as the settle time does for the orientation.
  static let modeHookSettle = Duration.milliseconds(250)
  static let modeHookSpacing = Duration.seconds(1)
  private let loop: EventLoop
  private var modeHookWait: LoopTimer?
  /// When the hooks last ran for a mode alone.
  private var modeHooksRan: MonotonicInstant?
  /// The state as it is now, for hooks that waited for the mode to hold.
  var currentState: () -> OrientationTracker

  /// A publisher on `loop` whose hooks start from `state` as the previous one.
  init(loop: EventLoop, state: OrientationTracker) {
    self.loop = loop
    hookedScreen = state.orientation
    hookedMode = state.mode.mode
    currentState = { state }
  }

  /// Publishes `changes` of `state` (already applied to it), made at `time`.
  func publish(_ changes: [StateChange], of state: OrientationTracker, at time: SampleTime) {
    guard !changes.isEmpty else { return }
    server?.sendToSubscribers(changes, under: state.policy)
    sensorProxy?.signalChanges(changes)
    // Hooks run once per batch that turns the screen, and for a mode that held (a desktop may
    // turn its on-screen keyboard on in tablet mode); and once for a rotation suggested or
    // gone, after the turn it came with.
    if hooks != nil {
      if changes.contains(where: { $0.key == .orientation }) {
        runHooks(for: state, event: .orientation)
      } else if changes.contains(where: { $0.key == .mode }) {
        let wait = modeHookWait ?? LoopTimer(loop: loop) { [unowned self] _ in self.modeHeld() }
        wait.schedule(after: Self.modeHookSettle)
        modeHookWait = wait
      }
      if changes.contains(where: { $0.key == .suggestion }) { runHooks(for: state, event: .suggestion) }
    }
    // The readings (light, proximity, heading) change all the time and only while someone
    // needs them: they are logged with --verbose only, and `--dump` prints the orientation.
    let state = changes.filter { $0.key.readingKind == nil }
    if state.count < changes.count {
      Log.debug(changes.filter { $0.key.readingKind != nil }.map(\.line).joined(separator: ", "))
    }
    guard !state.isEmpty else { return }
    // One write for the whole batch: a change of device and screen orientation is one wake-up.
    if let dump {
      dump.write(state, at: time)
    } else {
      changeLog.write(.info, lines: state.map(\.line))
    }
  }

  /// The mode has held since its last change: the hooks run for it, unless the state is the one
  /// they last ran with (the mode flipped back).
  private func modeHeld() {
    let state = currentState()
    guard state.mode.mode != hookedMode || state.orientation != hookedScreen else { return }
    // The loop's clock, as the settle timer's: the spacing and the settle count on one clock.
    let now = loop.currentTime
    if let ran = modeHooksRan, now - ran < Self.modeHookSpacing {
      modeHookWait?.schedule(at: ran + Self.modeHookSpacing)
      return
    }
    modeHooksRan = now
    runHooks(for: state, event: .mode)
  }

  private func runHooks(for state: OrientationTracker, event: HookEvent) {
    hooks?.trigger(
      HookEnvironment.variables(
        orientation: state.orientation, previous: hookedScreen, device: state.device, mode: state.mode.mode,
        panel: panel)
        + event.variables(suggestion: state.suggestion.suggested), kind: event.coalescing)
    // A suggestion's run leaves the screen as it is: the state's hooks still ran last with
    // what they ran with.
    guard event != .suggestion else { return }
    modeHookWait?.cancel()
    hookedScreen = state.orientation
    hookedMode = state.mode.mode
  }

  /// The panel's mount changed (a reload): the hooks run again for the state as it is, so the
  /// screen is drawn the new way at once.
  func panelChanged(to panel: ScreenOrientation) {
    self.panel = panel
    runHooks(for: currentState(), event: .orientation)
  }

  /// Publishes a sample to the clients that stream samples.
  func publish(_ sample: Sample) { server?.sendToSubscribers(sample) }

  /// Publishes iio-sensor-proxy's tilt on D-Bus.
  func publish(_ tilt: AccelerometerTilt) { sensorProxy?.signalTilt(tilt) }
}
