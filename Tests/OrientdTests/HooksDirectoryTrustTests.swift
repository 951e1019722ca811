import Foundation
import Testing

/// `hooks-dir` as a hostile local user (nobody) attacks it: root runs every executable there,
/// so a directory or a hook another user could write runs nothing.
@Suite("hooks-dir runs only what root or orientd's user could have written", .scratch)
struct HooksDirectoryTrustTests {
  /// An executable script at `path` that appends `word` to `log`.
  static func hook(_ path: String, appending word: String, to log: String) throws {
    try "#!/bin/sh\necho \(word) >> \(log)\n".write(toFile: path, atomically: true, encoding: .utf8)
    try #require(chmod(path, 0o755) == 0)
  }

  /// Runs orientd (root) holding left-up with `hooks-dir` and a config hook that logs `ran`;
  /// waits until the config hook ran for the start's change and again for a `rotate cw`, so
  /// that every hook of the first batch has had its turn (the runner runs them one after
  /// another, config hooks first).
  static func runTwice(hooksDirectory: String, log: String) throws -> ServedDaemon {
    let config = try Scratch.current().path("orientd.conf")
    try writeConfigFile("hook = echo ran >> \(log)\n", to: config)
    let daemon = try ServedDaemon(
      holding: (1, 0, 0), extra: ["--config", config, "--hooks-dir", hooksDirectory])
    #expect(waitForFile(log, toContain: "ran"), "\(daemon.process.stderr)")
    #expect(try daemon.orientctl("rotate", "cw").status == 0)
    #expect(
      waitUntil { fileText(log).split(separator: "\n").filter { $0 == "ran" }.count >= 2 },
      "\(daemon.process.stderr)")
    return daemon
  }

  @Test("A hooks directory other users may write (1777) runs nothing, and doctor says why")
  func worldWritableDirectory() throws {
    let scratch = try Scratch.current()
    Unprivileged.openScratch(scratch)
    let directory = try scratch.makeDirectory("hooks")
    try #require(chmod(directory, 0o1777) == 0)
    let planted = scratch.path("planted")
    // The attack: nobody adds a hook.
    let plant = try runToCompletion(
      try Unprivileged.command([
        "/bin/sh", "-c",
        "printf '#!/bin/sh\\necho planted > \(planted)\\n' > \(directory)/evil && chmod 755 \(directory)/evil",
      ]))
    try #require(plant.status == 0, "\(plant.stderr)")
    let log = scratch.path("hooks.log")
    let daemon = try Self.runTwice(hooksDirectory: directory, log: log)
    #expect(!FileManager.default.fileExists(atPath: planted), "root ran nobody's hook")
    let doctor = try daemon.orientctl("doctor")
    #expect(
      doctor.stdout.contains(
        "WARNING: hooks-dir \(directory) is writable by other users (mode 1777): any of them could add a hook;"
          + " no hooks run from it until that is fixed."), "\(doctor.stdout)")
    #expect(daemon.stop() == 0)
  }

  @Test("In a safe directory, a hook another user owns or may write is skipped; root's own runs")
  func untrustedHookFiles() throws {
    let scratch = try Scratch.current()
    let directory = try scratch.makeDirectory("hooks")
    try #require(chmod(directory, 0o755) == 0)
    let log = scratch.path("hooks.log")
    let marker = scratch.path("untrusted")
    try Self.hook(directory + "/a-good", appending: "good", to: log)
    try Self.hook(directory + "/b-nobodys", appending: "nobodys", to: marker)
    try #require(chown(directory + "/b-nobodys", Unprivileged.uid, Unprivileged.gid) == 0)
    try Self.hook(directory + "/c-writable", appending: "writable", to: marker)
    try #require(chmod(directory + "/c-writable", 0o777) == 0)
    let daemon = try Self.runTwice(hooksDirectory: directory, log: log)
    // The premise: the directory's hooks run (root's own did, for both changes).
    #expect(fileText(log).split(separator: "\n").filter { $0 == "good" }.count >= 1, "\(fileText(log))")
    #expect(!FileManager.default.fileExists(atPath: marker), "\(fileText(marker))")
    #expect(daemon.stop() == 0)
  }
}
