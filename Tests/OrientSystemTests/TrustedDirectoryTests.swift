import Glibc
import Testing

@testable import OrientSystem

/// A private directory under /tmp for one test, removed with everything in it at the end.
private final class TemporaryTree {
  let path: String

  init() throws {
    path = try FileSystem.makeTemporaryDirectory(prefix: "/tmp/orientd-unit.")
  }

  deinit { try? FileSystem.removeTree(path) }

  /// Makes the directory `name` with `mode` (exactly: the umask is undone with chmod, in
  /// this test's own tree) and `owner`.
  @discardableResult
  func directory(_ name: String, mode: mode_t = 0o755, owner: uid_t = 0) throws -> String {
    let made = path + "/" + name
    try #require(mkdir(made, 0o700) == 0 && chmod(made, mode) == 0 && chown(made, owner, owner) == 0)
    return made
  }

  func link(_ name: String, to target: String) throws {
    try #require(symlink(target, path + "/" + name) == 0)
  }
}

/// The refusal `openTrusted` throws for `path`, or nil if it opened it.
private func refusal(_ path: String, creating: Bool = false) -> DirectoryRefusal? {
  do {
    _ = try DirectoryDescriptor.openTrusted(path, creating: creating)
    return nil
  } catch {
    return error
  }
}

private func permissions(_ path: String) -> UInt32 {
  var info = stat()
  guard lstat(path, &info) == 0 else { return 0 }
  return UInt32(info.st_mode & 0o7777)
}

@Suite("Directories for orientd's own files")
struct TrustedDirectoryTests {
  static let nobody: uid_t = 65534

  @Test("A directory that only root can write, reached from /, is opened")
  func privateDirectoryIsOpened() throws {
    let tree = try TemporaryTree()
    let directory = try tree.directory("own")
    let opened = try DirectoryDescriptor.openTrusted(directory, creating: false)
    #expect(opened.path == directory)
    #expect(try opened.status().kind == .directory)
  }

  @Test("A sticky directory that everyone can write is allowed, as /tmp is")
  func stickySharedDirectoryIsAllowed() throws {
    let tree = try TemporaryTree()
    let shared = try tree.directory("shared", mode: 0o1777)
    #expect(refusal(shared) == nil)
    #expect(refusal(shared + "/orientd/run", creating: true) == nil)
    #expect(permissions(shared + "/orientd") == 0o755)
  }

  @Test("A directory that group or others can write without the sticky bit is refused, and all below it")
  func writableDirectoryIsRefused() throws {
    let tree = try TemporaryTree()
    for mode: mode_t in [0o777, 0o775, 0o757] {
      let shared = try tree.directory("shared-\(String(mode, radix: 8))", mode: mode)
      let refused = try #require(refusal(shared))
      guard case .writableByOthers(let reported) = refused.reason else {
        Issue.record("\(refused)")
        continue
      }
      #expect(reported == UInt32(mode) && refused.isUnsafe && refused.offending == shared)
      let below = try #require(refusal(shared + "/sub", creating: true))
      #expect(below.offending == shared && below.directory == shared + "/sub", "\(below)")
      #expect(permissions(shared + "/sub") == 0, "nothing is made below it")
    }
  }

  @Test("A directory another user owns is refused, even one only they can write, and all below it")
  func otherUsersDirectoryIsRefused() throws {
    try #require(getuid() == 0, "chown needs root")
    let tree = try TemporaryTree()
    let theirs = try tree.directory("theirs", mode: 0o755, owner: Self.nobody)
    let refused = try #require(refusal(theirs))
    guard case .ownedByAnotherUser(uid: Self.nobody) = refused.reason else {
      Issue.record("\(refused)")
      return
    }
    #expect(refused.description.contains("\(theirs) is owned by uid 65534"), "\(refused)")
    try tree.directory("theirs/mine")
    #expect(refusal(theirs + "/mine")?.offending == theirs)
  }

