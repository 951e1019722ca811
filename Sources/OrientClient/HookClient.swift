import OrientCore
import OrientHooks
import OrientSystem

/// `orientctl hook CMD...`: runs a desktop hook as a subscriber, inside the user's session.
///
/// The hook runs with the same environment and rules as the daemon's hooks (serially,
/// with a timeout, coalesced). When orientd goes away, it reconnects every second; after
/// a reconnect it runs the hook again if the orientation differs from the last one applied.
///
/// It subscribes to what hooks need, the screen orientation, the mode and the rotation
/// suggestions, so that orientd may let the sensor sleep while the screen is held in laptop
/// mode; `ORIENTD_DEVICE` is therefore `undefined` in its hooks (the daemon's own hooks have
/// it). A suggestion runs the hook with `ORIENTD_EVENT=suggestion`, from the greeting on.
///
/// A command that cannot be started ends it at once (127 for a program that is missing or
/// not executable, 69 for any other reason), before connecting or on the change that finds it
/// gone, so a user unit's `Restart=on-failure` and the journal see the failure.
///
/// With `supports` (a kiosk app that only works in landscape), it declares those orientations
/// on each connection and acts only once orientd has accepted them, so the hook never runs
/// for an orientation outside them; orientd refusing them (none is allowed) ends it with 1.
///
/// Why this type is large (about 18 stored properties): a hook client is a small daemon of its
/// own: its connection and its reconnection timer, its signals, the hook runner, what it last
/// ran the hook for (orientation and mode) against what orientd says now, and the one-time
/// warnings that keep a reconnecting client from repeating itself every second.
final class HookClient {
  private let location: SocketLocation
  /// The socket of the connection there is, or was last.
  private var socket: String
  private let loop: EventLoop
  private let runner: HookRunner
  private var connection: Connection?
  private var retry: LoopTimer?
  private var signals: SignalWatcher?
  private var applied: ScreenOrientation??
  private var orientation: ScreenOrientation?
  private var mode = TabletMode.unknown
  /// The rotation suggested now, as orientd last said.
  private var suggestion: ScreenOrientation?
  private var appliedMode: TabletMode?
  /// Whether the greeting, which ends with its `mode` line, is in.
  private var greeted = false
  /// The orientations declared with `supports` on each connection, if any.
  private let supports: AllowedOrientations?
  /// Whether orientd has yet to answer this connection's `supports`.
  private var declaring = false
  /// How the panel is mounted, as orientd's `info` says (`panel`): the hooks' transforms add it.
  private var panel = ScreenOrientation.normal
  /// Whether this connection's `info` reply has begun, and whether it is all in.
  private var infoBegun = false
  private var infoDone = false
  private var warnedAbsent = false
  /// Whether the warning that orientd cannot start was given since orientd last served.
  private var warnedCannotStart = false
  private let hook: HookCommand
  private var exitStatus: Int32 = 0

  /// The connection to orientd while there is one.
  private final class Connection {
    let socket: FileDescriptor
    let watch: Watch
    var splitter = LineSplitter(limit: 65536)

    init(socket: consuming FileDescriptor, watch: Watch) {
      self.socket = socket
      self.watch = watch
    }
  }

  init(
    socket location: SocketLocation, command: [String], timeout: Duration,
    supports: AllowedOrientations? = nil
  ) throws(SystemError) {
    self.location = location
    socket = location.description
    self.supports = supports
    loop = try EventLoop()
    let hook = HookCommand.program(command)
    self.hook = hook
    runner = HookRunner(loop: loop, timeout: timeout) { [hook] in [hook] }
  }

  /// Runs until SIGINT or SIGTERM, or until the command cannot be started; returns the exit
  /// status.
  func run() throws(SystemError) -> Int32 {
    if let problem = hook.startProblem {
      StandardStream.error.report("orientctl: hook: \(problem)\n")
      return Self.notFound
    }
    runner.startFailed = { [unowned self] command, error in
      Log.error("hook '\(command.description)' cannot be started; exiting")
      self.exitStatus =
        [.noSuchFile, .accessDenied].contains(error.code) ? Self.notFound : ExitCode.unavailable.rawValue
      self.loop.stop()
    }
    signals = try SignalWatcher(loop: loop, signals: [.interrupt, .terminate]) { [unowned self] _ in
      self.loop.stop()
    }
    connect()
    // Refused at the first attempt: the loop has not run yet, so its stop would be lost.
    guard exitStatus == 0 else { return exitStatus }
    defer { runner.terminate() }
    try loop.run()
    return exitStatus
  }

  /// The shell's status for a command that is not found or cannot be executed.
  static let notFound: Int32 = 127

