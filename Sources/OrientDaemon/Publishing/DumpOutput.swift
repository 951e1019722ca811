import OrientCore
import OrientSystem

/// `--dump`: one line on stdout per change of the device or screen orientation, with its
/// time. The run ends as soon as stdout's reader goes away (`orientd --dump | head -1`), not
/// at the next change, which may never come on a still device.
final class DumpOutput {
  private let loop: EventLoop
  private var watch: Watch?
  /// Whether stdout is gone (its reader left, or a write failed): nothing more is written and
  /// the loop stops.
  private(set) var isClosed = false
  /// `.ioError` once a write failed for another reason than a reader gone away.
  private(set) var failure: ExitCode?

  /// Writes to stdout; `loop` is stopped when stdout goes away.
  init(loop: EventLoop) { self.loop = loop }

  /// Watches stdout for its reader going away. epoll always reports an error or hang-up, so
  /// no event is asked for. A file cannot be watched and never goes away.
  func watchForHangUp() {
    do {
      watch = try loop.watch(StandardStream.output.descriptor, for: []) { [unowned self] _ in
        self.close()
      }
    } catch  where error.code == .permissionDenied {
      // EPERM: a regular file, which epoll does not take.
    } catch {
      Log.warning(
        "--dump: cannot watch stdout for its reader going away (\(error)); noticed at the next write")
    }
  }

  /// Writes the device and screen orientation changes among `changes`, at `time`, in one write.
  func write(_ changes: [StateChange], at time: SampleTime) {
    guard !isClosed else { return }
    var text = ""
    for change in changes {
      switch change {
      case .device, .orientation: text += "\(time.secondsText) \(change.line)\n"
      default: break
      }
    }
    guard !text.isEmpty else { return }
    do {
      try StandardStream.output.write(text)
      return
    } catch  where error.code == .brokenPipe {
      // A closed reader (`orientd --dump | head -1`) ends the run quietly.
    } catch {
      Log.error("cannot write to stdout: \(error)")
      failure = .ioError
    }
    close()
  }

  private func close() {
    if let watch { loop.unwatch(watch) }
    watch = nil
    isClosed = true
    loop.stop()
  }
}
