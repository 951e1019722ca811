import Glibc
import Testing

@testable import OrientSystem

@Suite("Watching descriptors on the event loop")
struct EventLoopWatchTests {
  /// A pipe's read and write ends, closed by the test.
  private func pipeEnds() throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    try #require(pipe(&ends) == 0)
    return (ends[0], ends[1])
  }

  @Test("Changing a watch's events takes effect: a writable pipe end is then reported writable")
  func changeTakesEffect() throws {
    let loop = try EventLoop()
    let ends = try pipeEnds()
    defer {
      close(ends.read)
      close(ends.write)
    }
    var reported: IOEvents = []
    let watch = try loop.watch(ends.write, for: []) { events in
      reported = events
      loop.stop()
    }
    let end = LoopTimer(loop: loop) { _ in loop.stop() }
    end.schedule(after: .seconds(5))
    try loop.change(watch, to: .writable)
    try loop.run()
    #expect(reported.contains(.writable))
    loop.unwatch(watch)
  }

  @Test("Changing the events of a descriptor closed while watched fails, not silently")
  func changeOfClosedDescriptorThrows() throws {
    let loop = try EventLoop()
    let ends = try pipeEnds()
    let watch = try loop.watch(ends.read, for: .readable) { _ in }
    close(ends.read)
    close(ends.write)
    #expect(throws: SystemError.self) { try loop.change(watch, to: [.readable, .writable]) }
    // EBADF while the number stays free; ENOENT once another test's thread has opened a file
    // that took it (the tests run in parallel, and the new file is not in this epoll set).
    do {
      try loop.change(watch, to: .readable)
      Issue.record("changing a closed descriptor's events did not fail")
    } catch {
      #expect(error.code == .badDescriptor || error.code == .noSuchFile, "\(error)")
    }
    // Nothing is left to undo: unwatching it still works and does not trap.
    loop.unwatch(watch)
  }
}
