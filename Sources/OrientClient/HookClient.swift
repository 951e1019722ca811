import Glibc
import OrientCore
import OrientSystem

/// `orientctl hook CMD...`: runs a desktop hook as a subscriber, inside the user's session.
///
/// The hook runs with the same environment and rules as the daemon's hooks (serially,
/// with a timeout, coalesced). When orientd goes away, it reconnects every second; after
/// a reconnect it runs the hook again if the orientation differs from the last one applied.
final class HookClient {
  private let socket: String
  private let loop: EventLoop
  private let runner: HookRunner
  private var descriptor: Int32 = -1
  private var watch: Watch?
  private var retry: LoopTimer?
  private var signals: SignalWatcher?
  private var buffer: [UInt8] = []
  private var applied: ScreenOrientation??
  private var orientation: ScreenOrientation?
  private var device: DeviceOrientation?
  private var snapshotLines = 0
  private var warnedAbsent = false

  init(socket: String, command: [String], timeoutMilliseconds: Int) throws(SystemError) {
    self.socket = socket
    loop = try EventLoop()
    let hook = HookCommand.program(command)
    runner = HookRunner(loop: loop, timeoutMilliseconds: timeoutMilliseconds) { [hook] in [hook] }
  }

  /// Runs until SIGINT or SIGTERM.
  func run() throws(SystemError) -> Int32 {
    signals = try SignalWatcher(loop: loop, signals: [SIGINT, SIGTERM]) { [unowned self] _ in self.loop.stop()
    }
    connect()
    try loop.run()
    return 0
  }

  private func connect() {
    retry = nil
    do {
      let fd = try UnixSocket.connect(path: socket)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      descriptor = fd
      watch = try loop.watch(fd) { [unowned self] _ in self.readInput() }
      snapshotLines = 0
      buffer = []
      Log.info("connected to orientd at \(socket)")
      warnedAbsent = false
    } catch {
      if !warnedAbsent {
        Log.warning("cannot reach orientd at \(socket): \(errorText(error.code)); retrying every second")
        warnedAbsent = true
      }
      scheduleRetry()
    }
  }

  private func scheduleRetry() {
    let timer = LoopTimer(loop: loop) { [unowned self] _ in self.connect() }
    timer.schedule(afterNanoseconds: 1_000_000_000)
    retry = timer
  }

  private func disconnected() {
    if let watch { loop.unwatch(watch) }
    watch = nil
    close(descriptor)
    descriptor = -1
    Log.warning("orientd at \(socket) went away; reconnecting every second")
    warnedAbsent = true
    scheduleRetry()
  }

  private func readInput() {
    var chunk = [UInt8](repeating: 0, count: 4096)
    let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    if count < 0, errno == EAGAIN || errno == EINTR { return }
    guard count > 0 else { return disconnected() }
    buffer += chunk[0..<count]
    while let newline = buffer.firstIndex(of: 0x0A) {
      let line = String(decoding: buffer[..<newline], as: UTF8.self)
      buffer.removeFirst(newline + 1)
      guard let change = StateChange(line: line) else { continue }
      handle(change)
    }
  }

  private func handle(_ change: StateChange) {
    switch change {
    case .device(let value): device = value
    case .orientation(let value): orientation = value
    default: break
    }
    if snapshotLines < 5 {
      // The five lines sent on connect: act once they are all in.
      snapshotLines += 1
      guard snapshotLines == 5 else { return }
    } else if change.key != "orientation" {
      return
    }
    guard orientation != nil, applied != .some(orientation) else { return }
    let previous = applied ?? nil
    applied = .some(orientation)
    runner.trigger(HookEnvironment.variables(orientation: orientation, previous: previous, device: device))
  }
}
