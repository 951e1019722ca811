import Glibc
import OrientSystem

// `orientd-testbench attack NAME ARGUMENTS...` runs one attack on a running orientd, as whatever
// user starts it: the tests and benchmarks/attacks.sh start it as nobody through
// `setpriv --reuid=nobody --regid=nogroup --clear-groups`. Each attack prints its figures on
// stdout as `name value` lines and exits 0 when it ran, whatever orientd did; judging the
// result is the caller's job.

/// One attack: its arguments after the name, and a one-line description for the usage text.
struct Attack: Sendable {
  let usage: String
  let run: @Sendable ([String]) throws -> Void
}

/// Every attack by name.
let attacks: [String: Attack] = [
  "slow-reader": slowReader,
  "hold-connections": holdConnections,
  "send-and-close": sendAndClose,
  "control-flood": controlFlood,
  "idle-connections": idleConnections,
  "ping-latency": pingLatency,
  "watchdog-gap": watchdogGap,
  "sample-hoarders": sampleHoarders,
  "fake-iiod": fakeIIODAttack,
  "bus-claimants": busClaimants,
  "bus-claim-churn": busClaimChurn,
  "bus-claim-flood": busClaimFlood,
  "bus-call-latency": busCallLatency,
  "bus-big-calls": busBigCalls,
  "bus-odd-calls": busOddCalls,
  "bus-long-paths": busLongPaths,
  "bus-deaf-listeners": busDeafListeners,
  "bus-spoof": busSpoof,
  "bus-big-signals": busBigSignals,
  "bus-take-name": busTakeName,
]

/// Runs `orientd-testbench attack ...` and exits.
func runAttack(_ arguments: [String]) -> Never {
  guard let name = arguments.first, let attack = attacks[name] else {
    var text = "usage: orientd-testbench attack NAME ARGUMENTS...\n"
    for (name, attack) in attacks.sorted(by: { $0.key < $1.key }) { text += "  \(name) \(attack.usage)\n" }
    StandardStream.error.report(text)
    exit(64)
  }
  do {
    try attack.run(Array(arguments.dropFirst()))
  } catch {
    StandardStream.error.report("orientd-testbench attack \(name): \(error)\n")
    exit(1)
  }
  exit(0)
}
