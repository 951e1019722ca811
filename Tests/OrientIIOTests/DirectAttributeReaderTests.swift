import Glibc
import OrientIIO
import OrientSystem
import Testing

/// Sends one UDP datagram to a closed port on the loopback interface, which counts it.
private func sendOverLoopback() throws {
  let socket = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
  try #require(socket >= 0)
  defer { close(socket) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = UInt16(9).bigEndian
  address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
  let payload: [UInt8] = Array(repeating: 0x61, count: 100)
  let sent = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      sendto(socket, payload, payload.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  try #require(sent == payload.count)
}

/// Writes `value` to a new file renamed over `path`, as umockdev's set_attribute does.
private func replace(_ path: String, with value: String) throws {
  try FileDescriptor.open(path + ".new", .writeOnly, options: [.create, .truncate]).writeAll(value + "\n")
  try FileSystem.rename(path + ".new", to: path)
}

@Suite("Polling attributes from open files")
struct DirectAttributeReaderTests {
  /// Real sysfs attributes that change on demand: the loopback interface's counters.
  let sysfs = "/sys/class/net/lo/statistics"
  let files = ["tx_bytes", "tx_packets", "rx_packets"]

  @Test("Files kept open on sysfs give a fresh value on every read, with no check for replacement")
  func keptFilesSeeNewValues() throws {
    let reader = try #require(
      DirectAttributeReader(directory: sysfs, files: files), "\(sysfs) is not readable here")
    #expect(!reader.checksForReplacement)
    var before = [0.0, 0.0, 0.0]
    try #require(reader.read(into: &before) == nil)
    try sendOverLoopback()
    var after = [0.0, 0.0, 0.0]
    try #require(reader.read(into: &after) == nil)
    // The datagram left and came back through lo: all three counters moved.
    #expect(after[0] >= before[0] + 100, "tx_bytes \(before[0]) -> \(after[0])")
    #expect(after[1] > before[1], "tx_packets \(before[1]) -> \(after[1])")
    #expect(after[2] > before[2], "rx_packets \(before[2]) -> \(after[2])")
  }

  @Test("Off sysfs, a file replaced by a new one is read at once, and a removed one is missing")
  func replacedFilesOffSysfs() throws {
    let scratch = try FileSystem.makeTemporaryDirectory(prefix: "/tmp/orientd-iio-test.")
    defer { try? FileSystem.removeTree(scratch) }
    for name in files { try replace(scratch + "/" + name, with: "1") }
    let reader = try #require(DirectAttributeReader(directory: scratch, files: files))
    #expect(reader.checksForReplacement)
    var values = [0.0, 0.0, 0.0]
    try #require(reader.read(into: &values) == nil)
    #expect(values == [1, 1, 1])
    // Each file alone, the last one too: every file is checked, not only the first.
    try replace(scratch + "/" + files[2], with: "-256")
    try #require(reader.read(into: &values) == nil)
    #expect(values == [1, 1, -256])
    try replace(scratch + "/" + files[1], with: "7")
    try #require(reader.read(into: &values) == nil)
    #expect(values == [1, 7, -256])
    try FileSystem.remove(scratch + "/" + files[0])
    #expect(reader.read(into: &values) == .missing(file: files[0]))
  }
}

@Suite("Which failed reads mean the device is gone")
struct DeviceGoneTests {
  @Test("A removed device or a lost connection is gone; a busy driver or a read to try again is not")
  func goneOrNot() {
    for code in [
      Errno.noDevice, .noSuchFile, .noSuchDeviceOrAddress, .ioError, .brokenPipe, .connectionReset,
    ] {
      #expect(code.meansDeviceGone, "\(code)")
    }
    for code in [Errno(rawValue: EBUSY), .wouldBlock, .interrupted, .timedOut, .invalidArgument] {
      #expect(!code.meansDeviceGone, "\(code)")
    }
  }
}
