import OrientConfig
import OrientCore
import OrientSystem

/// Everything the sampling thread needs, handed over when it starts.
struct SamplerConfiguration: Sendable {
  /// What sampling uses of the options.
  var settings: SamplingSettings
  /// The run's time line, which live sample times are on.
  var clock: SampleClock
  /// The trace to replay, already parsed (so a bad file fails before anything starts).
  var trace: [TraceSample]?
  var recorder: TraceRecorder?
  /// Whether a missing sensor at start ends the run (`--dump`) instead of being waited for.
  var failIfNoSensor: Bool
  /// Whether capture may take buffers at start: not while D-Bus is on and the bus has not
  /// yet said that `net.hadess.SensorProxy` is orientd's (another daemon may own it).
  var buffersAllowed = true

  /// The configuration for a run with `options`.
  init(
    options: DaemonOptions, clock: SampleClock, trace: [TraceSample]?, recorder: TraceRecorder?,
    failIfNoSensor: Bool
  ) {
    settings = SamplingSettings(options)
    self.clock = clock
    self.trace = trace
    self.recorder = recorder
    self.failIfNoSensor = failIfNoSensor
  }
}

/// The sampling thread: it reads the sensor and classifies its samples (see the threading
/// model in Daemon.swift).
///
/// Sensor reads may block for seconds on slow drivers or networks; on this thread they
/// never delay the daemon's clients. It runs its own event loop and tells the daemon
/// only what changed.
final class SamplingThread {
  let events: Mailbox<SamplerEvent>
  private let commands: Mailbox<SamplerCommand>
  private let thread: WorkerThread

  /// Starts sampling.
  init(configuration: SamplerConfiguration) throws(SystemError) {
    let events = try Mailbox<SamplerEvent>(kind: \.mailboxKind)
    let commands = try Mailbox<SamplerCommand>(kind: \.mailboxKind)
    self.events = events
    self.commands = commands
    thread = try WorkerThread(name: "orientd-sensor") {
      SamplingEngine(configuration: configuration, events: events, commands: commands).run()
    }
  }

  /// Sends a command to the thread.
  func send(_ command: SamplerCommand) { commands.post(command) }

  /// Asks the thread to restore the device and end; waits up to 2 s for it.
  func stop() {
    commands.post(.stop)
    if !thread.join(within: .seconds(2)) {
      Log.warning("the sensor thread did not stop within 2 s (a read is stuck); exiting anyway")
    }
  }
}
