import OrientSystem

/// Where orientctl looks for orientd's socket when `--socket` is not given.
enum SocketLocation {
  /// The system service's socket.
  static let system = "/run/orientd/orientd.sock"

  /// `$ORIENTD_SOCKET`; else the socket of an orientd a user runs without root, in
  /// `$XDG_RUNTIME_DIR/orientd/`, when there is one; else the system's.
  static func `default`(
    socket: String? = Environment.value("ORIENTD_SOCKET"),
    runtimeDirectory: String? = Environment.value("XDG_RUNTIME_DIR")
  ) -> String {
    if let socket, !socket.isEmpty { return socket }
    if let runtimeDirectory, runtimeDirectory.hasPrefix("/") {
      let user =
        (runtimeDirectory.hasSuffix("/") ? runtimeDirectory : runtimeDirectory + "/") + "orientd/orientd.sock"
      if (try? FileSystem.status(of: user))?.kind == .socket { return user }
    }
    return system
  }
}
