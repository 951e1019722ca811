import Glibc
import OrientCore
import OrientIIO
import OrientSystem

/// CPU time per poll of three sysfs attributes, with orientd's direct path (files opened
/// once, pread at offset 0) and without it (what libiio 0.24's local backend does for every
/// attribute read: fopen, fread, fclose; checked with strace: openat, fstat, read, read,
/// close).
///
/// No IIO device exists on the machines this runs on, so both read the same three real
/// sysfs attributes of the loopback interface. On a real accelerometer each read also pays
/// the driver's own work (a bus transfer), the same on both paths.
struct PollCost {
  /// CPU time per poll on orientd's direct path.
  var direct: Duration
  /// CPU time per poll as libiio's local backend reads.
  var libiio: Duration

  static let directory = "/sys/class/net/lo/statistics"
  static let files = ["rx_bytes", "tx_bytes", "rx_packets"]

  /// Measures `polls` polls each way, `runs` times, and keeps the medians.
  static func measure(polls: Int, runs: Int) throws -> PollCost {
    guard let reader = DirectAttributeReader(directory: directory, files: files) else {
      throw SystemError("cannot open \(directory) on sysfs", code: .noSuchFile)
    }
    var values = [0.0, 0.0, 0.0]
    var direct: [Duration] = []
    var libiio: [Duration] = []
    for _ in 0...runs {
      direct.append(
        perPoll(polls) {
          if let error = reader.read(into: &values) { fatalError("\(error)") }
        })
      libiio.append(perPoll(polls) { readLikeLibiio(into: &values) })
    }
    // The first run of each warms the caches (runs is at least 1, so a median remains).
    return PollCost(
      direct: median(Array(direct.dropFirst())) ?? .zero, libiio: median(Array(libiio.dropFirst())) ?? .zero)
  }

  /// This thread's CPU time per call of `body`.
  private static func perPoll(_ polls: Int, _ body: () -> Void) -> Duration {
    let start = threadCPUTime()
    for _ in 0..<polls { body() }
    return (threadCPUTime() - start) / polls
  }

  /// The CPU time this thread has used so far.
  private static func threadCPUTime() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
  }

  /// The caller's buffer libiio reads into; allocated once, as orientd's readers do.
  nonisolated(unsafe) private static var buffer = [UInt8](repeating: 0, count: 512)

  /// One poll as libiio's local backend reads attributes, parsed as orientd parses them.
  private static func readLikeLibiio(into values: inout [Double]) {
    for (index, file) in files.enumerated() {
      guard let stream = fopen(directory + "/" + file, "re") else { fatalError("fopen \(file)") }
      let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, stream) }
      fclose(stream)
      let value = buffer.withUnsafeBufferPointer {
        NumberParsing.finiteDouble(bytes: UnsafeBufferPointer(rebasing: $0[..<count]))
      }
      values[index] = value ?? .nan
    }
  }
}
