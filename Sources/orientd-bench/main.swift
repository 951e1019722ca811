import Glibc
import OrientSystem

// orientd-bench: prints throughput, poll cost, publish latency, memory and wake-up figures for
// orientd. Run it as `swift run -c release orientd-bench`; every figure is a median after a
// warm-up. Memory is VmRSS / Pss / USS: only the last two say what orientd costs the machine.
// The hostile clients and fake peers the tests run are another program, orientd-testbench
// (Tests/TestBench).
//
// Errors: the measurements throw untyped errors, and each ends the run with its message
// (`fail`), since no caller here tells one from another. `try?` is kept where a failure only
// leaves a figure out or a scratch file behind: a benchmark run, not a service, and its
// teardown has nobody to tell.

#if DEBUG
  StandardStream.error.report(
    "orientd-bench: warning: this is a debug build; run `swift run -c release orientd-bench` for real figures\n"
  )
#endif

let usage = """
  usage: orientd-bench [--quick]       every figure (--quick: one run each, shorter waits)

  """
let options = Array(CommandLine.arguments.dropFirst())
if options.contains(where: { $0 == "-h" || $0 == "--help" }) {
  StandardStream.output.report(usage)
  exit(0)
}
if let unknown = options.first(where: { $0 != "--quick" }) {
  StandardStream.error.report("orientd-bench: unknown argument '\(unknown)'\n" + usage)
  exit(64)
}
let quick = options.contains("--quick")
let runs = quick ? 1 : 5
raiseOpenFileLimit(to: 4096)

func row(_ name: String, _ value: String, _ note: String = "") {
  let padded = name + String(repeating: " ", count: max(1, 46 - name.count))
  let shown = value + String(repeating: " ", count: max(1, 26 - value.count))
  StandardStream.output.report(padded + shown + note + "\n")
}

func millions(_ value: Double) -> String { fixed(value / 1e6, 1) + "M" }

func fail(_ what: String, _ error: any Error) -> Never {
  StandardStream.error.report("orientd-bench: \(what): \(error)\n")
  exit(1)
}

row("figure", "value", "note")
row("classifier throughput", millions(classifierThroughput(runs: runs)) + " samples/s", "target >= 50M")
row("replay pipeline throughput", millions(replayThroughput(runs: runs)) + " samples/s", "parse + Detector")

do {
  let cost = try PollCost.measure(polls: quick ? 2000 : 20000, runs: runs)
  row("CPU per poll of 3 sysfs files, direct", micros(cost.direct), "pread on open files")
  row(
    "CPU per poll of 3 sysfs files, as libiio", micros(cost.libiio),
    "fopen, fread, fclose: " + fixed(cost.libiio / cost.direct, 1) + "x")
} catch {
  fail("poll cost", error)
}

// Unresolved, the binaries are looked for in the working directory, and missing ones say so.
let binaryDirectory = FileSystem.parent(of: (try? FileSystem.resolvedPath("/proc/self/exe")) ?? "")
let orientd = binaryDirectory + "/orientd"
do {
  for subscribers in [1, 100, 1000] {
    var p50s: [Duration] = []
    var p99s: [Duration] = []
    for _ in 0..<runs {
      let daemon = try DaemonProcess(binary: orientd, extra: ["--max-clients", "1100"])
      defer { daemon.stop() }
      let result = try publishLatency(daemon: daemon, subscribers: subscribers, iterations: quick ? 10 : 40)
      if let p50 = result.p50, let p99 = result.p99 {
        p50s.append(p50)
        p99s.append(p99)
      }
    }
    row("publish latency, \(subscribers) subscriber(s)", "p50 \(millis(median(p50s)))")
    row("", "p99 \(millis(median(p99s)))", subscribers == 100 ? "target p99 <= 1 ms" : "")
  }
  var samples: [(idle: ProcessMemory, few: ProcessMemory, loaded: ProcessMemory)] = []
  for _ in 0..<runs {
    let daemon = try DaemonProcess(binary: orientd, extra: ["--max-clients", "1100"])
    defer { daemon.stop() }
    samples.append(try memoryPerClient(daemon: daemon, count: 1000))
  }
  // The run with the median USS at 1000 clients stands for all.
  let middle = samples.sorted { $0.loaded.unique < $1.loaded.unique }[samples.count / 2]
  row("daemon memory, idle (VmRSS / Pss / USS)", middle.idle.text)
  row("daemon memory, 1000 idle clients", middle.loaded.text)
  let perClient = Double(middle.loaded.unique - middle.few.unique) * 1024 / 990
  row("USS per idle client", "\(Int(perClient.rounded())) bytes", "target <= 4096 bytes")
} catch {
  fail("socket figures", error)
}

// Capture on a fake accelerometer: needs umockdev-run (Debian's umockdev).
if let umockdevRun = Environment.findExecutable("umockdev-run") {
  do {
    let idle = Duration.seconds(quick ? 5 : 60)
    let latency = try bufferLatency(orientd: orientd, umockdev: umockdevRun, changes: quick ? 50 : 200)
    row("buffer mode: scan to subscriber event", "p50 \(millis(latency.p50))")
    row("", "p99 \(millis(latency.p99))", "target p99 <= 5 ms")
    let silent = try wakeUps(
      orientd: orientd, umockdev: umockdevRun, arguments: ["--mode", "buffer"], over: idle,
      settle: "capture mode buffer")
    row(
      "buffer mode, no data: wake-ups over \(idle.wholeSeconds) s", "\(Int(silent * idle.inSeconds))",
      "target 0")
    let polled = try wakeUps(
      orientd: orientd, umockdev: umockdevRun, arguments: ["--mode", "poll", "--interval", "200"],
      over: idle, settle: "capture mode poll")
    row("poll mode, --interval 200: wake-ups per second", fixed(polled, 2), "expected 5.00")
  } catch {
    fail("capture figures", error)
  }
} else {
  StandardStream.error.report("orientd-bench: umockdev-run not found; capture figures skipped\n")
}
