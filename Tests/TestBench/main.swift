import Glibc
import OrientSystem

// orientd-testbench: the hostile clients, the fake iiod and the input probes the tests (and
// benchmarks/attacks.sh) run against orientd. It lives with the tests and is no product of the
// package: nothing orientd ships depends on it.
//
//   orientd-testbench attack NAME ARGUMENTS...   one attack on a running orientd (Attacks/)
//   orientd-testbench switches|virtual-switch    a probe of the input devices (InputProbes.swift)

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "attack":
  runAttack(Array(arguments.dropFirst()))
case .some(let probe) where probe == "switches" || probe == "virtual-switch":
  runInputProbe(probe, options: Array(arguments.dropFirst()))
default:
  StandardStream.error.report(
    """
    usage: orientd-testbench attack NAME ARGUMENTS...   one hostile client (see orientd-testbench attack)
           orientd-testbench switches [--verbose]       the switches read, as orientd reads them
           orientd-testbench virtual-switch [--verbose] the virtual tablet-mode switch, set from stdin

    """)
  exit(64)
}
