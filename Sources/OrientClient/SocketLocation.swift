import OrientCore
import OrientSystem

/// Where orientctl looks for orientd's socket: the one named with `--socket` or
/// `$ORIENTD_SOCKET`, else an orientd this user runs (in `$XDG_RUNTIME_DIR/orientd/`) and then
/// the system service's.
///
/// Both places are tried at every connection, not chosen once: `orientctl monitor` started
/// before a user's `orientd --demo` finds it when it comes, and one started before the
/// service finds the service.
struct SocketLocation: Equatable, Sendable {
  /// The system service's socket.
  static let system = "/run/orientd/orientd.sock"

  /// The sockets to try, in this order.
  let paths: [String]

  /// Only `path`.
  static func named(_ path: String) -> SocketLocation { SocketLocation(paths: [path]) }

  /// `$ORIENTD_SOCKET`; else, for a user other than root (whose orientd puts its socket in
  /// `$XDG_RUNTIME_DIR/orientd/`), that socket and then the system's; else the system's.
  static func `default`(
    socket: String? = Environment.value("ORIENTD_SOCKET"),
    runtimeDirectory: String? = Environment.value("XDG_RUNTIME_DIR"),
    isRoot: Bool = ProcessCredentials.effectiveUserID == 0
  ) -> SocketLocation {
    if let socket, !socket.isEmpty { return .named(socket) }
    guard !isRoot, let runtimeDirectory, runtimeDirectory.hasPrefix("/") else { return .named(system) }
    let directory = runtimeDirectory.hasSuffix("/") ? runtimeDirectory : runtimeDirectory + "/"
    return SocketLocation(paths: [directory + "orientd/orientd.sock", system])
  }

  /// The paths as a message names them.
  var description: String { paths.joined(separator: " or ") }

  /// Runs `attempt` on each path in turn until one succeeds, and returns that path; every
  /// failure when none does. `attempt` keeps what it connected.
  func firstReached(_ attempt: (String) throws(SystemError) -> Void) throws(Unreachable) -> String {
    var failures: [Unreachable.Attempt] = []
    for path in paths {
      do {
        try attempt(path)
        return path
      } catch {
        failures.append(Unreachable.Attempt(path: path, error: error))
      }
    }
    throw Unreachable(attempts: failures)
  }

  /// A line connection to the first path that takes one.
  func connect() throws(Unreachable) -> (connection: LineConnection, path: String) {
    var connection: LineConnection?
    let path = try firstReached { path throws(SystemError) in connection = try LineConnection(path: path) }
    return (connection!, path)
  }
}

/// No socket of a `SocketLocation` took the connection.
struct Unreachable: Error {
  struct Attempt {
    let path: String
    let error: SystemError
  }

  /// Each path tried, in order, with why it failed.
  let attempts: [Attempt]

  /// Whether trying again cannot help: the last place tried (the one named, or the system's)
  /// does not let this user in. A user's runtime directory that refuses (another user's, after
  /// `su`) is no more than a place with no orientd.
  var isDenied: Bool { attempts.last?.isDenied ?? false }

  /// What a user is told, without the program's name.
  var message: String {
    if isDenied, let denied = attempts.last {
      return "cannot reach orientd at \(denied.path): \(denied.error.code) (the socket or its directory does"
        + " not let this user in; see socket-mode)"
    }
    let reasons = attempts.map { "\($0.path) (\($0.error.code))" }.joined(separator: " or at ")
    var text = "cannot reach orientd at \(reasons)"
    if attempts.contains(where: { $0.path == SocketLocation.system }) {
      text += "; " + SocketLocation.serviceHint
    }
    return text
  }

  /// The exit status: 77 when this user may not use the socket, 69 when orientd is not there.
  var exitCode: ExitCode { isDenied ? .noPermission : .unavailable }

  /// Prints the message and returns the exit status.
  func report() -> Int32 {
    StandardStream.error.report("orientctl: \(message)\n")
    return exitCode.rawValue
  }
}

extension Unreachable.Attempt {
  var isDenied: Bool { error.code == .accessDenied || error.code == .permissionDenied }
}

extension SocketLocation {
  /// Where a user of the system service finds why it does not answer: systemd holds the socket
  /// and starts orientd for a client, so a service that fails leaves the client waiting.
  static let serviceHint =
    "if the system service should be serving, 'systemctl status orientd.socket orientd' and"
    + " 'journalctl -u orientd' say why it is not"
}