  @Test("A symbolic link in a directory others can write is refused, even in a sticky one")
  func linkInSharedDirectoryIsRefused() throws {
    let tree = try TemporaryTree()
    let target = try tree.directory("target")
    try tree.directory("shared", mode: 0o1777)
    try tree.link("shared/link", to: target)
    let refused = try #require(refusal(tree.path + "/shared/link/state-dir", creating: true))
    guard case .linkInSharedDirectory = refused.reason else {
      Issue.record("\(refused)")
      return
    }
    #expect(refused.offending == tree.path + "/shared/link")
    #expect(permissions(target + "/state-dir") == 0, "nothing is made through the link")
  }

  @Test("A symbolic link in a directory only root can write is followed, as /var/run -> /run is")
  func linkInPrivateDirectoryIsFollowed() throws {
    let tree = try TemporaryTree()
    let target = try tree.directory("run")
    try tree.directory("var")
    try tree.link("var/run", to: "../run")
    let opened = try DirectoryDescriptor.openTrusted(tree.path + "/var/run/orientd", creating: true)
    #expect(opened.path == tree.path + "/var/run/orientd")
    #expect(permissions(target + "/orientd") == 0o755)
    // An absolute target, and `..` after a link, resolve as the kernel would.
    try tree.link("var/absolute", to: target)
    #expect(refusal(tree.path + "/var/absolute/../var/run/orientd") == nil)
  }

  @Test("A file where a directory should be, and a loop of links, are refused")
  func notDirectoriesAreRefused() throws {
    let tree = try TemporaryTree()
    let file = FileDescriptor(adopting: open(tree.path + "/file", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644))
    file.close()
    guard case .notADirectory = try #require(refusal(tree.path + "/file/sub", creating: true)).reason else {
      Issue.record("a file was taken for a directory")
      return
    }
    try tree.link("a", to: "b")
    try tree.link("b", to: "a")
    guard case .tooManyLinks = try #require(refusal(tree.path + "/a")).reason else {
      Issue.record("a loop of links was not caught")
      return
    }
  }

  @Test("A missing directory that cannot be made is exit 73, not a configuration error")
  func missingAndNotCreating() throws {
    let tree = try TemporaryTree()
    let refused = try #require(refusal(tree.path + "/absent"))
    guard case .cannotOpen(let code) = refused.reason else {
      Issue.record("\(refused)")
      return
    }
    #expect(code == .noSuchFile && !refused.isUnsafe)
  }

  @Test("A state or config file that is a FIFO, a device or too large is refused without waiting")
  func regularFilesOnly() throws {
    let tree = try TemporaryTree()
    let directory = try DirectoryDescriptor.openTrusted(tree.path, creating: false)
    try #require(mkfifo(tree.path + "/fifo", 0o644) == 0)
    func expectRefusal(_ error: () throws(RegularFileError) -> [UInt8], _ check: (RegularFileError) -> Bool) {
      do {
        let bytes = try error()
        Issue.record("read \(bytes.count) bytes")
      } catch {
        #expect(check(error), "\(error)")
      }
    }
    expectRefusal({ () throws(RegularFileError) in try directory.readRegularFile("fifo", limit: 64) }) {
      if case .notRegular(_, .fifo) = $0 { return true } else { return false }
    }
    expectRefusal({ () throws(RegularFileError) in
      try FileSystem.readRegularFile(tree.path + "/fifo", limit: 64)
    }) {
      if case .notRegular(_, .fifo) = $0 { return true } else { return false }
    }
    expectRefusal({ () throws(RegularFileError) in try FileSystem.readRegularFile("/dev/zero", limit: 64) }) {
      if case .notRegular(_, .characterDevice) = $0 { return true } else { return false }
    }
    #expect(
      try FileSystem.readRegularFile("/dev/null", limit: 64).isEmpty, "/dev/null is the usual empty file")

    let big = try directory.open("big", .writeOnly, options: [.create, .exclusive])
    try big.writeAll(String(repeating: "x", count: 100))
    big.close()
    expectRefusal({ () throws(RegularFileError) in try directory.readRegularFile("big", limit: 64) }) {
      if case .tooLarge(_, 64) = $0 { return true } else { return false }
    }
    #expect(try directory.readRegularFile("big", limit: 100).count == 100)
    try tree.link("link", to: tree.path + "/big")
    expectRefusal({ () throws(RegularFileError) in try directory.readRegularFile("link", limit: 100) }) {
      if case .symbolicLink = $0 { return true } else { return false }
    }
  }
}
