import Foundation
import OrientConfig
import OrientCore
import OrientSystem
import Testing

@testable import OrientDaemon

/// The real `Daemon`, started in the test process with `arguments` as orientd's command line,
/// on a socket and a state file in a scratch directory, with a scripted clock and a scripted
/// sampler, and no input devices. The test turns its loop on its own thread (`turn(until:)`),
/// so the daemon, its clients and the peers are touched by one thread only.
final class InProcessDaemon {
  let scratch: ScratchDirectory
  let clock = ScriptedClock()
  let sampler: ScriptedSampler
  let daemon: Daemon
  let socketPath: String
  let statePath: String
  private var running = true

  /// A daemon started on `scratch` (a new one by default: a restart passes the previous one's).
  init(_ arguments: [String] = [], scratch: ScratchDirectory? = nil) throws {
    let scratch = try scratch ?? ScratchDirectory()
    self.scratch = scratch
    socketPath = scratch.path + "/orientd.sock"
    statePath = scratch.path + "/state"
    let commandLine = try CommandLineArguments.parse(
      ["--socket", socketPath, "--state", statePath] + arguments)
    let options = try DaemonOptions.resolve(commandLine: commandLine, config: [])
    let sampler = try ScriptedSampler()
    self.sampler = sampler
    var surroundings = DaemonSurroundings()
    surroundings.clock = { [clock] in clock.now }
    surroundings.startSampler = { configuration in
      sampler.configuration = configuration
      return sampler
    }
    surroundings.usesInputDevices = false
    surroundings.displayConnectors = { .noDevice("none in the test process") }
    daemon = try Daemon(options: options, surroundings: surroundings)
    do {
      try daemon.start()
    } catch {
      // As `run` does when its start fails; the deinit then finds it stopped.
      stop()
      throw error
    }
  }

  deinit { stop() }

  /// Shuts the daemon down, as a process does when its loop ends: the socket file goes and
  /// the last state is written.
  func stop() {
    guard running else { return }
    running = false
    daemon.shutDown()
  }

  /// The state file's text, or nil when there is none.
  var stateFile: String? { try? String(contentsOfFile: statePath, encoding: .utf8) }

  /// A peer connected to the daemon's socket, read for by the loop, accepted and greeted
  /// before this returns (it has `greeting` lines).
  func connect(greeting: Int = 6) throws -> TestPeer {
    let peer = try TestPeer(connectingTo: socketPath)
    try peer.listen(on: daemon.loop)
    #expect(turn(until: { peer.lineCount >= greeting }), "no greeting of \(greeting) lines: \(peer.lines)")
    taken[ObjectIdentifier(peer)] = greeting
    return peer
  }

  /// Posts `events` as the sampler's, and turns the loop until the daemon has taken them all.
  func report(_ events: SamplerEvent...) {
    for event in events { sampler.post(event) }
    #expect(turn(until: { self.sampler.events.count == 0 }), "the daemon did not take the events")
  }

  /// Runs the loop a round at a time until `condition` holds (`EventLoop.turn(until:within:)`).
  @discardableResult
  func turn(until condition: () -> Bool, within limit: Duration = .seconds(10)) -> Bool {
    daemon.loop.turn(until: condition, within: limit)
  }

  /// Turns the loop a few rounds without waiting: what is ready now is handled.
  func settle() {
    for _ in 0..<5 {
      do {
        try daemon.loop.runRound(waitingAtMost: .zero)
      } catch {
        Issue.record("the loop failed: \(error)")
        return
      }
    }
  }

  /// Runs the loop until `peer` has `count` lines, and returns them.
  func lines(_ count: Int, of peer: TestPeer) -> [String] {
    #expect(turn(until: { peer.lineCount >= count }), "\(count) lines expected, got \(peer.lines)")
    return peer.lines
  }

  /// How many of each peer's lines a test has taken (`next`), by the peer.
  private var taken: [ObjectIdentifier: Int] = [:]

  /// The `count` lines `peer` received after those taken before (the greeting counts as
  /// taken), once it has them; they are taken.
  func next(_ count: Int, of peer: TestPeer) -> [String] {
    let from = taken[ObjectIdentifier(peer)] ?? 0
    let lines = lines(from + count, of: peer)
    taken[ObjectIdentifier(peer)] = from + count
    return Array(lines.dropFirst(from).prefix(count))
  }
}
