import CLinux
import Glibc
import OrientSystem

/// An orientd started for measuring, serving a socket in a scratch directory.
final class DaemonProcess {
  let pid: pid_t
  let directory: String
  let socket: String

  /// Starts `binary` holding the normal orientation from a one-sample trace, with `extra` options.
  init(binary: String, extra: [String]) throws {
    var template = Array("/tmp/orientd-bench.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw SystemError("mkdtemp") }
    directory = String(cString: made)
    socket = directory + "/s"
    let trace = directory + "/hold.trace"
    let file = try FileDescriptor.open(trace, O_WRONLY | O_CREAT | O_TRUNC)
    file.writeAll("# orientd-trace 1\n0 0 -1 0\n")
    file.close()
    let arguments =
      [
        binary, "--replay", trace, "--settle", "0", "--socket", socket, "--state", directory + "/state",
      ] + extra
    pid = try spawnProcess(arguments, stdout: directory + "/stdout", stderr: directory + "/stderr")
    for _ in 0..<500 {
      if let probe = try? UnixSocket.connect(path: socket) {
        close(probe)
        usleep(200_000)
        return
      }
      usleep(10_000)
    }
    throw SystemError("orientd did not open \(socket)", code: ETIMEDOUT)
  }

  /// Resident memory in KiB.
  var residentKilobytes: Int { statusField("VmRSS:") }

  private func statusField(_ name: String) -> Int {
    guard let text = try? readTextFile("/proc/\(pid)/status") else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix(name) {
      return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
    }
    return 0
  }

  /// Stops the daemon and removes its directory.
  func stop() {
    kill(pid, SIGTERM)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    for name in ["s", "state", "hold.trace", "stdout", "stderr"] { unlink(directory + "/" + name) }
    rmdir(directory)
  }
}

/// A non-blocking socket client with its own line buffer.
final class BenchClient {
  let descriptor: Int32
  private var buffer: [UInt8] = []

  init(path: String) throws {
    descriptor = try UnixSocket.connect(path: path)
  }

  deinit { close(descriptor) }

  func send(_ text: String) {
    _ = text.utf8CString.withUnsafeBytes {
      Glibc.send(descriptor, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL))
    }
  }

  /// Reads what is available (blocking for the first bytes) and returns the complete lines.
  func readAvailable() -> [String] {
    var chunk = [UInt8](repeating: 0, count: 8192)
    let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return [] }
    buffer += chunk[0..<count]
    var lines: [String] = []
    while let newline = buffer.firstIndex(of: 0x0A) {
      lines.append(String(decoding: buffer[..<newline], as: UTF8.self))
      buffer.removeFirst(newline + 1)
    }
    return lines
  }

  /// Reads until `count` lines have arrived.
  func readLines(_ count: Int) -> [String] {
    var lines: [String] = []
    while lines.count < count {
      let more = readAvailable()
      if more.isEmpty { break }
      lines += more
    }
    return lines
  }
}
