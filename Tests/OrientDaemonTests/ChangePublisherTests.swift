import Foundation
import OrientCore
import OrientSystem
import Testing

@testable import OrientDaemon
@testable import OrientHooks

/// The daemon's fan-out on a served socket: a `ChangePublisher` whose sinks are the served
/// `SocketServer` and a `HookRunner` on the same loop, whose hook appends
/// `previous>orientation mode` to a file in the scratch directory.
private final class PublishingRig {
  let served: ServedSocket
  let runner: HookRunner
  let publisher: ChangePublisher
  let hookLog: String

  init() throws {
    served = try ServedSocket()
    hookLog = served.scratch.path + "/hooks"
    let line = "\"$ORIENTD_PREVIOUS>$ORIENTD_ORIENTATION $ORIENTD_MODE\""
    runner = HookRunner(loop: served.loop, timeout: .seconds(30)) { [hookLog] in
      [.shell("echo \(line) >> \(hookLog)")]
    }
    publisher = ChangePublisher(loop: served.loop, state: served.host.tracker)
    publisher.server = served.server
    publisher.hooks = runner
    publisher.currentState = { [host = served.host] in host.tracker }
  }

  /// Publishes what `change` does to the host's state, as the daemon publishes an input.
  func publish(_ change: (inout OrientationTracker) -> [StateChange]) {
    let changes = change(&served.host.tracker)
    publisher.publish(changes, of: served.host.tracker, at: SampleTime(microseconds: 0))
  }

  /// A client overrides the mode: its changes are published, as the daemon publishes them.
  func setMode(_ mode: TabletMode) {
    switch served.host.tracker.control(.mode(mode)) {
    case .success(let outcome):
      publisher.publish(outcome.changes, of: served.host.tracker, at: SampleTime(microseconds: 0))
    case .failure(let error):
      Issue.record("mode \(mode) refused: \(error)")
    }
  }

  /// The hook runs so far, once none is running.
  var hookRuns: [String] {
    #expect(served.turn(until: { !self.runner.isRunning }))
    guard let text = try? String(contentsOfFile: hookLog, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").map(String.init)
  }
}

@Suite("The daemon's fan-out of changes, in the test process")
struct ChangePublisherTests {
  @Test(
    "A turn of the screen reaches the socket's subscribers and runs the hooks once, with the previous orientation"
  )
  func turnReachesSocketAndHooks() throws {
    let rig = try PublishingRig()
    let peer = try rig.served.connect()
    _ = rig.served.lines(6, of: peer)
    peer.forget()
    rig.publish { $0.setDevice(.leftUp, at: .zero) }
    #expect(rig.served.lines(2, of: peer) == ["device left-up", "orientation left-up"])
    #expect(rig.hookRuns == ["normal>left-up unknown"])
    // A change of the device alone turns no screen: no hook runs for it.
    rig.publish { $0.setDevice(.faceUp, at: .zero) }
    #expect(rig.served.lines(3, of: peer).last == "device face-up")
    #expect(rig.hookRuns == ["normal>left-up unknown"])
  }

  @Test("A change of the mode alone runs the hooks once it has held, and a flip back before then runs none")
  func modeHooksWaitForTheModeToHold() throws {
    let rig = try PublishingRig()
    let clock = rig.served.clock
    rig.setMode(.tablet)
    clock.advance(by: ChangePublisher.modeHookSettle - .milliseconds(1))
    for _ in 0..<3 { try rig.served.loop.runRound(waitingAtMost: .zero) }
    #expect(rig.hookRuns.isEmpty, "no hook before the mode has held")
    clock.advance(by: .milliseconds(1))
    // The settle timer is due now: one round fires it.
    try rig.served.loop.runRound(waitingAtMost: .zero)
    #expect(rig.hookRuns == ["normal>normal tablet"])

    // Past the spacing, a flip to laptop and back within the settle time runs nothing.
    clock.advance(by: ChangePublisher.modeHookSpacing)
    rig.setMode(.laptop)
    clock.advance(by: .milliseconds(100))
    rig.setMode(.tablet)
    clock.advance(by: ChangePublisher.modeHookSettle)
    for _ in 0..<3 { try rig.served.loop.runRound(waitingAtMost: .zero) }
    #expect(rig.hookRuns == ["normal>normal tablet"])
  }
}
