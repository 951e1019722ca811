import OrientCore
import OrientSystem

/// Reads a trace file of at most `TraceFormat.maximumFileBytes`; a larger one (or one that
/// never ends) is bad data (65) said after `tooLarge`, any other failure to read it
/// `unreadable`.
private func readTraceText(_ path: String, tooLarge: String, unreadable: ExitCode) throws(Failure) -> String {
  do {
    return try FileSystem.readText(path, limit: TraceFormat.maximumFileBytes)
  } catch  where error.code == .fileTooLarge {
    throw Failure(
      "\(tooLarge): larger than \(TraceFormat.maximumFileBytes >> 20) MiB, the most orientd reads",
      exitCode: .dataError)
  } catch {
    throw Failure("cannot read trace: \(error)", exitCode: unreadable)
  }
}

/// Loads a whole trace file; a missing file exits 66, a malformed or oversized one 65 with
/// file:line and what is wrong.
func loadTrace(_ path: String) throws(Failure) -> [TraceSample] {
  let text = try readTraceText(path, tooLarge: "bad trace: \(path)", unreadable: .noInput)
  do {
    return try TraceFormat.parse(text, source: path)
  } catch {
    throw Failure("bad trace: \(error)", exitCode: .dataError)
  }
}

/// Appends corrected samples to a trace file, one write(2) per sample.
///
/// A new file gets the header. An existing trace is checked first, and new
/// samples continue one second after its last one, so the file stays a valid trace.
/// It is handed to the sampling thread once and used only there after that.
package final class TraceRecorder: @unchecked Sendable {
  private let path: String
  private let descriptor: FileDescriptor
  /// How much later in the file than in the run samples are: they continue the trace.
  private let timeOffset: Duration
  private var writeWarning = RateLimitedWarning()

  /// Opens `path` for appending, creating it with the header if needed.
  init(path: String) throws(Failure) {
    self.path = path
    var existing: [TraceSample] = []
    var isNew = true
    if FileSystem.exists(path) {
      let text = try readTraceText(
        path, tooLarge: "refusing to append to \(path) (record to a new file)", unreadable: .cannotCreate)
      if !text.isEmpty {
        isNew = false
        do {
          existing = try TraceFormat.parse(text, source: path)
        } catch {
          throw Failure("refusing to append to \(path): \(error)", exitCode: .dataError)
        }
        if !text.hasSuffix("\n") {
          throw Failure("refusing to append to \(path): its last line is incomplete", exitCode: .dataError)
        }
      }
    }
    guard let continuation = TraceFormat.continuation(after: existing.last?.time) else {
      throw Failure(
        "refusing to append to \(path): its last time leaves no room before "
          + "\(TraceFormat.latestTime.secondsText) s, the latest a trace may hold", exitCode: .dataError)
    }
    timeOffset = continuation - .zero
    do {
      descriptor = try FileDescriptor.open(path, .writeOnly, options: [.create, .append, .noFollow])
    } catch {
      throw Failure("cannot record: \(error)", exitCode: .cannotCreate)
    }
    if isNew {
      do {
        try descriptor.writeAll(TraceFormat.header + "\n")
      } catch {
        throw Failure("cannot record to \(path): \(error)", exitCode: .ioError)
      }
    }
  }

  /// Appends one sample; a failed write is logged (rate-limited) and recording goes on.
  /// A sample past the latest time a trace may hold is not written, so the file stays a
  /// trace that replays.
  func record(_ sample: Sample) {
    let entry = TraceSample(
      time: sample.time + timeOffset, gravity: sample.gravity)
    guard entry.time <= TraceFormat.latestTime, entry.time >= .zero else {
      return writeWarning.warn(
        "not recording to \(path): time \(entry.time.secondsText) s is past the latest a trace may hold")
    }
    do {
      try descriptor.writeAll(TraceFormat.line(for: entry) + "\n")
    } catch {
      writeWarning.warn("cannot record to \(path): \(error)")
    }
  }
}
