import Glibc
import OrientSystem

// orientd-bench: prints throughput, publish latency and memory figures for orientd.
// Run it as `swift run -c release orientd-bench`; every figure is a median after a warm-up.

#if DEBUG
  FileDescriptor.standardError.writeAll(
    "orientd-bench: warning: this is a debug build; run `swift run -c release orientd-bench` for real figures\n"
  )
#endif

let quick = CommandLine.arguments.contains("--quick")
let runs = quick ? 1 : 5
raiseOpenFileLimit(to: 4096)

func row(_ name: String, _ value: String, _ target: String = "") {
  let padded = name + String(repeating: " ", count: max(1, 46 - name.count))
  let shown = value + String(repeating: " ", count: max(1, 22 - value.count))
  FileDescriptor.standardOutput.writeAll(padded + shown + target + "\n")
}

func millis(_ seconds: Double) -> String { DecimalFormattingBench.fixed(seconds * 1000, 3) + " ms" }

row("figure", "value", "target")
row(
  "classifier throughput", DecimalFormattingBench.millions(classifierThroughput(runs: runs)) + " samples/s",
  ">= 50M samples/s")
row(
  "replay pipeline throughput", DecimalFormattingBench.millions(replayThroughput(runs: runs)) + " samples/s")

let binary = String(cString: realpath("/proc/self/exe", nil)).split(separator: "/").dropLast().joined(
  separator: "/")
let orientd = "/" + binary + "/orientd"
do {
  for subscribers in [1, 100, 1000] {
    var p50s: [Double] = []
    var p99s: [Double] = []
    for _ in 0..<runs {
      let daemon = try DaemonProcess(binary: orientd, extra: ["--max-clients", "1100"])
      defer { daemon.stop() }
      let result = try publishLatency(daemon: daemon, subscribers: subscribers, iterations: quick ? 10 : 40)
      p50s.append(result.p50)
      p99s.append(result.p99)
    }
    let target = subscribers == 100 ? "p99 <= 1 ms" : ""
    row("publish latency, \(subscribers) subscriber(s)", "p50 \(millis(median(p50s)))", "")
    row("", "p99 \(millis(median(p99s)))", target)
  }
  var idles: [Double] = []
  var fews: [Double] = []
  var loadeds: [Double] = []
  for _ in 0..<runs {
    let daemon = try DaemonProcess(binary: orientd, extra: ["--max-clients", "1100"])
    defer { daemon.stop() }
    let (idle, few, loaded) = try memoryPerClient(daemon: daemon, count: 1000)
    idles.append(Double(idle))
    fews.append(Double(few))
    loadeds.append(Double(loaded))
  }
  row("daemon resident memory, idle", "\(Int(median(idles))) KiB")
  row("daemon resident memory, 1000 idle clients", "\(Int(median(loadeds))) KiB")
  let perClient = (median(loadeds) - median(fews)) * 1024 / 990
  row("resident memory per idle client", "\(Int(perClient.rounded())) bytes", "<= 4096 bytes")
} catch {
  FileDescriptor.standardError.writeAll("orientd-bench: \(error)\n")
  exit(1)
}

// Capture on a fake accelerometer: needs umockdev-run (Debian's umockdev).
let umockdevRun = ["/usr/bin/umockdev-run", "/usr/local/bin/umockdev-run"].first { (path: String) in
  access(path, X_OK) == 0
}
if let umockdevRun {
  do {
    let idleSeconds: UInt32 = quick ? 5 : 60
    let latency = try bufferLatency(orientd: orientd, umockdev: umockdevRun, changes: quick ? 50 : 200)
    row("buffer mode: scan to subscriber event", "p50 \(millis(latency.p50))", "")
    row("", "p99 \(millis(latency.p99))", "p99 <= 5 ms")
    let silent = try wakeUps(
      orientd: orientd, umockdev: umockdevRun, arguments: ["--mode", "buffer"], seconds: idleSeconds,
      settle: "capture mode buffer")
    row("buffer mode, no data: wake-ups over \(idleSeconds) s", "\(Int(silent * Double(idleSeconds)))", "0")
    let polled = try wakeUps(
      orientd: orientd, umockdev: umockdevRun, arguments: ["--mode", "poll", "--interval", "200"],
      seconds: idleSeconds, settle: "capture mode poll")
    row("poll mode, --interval 200: wake-ups per second", DecimalFormattingBench.fixed(polled, 2), "5.00")
  } catch {
    FileDescriptor.standardError.writeAll("orientd-bench: capture figures: \(error)\n")
    exit(1)
  }
} else {
  FileDescriptor.standardError.writeAll("orientd-bench: umockdev-run not found; capture figures skipped\n")
}
