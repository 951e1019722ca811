import OrientSystem

/// The main loop's side of the sampler: the events it reports, the commands it obeys. The
/// sampling thread is the one a process runs (see the threading model in Daemon.swift); a test
/// in process hands the daemon a scripted one, which sees every command and reports what the
/// test tells it to.
protocol SamplerLink: AnyObject {
  /// What the sampler reports, delivered on the main loop.
  var events: Mailbox<SamplerEvent> { get }
  /// Hands the sampler a command.
  func send(_ command: SamplerCommand)
  /// Ends the sampler: it restores what it changed on the devices first.
  func stop()
}

extension SamplingThread: SamplerLink {}