  private func connect() {
    retry = nil
    do throws(Unreachable) {
      socket = try location.firstReached { path throws(SystemError) in
        let socket = try UnixSocket.connect(path: path, nonBlocking: true)
        // Only what hooks need: a client hearing device changes would keep the sensor awake.
        let declaration = supports.map { "supports \($0.listText)\n" } ?? ""
        // Non-blocking: a send that fails shows as the connection closing, which reconnects.
        // `info` last: its reply, which names the panel's mount, ends with the last `ok`.
        _ = try? socket.send(Array((declaration + "subscribe orientation,mode,suggestion\ninfo\n").utf8)[...])
        let watch = try loop.watch(socket.rawValue) { [unowned self] _ in self.readInput() }
        connection = Connection(socket: socket, watch: watch)
      }
      declaring = supports != nil
      greeted = false
      infoBegun = false
      infoDone = false
      if !warnedCannotStart { Log.info("connected to orientd at \(socket)") }
      warnedAbsent = false
    } catch {
      if error.isDenied {
        // Retrying cannot help: this user may not use the socket.
        exitStatus = error.report()
        return loop.stop()
      }
      if !warnedAbsent {
        Log.warning("\(error.message); retrying every second")
        warnedAbsent = true
      }
      scheduleRetry()
    }
  }

  private func scheduleRetry() {
    let timer = LoopTimer(loop: loop) { [unowned self] _ in self.connect() }
    timer.schedule(after: .seconds(1))
    retry = timer
  }

  private func disconnected() {
    if let connection { loop.unwatch(connection.watch) }
    connection = nil
    Log.warning("orientd at \(socket) went away; reconnecting every second")
    warnedAbsent = true
    scheduleRetry()
  }

  private func readInput() {
    guard let connection else { return }
    var chunk = [UInt8](repeating: 0, count: 4096)
    let received: Int?
    do {
      received = try chunk.withUnsafeMutableBytes { try connection.socket.receive(into: $0) }
    } catch {
      return disconnected()
    }
    guard let count = received else { return }
    guard count > 0 else { return disconnected() }
    let pieces = chunk.withUnsafeBytes {
      connection.splitter.append(UnsafeRawBufferPointer(rebasing: $0[0..<count]))
    }
    for piece in pieces {
      guard case .line(let bytes) = piece else { return disconnected() }
      let line = String(decoding: bytes, as: UTF8.self)
      if line.hasPrefix("error " + ProtocolError.Code.badConfig.rawValue + " ") {
        return cannotStart(line)
      }
      if let change = StateChange(line: line) {
        handle(change)
      } else if let item = InfoItem(line: line) {
        infoBegun = true
        if item.key == "panel" { panel = ScreenOrientation(name: item.value) ?? .normal }
      } else if infoBegun, !infoDone, line == "ok" {
        infoDone = true
        act()
      } else if declaring, greeted {
        // The first reply, after the greeting, is the one to `supports`.
        guard line == "ok" else { return refusedSupports(line) }
        declaring = false
        act()
      }
    }
  }

  /// The orientd systemd started for this connection could not start (its configuration has a
  /// mistake): try again only every 30 s, since each connection has systemd start it again
  /// and five starts in 10 s (from all users' hooks together) make systemd give up on the
  /// service and its socket. Said once, until orientd serves again.
  private func cannotStart(_ line: String) {
    if let connection { loop.unwatch(connection.watch) }
    connection = nil
    if !warnedCannotStart {
      Log.warning("\(line.dropFirst("error bad-config ".count)); trying again every 30 s")
      warnedCannotStart = true
    }
    warnedAbsent = true
    let timer = LoopTimer(loop: loop) { [unowned self] _ in self.connect() }
    timer.schedule(after: Self.cannotStartRetry)
    retry = timer
  }

  /// How long to wait before connecting again to an orientd that could not start.
  static let cannotStartRetry = Duration.seconds(30)

  /// orientd refused the orientations declared (`line`, its error): nothing the hook could be
  /// run for would fit them, so orientctl ends.
  private func refusedSupports(_ line: String) {
    let detail = line.hasPrefix("error ") ? String(line.dropFirst(6)) : line
    Log.error("orientd refused supports \(supports?.listText ?? ""): \(detail); exiting")
    exitStatus = 1
    loop.stop()
  }

  private func handle(_ change: StateChange) {
    switch change {
    case .orientation(let value): orientation = value
    case .mode(let value):
      mode = value
      // The greeting ends with the mode: act once it is all in.
      greeted = true
      warnedCannotStart = false
    case .suggestion(let value):
      suggestion = value
      return suggested()
    default: return
    }
    act()
  }

  /// Runs the hook for the rotation suggested now (or its end), once the greeting is in and
  /// the orientations supported are accepted; not for one outside them.
  private func suggested() {
    guard greeted, !declaring, suggestion.map({ supports?.contains($0) ?? true }) ?? true else { return }
    runner.trigger(
      HookEnvironment.variables(orientation: orientation, previous: applied ?? nil, device: nil, mode: mode)
        + HookEvent.suggestion.variables(suggestion: suggestion), kind: HookEvent.suggestion.coalescing)
  }

  /// Runs the hook if the orientation or the mode differs from what it last ran with, once
  /// the greeting is in and the orientations supported are accepted.
  private func act() {
    guard greeted, !declaring, infoDone, orientation != nil,
      applied != .some(orientation) || appliedMode != mode
    else {
      return
    }
    let previous = applied ?? nil
    let event: HookEvent = applied == .some(orientation) ? .mode : .orientation
    applied = .some(orientation)
    appliedMode = mode
    runner.trigger(
      HookEnvironment.variables(
        orientation: orientation, previous: previous, device: nil, mode: mode, panel: panel)
        + event.variables(suggestion: suggestion), kind: event.coalescing)
  }
}
