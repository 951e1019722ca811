import Glibc
import Testing

@testable import OrientSystem

@Suite("The socket file a listener leaves behind")
struct SocketFileTests {
  /// Whether a file of any kind is at `path`.
  private func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  /// Listens on `path` once the listener closed before is gone. The test process's other
  /// threads spawn children for other tests: one forked just then holds a copy of the closed
  /// listener until it executes its program, and a connect meanwhile finds it listening.
  private func listenOnceClosed(_ path: String) throws -> UnixListener {
    var tries = 0
    while true {
      do {
        return try UnixSocket.listen(path: path, mode: 0o600)
      } catch {
        guard case .inUse = error, tries < 2000 else { throw error }
        tries += 1
        // The polling interval, not a wait for anything in particular.
        usleep(1000)
      }
    }
  }

  @Test(
    "A listener that closed never removes the socket a newer one bound in its place, even where the filesystem reuses inodes at once"
  )
  func replacedSocketStaysTheNewOnes() throws {
    let directory = try FileSystem.makeTemporaryDirectory(prefix: "/tmp/orientd-unit.")
    defer { try? FileSystem.removeTree(directory) }
    let path = directory + "/race.sock"
    // ext4 hands a freed inode to the next file made in the same directory more often than
    // not; twenty rounds make a reuse all but certain where it can happen.
    for round in 0..<20 {
      let leaving = try UnixSocket.listen(path: path, mode: 0o600)
      let leavingFile = leaving.file
      // The leaving orientd's server closes its listener; its file is now stale.
      leaving.takeDescriptor().close()
      // A new orientd starts at once on the same path and replaces the stale file.
      let arriving = try listenOnceClosed(path)
      // Only then does the leaving one get to its clean-up.
      leavingFile.removeIfStillOurs()
      #expect(exists(path), "round \(round): the leaving listener removed the new socket file")
      #expect(arriving.file.isStillOurs, "round \(round)")
      var connected = false
      if let client = try? UnixSocket.connect(path: path) {
        connected = true
        client.close()
      }
      #expect(connected, "round \(round): nobody can connect to the new listener")
      arriving.file.removeIfStillOurs()
      #expect(!exists(path), "round \(round): the new listener's own file stays")
    }
  }

  @Test("A listener removes its own socket file, and only while it is its own")
  func ownFileIsRemoved() throws {
    let directory = try FileSystem.makeTemporaryDirectory(prefix: "/tmp/orientd-unit.")
    defer { try? FileSystem.removeTree(directory) }
    let path = directory + "/own.sock"
    let listener = try UnixSocket.listen(path: path, mode: 0o600)
    #expect(exists(path))
    // Someone else put a regular file at the name: not ours, left alone.
    try #require(unlink(path) == 0)
    let fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
    try #require(fd >= 0)
    close(fd)
    #expect(!listener.file.isStillOurs)
    listener.file.removeIfStillOurs()
    #expect(exists(path), "a file that is not the listener's stays")
    try #require(unlink(path) == 0)
    let again = try UnixSocket.listen(path: path, mode: 0o600)
    again.file.removeIfStillOurs()
    #expect(!exists(path))
  }
}
