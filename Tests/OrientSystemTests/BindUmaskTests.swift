import Glibc
import Synchronization
import Testing

@testable import OrientSystem

@Suite("Binding a socket leaves the process's umask alone")
struct BindUmaskTests {
  /// The process's umask, as the kernel reports it (reading it with umask(2) would change it).
  private func processUmask() throws -> mode_t {
    let status = try FileSystem.readText("/proc/self/status")
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
    return try #require(mode_t(line.dropFirst("Umask:".count).filter { $0 != " " && $0 != "\t" }, radix: 8))
  }

  @Test("Files another thread creates while sockets are bound keep the umask's narrowing")
  func otherThreadsKeepTheUmask() throws {
    let directory = try FileSystem.makeTemporaryDirectory(prefix: "/tmp/orientd-unit.")
    defer { try? FileSystem.removeTree(directory) }
    let before = try processUmask()
    let expected = 0o666 & ~before
    // The premise: a umask that narrows 0666 at all, so that a cleared one would show.
    try #require(expected != 0o666, "the test process's umask is 0")
    let stop = Atomic(false)
    let wrongModes = Mutex<[mode_t]>([])
    let created = Atomic(0)
    let creator = try WorkerThread(name: "umask-probe") {
      let path = directory + "/probe"
      while !stop.load(ordering: .relaxed) {
        let fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o666)
        guard fd >= 0 else { continue }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & 0o777 != expected {
          wrongModes.withLock { $0.append(info.st_mode & 0o777) }
        }
        close(fd)
        unlink(path)
        created.add(1, ordering: .relaxed)
      }
    }
    // Creation is under way before the binds start, so the two overlap.
    while created.load(ordering: .relaxed) == 0 { sched_yield() }
    for round in 0..<300 {
      let listener = try UnixSocket.listen(path: directory + "/s\(round).sock", mode: 0o666)
      var info = stat()
      #expect(lstat(directory + "/s\(round).sock", &info) == 0 && info.st_mode & 0o777 == 0o666)
      _ = listener
    }
    stop.store(true, ordering: .relaxed)
    #expect(creator.join(within: .seconds(30)))
    #expect(try processUmask() == before)
    #expect(wrongModes.withLock { $0 }.isEmpty, "files made while a bind ran: \(wrongModes.withLock { $0 })")
  }
}
