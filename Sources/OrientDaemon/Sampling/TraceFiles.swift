import OrientCore
import OrientSystem

/// Loads a whole trace file; a missing file exits 66, a malformed one 65 with file:line.
public func loadTrace(_ path: String) throws(Failure) -> [TraceSample] {
  let text: String
  do {
    text = try FileSystem.readText(path, limit: Int.max)
  } catch {
    throw Failure("cannot read trace: \(error)", exitCode: .noInput)
  }
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
public final class TraceRecorder: @unchecked Sendable {
  private let path: String
  private let descriptor: FileDescriptor
  private let timeOffsetMicroseconds: Int64
  private var writeWarning = RateLimitedWarning()

  /// Opens `path` for appending, creating it with the header if needed.
  public init(path: String) throws(Failure) {
    self.path = path
    var existing: [TraceSample] = []
    var isNew = true
    if FileSystem.exists(path) {
      let text: String
      do {
        text = try FileSystem.readText(path, limit: Int.max)
      } catch {
        throw Failure("cannot read \(path) to append to it: \(error)", exitCode: .cannotCreate)
      }
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
    do {
      descriptor = try FileDescriptor.open(path, .writeOnly, options: [.create, .append, .noFollow])
    } catch {
      throw Failure("cannot record: \(error)", exitCode: .cannotCreate)
    }
    timeOffsetMicroseconds = existing.last.map { $0.time.microseconds + 1_000_000 } ?? 0
    if isNew {
      do {
        try descriptor.writeAll(TraceFormat.header + "\n")
      } catch {
        throw Failure("cannot record to \(path): \(error)", exitCode: .ioError)
      }
    }
  }

  /// Appends one sample; a failed write is logged (rate-limited) and recording goes on.
  public func record(_ sample: Sample) {
    let entry = TraceSample(
      time: sample.time.advanced(byMicroseconds: timeOffsetMicroseconds), gravity: sample.gravity)
    do {
      try descriptor.writeAll(TraceFormat.line(for: entry) + "\n")
    } catch {
      writeWarning.warn("cannot record to \(path): \(error)")
    }
  }
}
