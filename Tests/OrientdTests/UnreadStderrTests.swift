import Foundation
import Testing

@Suite("A stderr nobody reads", .scratch)
struct UnreadStderrTests {
  @Test(
    "With stderr on a full pipe, orientd answers ping and control; read again, it says how many lines it dropped"
  )
  func fullStderrPipe() throws {
    let socat = try #require(TestPaths.which("socat"), "socat is missing: apt-get install socat")
    let scratch = try Scratch.current()
    let directory = try scratch.makeDirectory()
    // nobody must reach the socket, and logind puts nobody at the seat so that nobody may control.
    let logind = try FakeLogind(activeUID: Unprivileged.uid)
    Unprivileged.openScratch(scratch)
    chmod(directory, 0o755)
    // orientd's stderr: a FIFO whose reading end the test holds without reading.
    let fifo = directory + "/stderr"
    try #require(mkfifo(fifo, 0o600) == 0)
    let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    try #require(reader >= 0)
    defer { close(reader) }
    // A writing end of the test's own, to see whether a writer would have to wait.
    let probe = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
    try #require(probe >= 0)
    defer { close(probe) }

    // A minute of samples at 1 kHz, each logged (--verbose): the pipe fills within seconds
    // and stays full.
    var trace = TraceBuilder(stepMilliseconds: 1)
    trace.hold(0, -1, 0, count: 60_000)
    let socket = directory + "/s"
    let arguments = try TestPaths.isolated(
      orientdArguments: [
        "--replay", try trace.write(), "--settle", "0", "--verbose", "--socket", socket, "--state",
        directory + "/state",
      ], in: scratch)
    let daemon = try TestProcess(
      try logind.launcher + ["/bin/sh", "-c", "exec \"$@\" 2>\"$0\"", fifo, TestPaths.orientd] + arguments)

    // The premise: the pipe is full, so any write to it would wait. orientd fills it up to
    // the last line that fits; the test fills the few bytes left with newlines.
    func pipeIsFull() -> Bool {
      var newline = UInt8(ascii: "\n")
      while write(probe, &newline, 1) == 1 {}
      return errno == EAGAIN
    }
    try #require(
      waitUntil {
        var entry = pollfd(fd: probe, events: Int16(POLLOUT), revents: 0)
        return poll(&entry, 1, 0) == 0 && pipeIsFull()
      }, "orientd's stderr never filled up")
    try #require(waitUntil { (try? TestClient(path: socket)) != nil }, "orientd does not serve")

    // A control command makes the main loop log the change; the reply still comes.
    let rotate = try runToCompletion(
      try Unprivileged.command([TestPaths.orientctl, "--socket", socket, "rotate", "cw"]))
    #expect(rotate.status == 0, "rotate failed: \(rotate.stderr)")
    // And ping is answered, to nobody.
    let commands = directory + "/ping"
    try "ping\n".write(toFile: commands, atomically: true, encoding: .utf8)
    let pinger = try TestProcess(
      try Unprivileged.command([socat, "-t", "\(Int(patience))", "STDIO", "UNIX-CONNECT:\(socket)"]),
      stdinPath: commands)
    #expect(pinger.waitFor("pong"), "no pong: \(pinger.stdout)")
    pinger.kill()
    // The pipe was full all along: nothing of the above was logged.
    #expect(pipeIsFull(), "the pipe had room again: the test proved nothing")

    // Read again, the log says how many lines it could not write.
    var text = ""
    var chunk = [UInt8](repeating: 0, count: 65536)
    #expect(
      waitUntil {
        let count = read(reader, &chunk, chunk.count)
        if count > 0 { text += String(decoding: chunk[0..<count], as: UTF8.self) }
        return text.contains("log lines were dropped: stderr was not being read")
      }, "no count of dropped lines in \(text.utf8.count) bytes: \(text.suffix(300))")
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}
