import Foundation
import Glibc
import OrientSystem

/// A directory of one test's own under /tmp (mkdtemp), removed with all it holds when the
/// test lets go of it.
final class ScratchDirectory {
  let path: String

  init() throws {
    var template = Array("/tmp/orientd-inprocess-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw SystemError("mkdtemp", code: .current) }
    path = String(cString: made)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// The time a test's event loop reads (`EventLoop(clock:)`): it moves only when the test moves
/// it, so a test crosses a timeout on purpose and never because the machine was slow.
final class ScriptedClock {
  private(set) var now = MonotonicInstant(nanoseconds: 1_000 * 1_000_000_000)

  func advance(by duration: Duration) { now = now + duration }
}
