import Glibc

/// The process's environment variables.
package enum Environment {
  /// The value of `name`, if set.
  package static func value(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// Every variable as `NAME=value`.
  package static var all: [String] {
    var result: [String] = []
    var entry = environ
    while let pointer = entry.pointee {
      result.append(String(cString: pointer))
      entry += 1
    }
    return result
  }

  /// Removes `name`, so children do not inherit it.
  package static func remove(_ name: String) { unsetenv(name) }

  /// The path of the executable `name` on `$PATH`, if there is one.
  package static func findExecutable(_ name: String) -> String? {
    let path = value("PATH") ?? "/usr/local/bin:/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first(where: FileSystem.isExecutableFile)
  }
}
