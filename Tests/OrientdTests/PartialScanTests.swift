import Foundation
import Testing

@Suite("Buffer reads that end inside a scan", .scratch)
struct PartialScanTests {
  @Test("Scans written in pieces of 5 and 7 bytes are read whole, none shifted")
  func oddPieces() throws {
    let run = try FakeSensorRun(
      devices: [.bufferedAccelerometer()], arguments: bufferArguments, bufferFIFO: true)
    #expect(run.process.waitFor("capture mode buffer", inStderr: true))
    let node = open(run.testbed + "/dev/" + run.devices[0].id, O_RDWR | O_CLOEXEC)
    try #require(node >= 0)
    defer { close(node) }
    // Left-up, x = 256 (1 g), as little-endian s16 x, y and z: 6 bytes a scan. In pieces of 5
    // and 7 bytes, each written once orientd has read the one before, every read but the
    // first ends inside a scan. Read apart, each piece decodes shifted, as nearly 0 g.
    let scan: [UInt8] = [0x00, 0x01, 0x00, 0x00, 0x00, 0x00]
    let stream = Array(Array(repeating: scan, count: 8).joined())
    var offset = 0
    for (turn, size) in Array(repeating: [5, 7], count: 4).joined().enumerated() {
      let piece = Array(stream[offset..<(offset + size)])
      offset += size
      #expect(piece.withUnsafeBytes { write(node, $0.baseAddress, $0.count) } == size)
      #expect(waitUntil { unreadBytes(node) == 0 }, "orientd did not read piece \(turn)")
    }
    #expect(run.process.waitForLines(2).map(dropTime) == ["device left-up", "orientation left-up"])
    #expect(run.stop() == 0)
  }
}

/// Bytes written to a FIFO that nobody has read yet.
private func unreadBytes(_ descriptor: Int32) -> Int32 {
  var count: Int32 = 0
  return ioctl(descriptor, UInt(FIONREAD), &count) == 0 ? count : -1
}
