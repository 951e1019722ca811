import OrientConfig
import OrientCore
import OrientSystem

/// The socket clients connect to: the one systemd passes (socket activation), else a new one
/// at `--socket`. What goes wrong is a `Failure` with the exit status it calls for.
struct ListeningSocket: ~Copyable {
  /// The listening, non-blocking descriptor.
  let descriptor: FileDescriptor
  /// The socket file made here, removed at exit while it is still ours; nil when systemd owns
  /// it.
  let file: SocketFile?

  /// Takes the socket systemd passed, or makes one at `options.socketPath`.
  init(options: DaemonOptions) throws(Failure) {
    do {
      if let activated = try Systemd.activatedListener() {
        // systemd owns the socket file: use its descriptor and leave the file alone on exit.
        Log.info("using the socket passed by systemd")
        descriptor = activated
        file = nil
        return
      }
    } catch {
      throw Failure("\(error)", exitCode: .osError)
    }
    let path = options.socketPath
    let listener: UnixListener
    do {
      listener = try UnixSocket.listen(path: path, mode: options.socketMode)
    } catch {
      switch error {
      case .inUse: throw Failure("\(error)", exitCode: .unavailable)
      case .pathTooLong: throw Failure("--socket: \(error)", exitCode: .usage)
      case .directory(_, let refusal):
        throw Failure("refusing the \(error)", exitCode: refusal.isUnsafe ? .config : .cannotCreate)
      case .notASocket, .system:
        throw Failure("cannot create the socket: \(error)", exitCode: .cannotCreate)
      }
    }
    file = listener.file
    Log.info("listening on \(path)")
    descriptor = listener.takeDescriptor()
  }

  /// The descriptor, to serve on; keep `file` first.
  consuming func takeDescriptor() -> FileDescriptor { descriptor }
}
