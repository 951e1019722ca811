import Foundation

/// Where the built executables and scratch directories are.
enum TestPaths {
  /// The build directory: the test bundle sits next to the executables.
  static let buildDirectory: URL = {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var directory = executable.deletingLastPathComponent()
    // On Linux the test runner is `<build>/orientdPackageTests.xctest`; step out of bundles just in case.
    while directory.pathExtension == "xctest" || directory.lastPathComponent == "Contents" {
      directory = directory.deletingLastPathComponent()
    }
    return directory
  }()

  /// The built `orientd`.
  static var orientd: String { buildDirectory.appendingPathComponent("orientd").path }

  /// The built `orientctl`.
  static var orientctl: String { buildDirectory.appendingPathComponent("orientctl").path }

  /// A fresh, short scratch directory under /tmp (socket paths must stay short).
  static func scratchDirectory() throws -> String {
    var template = Array("/tmp/ot.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
    return String(cString: made)
  }

  /// Finds a program on PATH, or nil.
  static func which(_ program: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/\(program)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }
}
