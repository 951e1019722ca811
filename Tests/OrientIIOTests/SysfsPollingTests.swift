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

@Suite("Polling attributes on sysfs")
struct SysfsPollingTests {
  /// Real sysfs attributes that change on demand: the loopback interface's counters.
  let directory = "/sys/class/net/lo/statistics"
  let files = ["tx_bytes", "tx_packets", "rx_packets"]

  @Test("Files kept open on sysfs give a fresh value on every read")
  func keptFilesSeeNewValues() throws {
    let reader = try #require(
      SysfsAttributeReader(directory: directory, files: files), "\(directory) is not readable on sysfs here")
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

  @Test("Files that are not on sysfs are refused, so that they are read through libiio")
  func otherFileSystemsAreRefused() throws {
    let scratch = try FileSystem.makeTemporaryDirectory(prefix: "/tmp/orientd-iio-test.")
    defer { try? FileSystem.removeTree(scratch) }
    for name in files {
      try FileDescriptor.open(scratch + "/" + name, .writeOnly, options: [.create]).writeAll("1\n")
    }
    #expect(SysfsAttributeReader(directory: scratch, files: files) == nil)
    // The same names on sysfs are accepted: the refusal is about the file system.
    #expect(SysfsAttributeReader(directory: directory, files: files) != nil)
  }
}
