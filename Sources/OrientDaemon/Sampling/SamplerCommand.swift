import OrientCore
import OrientSystem

/// What the daemon's loop tells the sampling thread.
enum SamplerCommand: Sendable {
  /// New classifier tunables (the current orientation is kept).
  case settings(ClassifierSettings)
  /// Whether to send every sample, not only changes.
  case forwardSamples(Bool)
  /// Whether the lid switch says closed (true), open (false), or there is none (nil); the
  /// hinge uses it to tell a closed lid from one folded back.
  case lid(closed: Bool?)
  /// Whether anything needs samples now.
  case demand(SamplingDemand)
  /// The reading sensors (light, proximity, compass) to read now; the others rest.
  case readingNeeds(Set<SensorKind>)
  /// Whether capture may take a device's buffer: not while another daemon owns
  /// `net.hadess.SensorProxy` (it needs the buffers for its clients).
  case buffersAllowed(Bool)
  /// Restore what was changed on the device and end the thread.
  case stop
}

// The mailboxes between the threads are bounded (see `Mailbox`): what a kind may lose when the
// reader falls behind is the oldest messages of that kind, never a message of another kind.

extension SamplerCommand {
  /// Each command sets something; only the newest of each kind matters.
  var mailboxKind: MailboxKind {
    switch self {
    case .settings: return MailboxKind("settings", limit: 1)
    case .forwardSamples: return MailboxKind("sample forwarding", limit: 1)
    case .lid: return MailboxKind("lid switch", limit: 1)
    case .demand: return MailboxKind("sampling demand", limit: 1)
    case .readingNeeds: return MailboxKind("reading demand", limit: 1)
    case .buffersAllowed: return MailboxKind("buffer permission", limit: 1)
    case .stop: return MailboxKind("stop", limit: 1)
    }
  }
}
