import Foundation
import Testing

@Suite("What libiio and libxml2 print", .scratch)
struct LibraryMessagesTests {
  /// A fake iiod on 127.0.0.1:`port`: it answers VERSION, and PRINT with an XML description
  /// that carries escape sequences and is broken, so libxml2 prints the offending line, escape
  /// sequences and all, on every connection attempt. Each PRINT adds a line to `requests`.
  func startHostileServer(port: UInt16, requests: String) throws -> TestProcess {
    let socat = try #require(TestPaths.which("socat"), "socat is missing: apt-get install socat")
    let directory = try Scratch.current().makeDirectory("iiod")
    let script = directory + "/iiod.sh"
    try """
    #!/bin/sh
    esc=$(printf '\\033')
    xml="<?xml version=\\"1.0\\"?><context name=\\"${esc}[31mred${esc}]0;title\\" version-major=\\"0\\"><oops></context>"
    while IFS= read -r line; do
      case "$line" in
        VERSION*) printf '0.24 0000000 \\n' ;;
        PRINT*) echo print >> "\(requests)"; printf '%d\\n%s\\n' "$(printf '%s' "$xml" | wc -c)" "$xml" ;;
        *) printf -- '-22\\n' ;;
      esac
    done
    """.write(toFile: script, atomically: true, encoding: .utf8)
    chmod(script, 0o755)
    let server = try TestProcess([
      socat, "TCP-LISTEN:\(port),bind=127.0.0.1,reuseaddr,fork", "EXEC:\(script)",
    ])
    try #require(waitUntil { isListening(port: port) }, "the fake iiod did not start: \(server.stderr)")
    return server
  }

  @Test("A server's escape sequences reach the log escaped, and at most 20 such lines a minute")
  func escapedAndLimited() throws {
    let port = try freeLocalPort()
    let directory = try Scratch.current().makeDirectory()
    let requests = directory + "/requests"
    let server = try startHostileServer(port: port, requests: requests)
    let daemon = try TestProcess([
      TestPaths.orientd, "--uri", "ip:127.0.0.1:\(port)", "--socket", directory + "/s", "--state",
      directory + "/st",
    ])
    // orientd tries again every second; each attempt asks twice (orientd's size check, then
    // libiio), and libxml2 prints 13 lines each time. After the seventh request the third
    // attempt's lines are all out.
    try #require(
      waitUntil { completeLines(fileText(requests)).count >= 7 }, "orientd did not retry: \(daemon.stderr)")
    let stderr = daemon.stderr
    #expect(!stderr.utf8.contains(0x1B), "a raw escape character reached the log")
    #expect(
      stderr.contains(#"library message: <?xml version="1.0"?><context name="\x1b[31mred\x1b]0;title""#))
    let libraryLines = stderr.split(separator: "\n").filter { $0.contains("library message:") }
    #expect(libraryLines.count == 20, "\(libraryLines.count) lines from the libraries in \(stderr)")
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
    server.kill()
  }

  @Test("libiio's note that a buffer cannot be mapped is a debug message")
  func highSpeedModeIsDebug() throws {
    for verbose in [false, true] {
      let run = try FakeSensorRun(
        devices: [.bufferedAccelerometer()], arguments: bufferArguments + (verbose ? ["--verbose"] : []),
        bufferFIFO: true)
      #expect(run.process.waitFor("capture mode buffer", inStderr: true))
      run.writeScans([(256, 0, 0)])
      #expect(run.process.waitForLines(2).map(dropTime) == ["device left-up", "orientation left-up"])
      #expect(run.stop() == 0)
      let stderr = run.process.stderr
      if verbose {
        #expect(stderr.contains("debug: library message: WARNING: High-speed mode not enabled"), "\(stderr)")
      } else {
        #expect(!stderr.contains("High-speed"), "\(stderr)")
      }
    }
  }
}
