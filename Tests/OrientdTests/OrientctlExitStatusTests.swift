import Foundation
import Testing

/// orientctl's exit statuses follow sysexits, so scripts and units can tell failures apart.
@Suite("orientctl's exit statuses", .scratch)
struct OrientctlExitStatusTests {
  @Test("Control refused by orientd exits 77, and the error names the control group to join")
  func controlRefused() throws {
    let group = try SocketRobustnessTests.privateControlGroup()
    let daemon = try servedDaemonOpenToOthers(
      extra: ["--control-group", group.name], launcher: group.launcher)
    let refused = try runToCompletion(
      try Unprivileged.command([TestPaths.orientctl, "--socket", daemon.socket, "lock", "left-up"]))
    #expect(refused.status == 77, "\(refused.stderr)")
    #expect(refused.stderr.contains("permission-denied"), "\(refused.stderr)")
    #expect(refused.stderr.contains("group '\(group.name)'"), "\(refused.stderr)")
    // Reading is not control.
    let read = try runToCompletion(
      try Unprivileged.command([TestPaths.orientctl, "--socket", daemon.socket, "get", "lock"]))
    #expect(read.status == 0)
    #expect(daemon.stop() == 0)
  }

  @Test(
    "A socket this user may not connect to exits 77 naming the socket",
    arguments: [["get"], ["monitor"], ["hook", "/bin/true"]])
  func socketNotConnectable(arguments: [String]) throws {
    let daemon = try servedDaemonOpenToOthers(extra: ["--socket-mode", "0600"])
    let result = try runToCompletion(
      try Unprivileged.command([TestPaths.orientctl, "--socket", daemon.socket] + arguments), timeout: 10)
    #expect(result.status == 77, "\(result.stderr)")
    #expect(result.stderr.contains(daemon.socket), "\(result.stderr)")
    #expect(result.stderr.contains("Permission denied"), "\(result.stderr)")
    #expect(daemon.stop() == 0)
  }

  @Test("calibrate interrupted (stdin closed before a pose) exits 75, not a refusal")
  func calibrateAborted() throws {
    let (run, socket) = try laptopDaemon()
    let result = try runToCompletion([TestPaths.orientctl, "--socket", socket, "calibrate"])
    #expect(result.status == 75, "\(result.stderr)")
    #expect(result.stderr.contains("calibration aborted"), "\(result.stderr)")
    #expect(!result.stderr.contains("refused"), "\(result.stderr)")
    #expect(run.stop() == 0)
  }

  @Test("--help documents every exit status")
  func helpListsExitStatuses() throws {
    let result = try runToCompletion([TestPaths.orientctl, "--help"])
    #expect(result.status == 0)
    for status in ["0", "1", "64", "65", "69", "75", "77", "127"] {
      #expect(result.stdout.contains("  \(status) "), "--help must explain exit status \(status)")
    }
  }
}
