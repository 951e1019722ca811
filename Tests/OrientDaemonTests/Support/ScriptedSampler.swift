import OrientCore
import OrientSystem

@testable import OrientDaemon

/// The sampler a daemon in the test process is handed instead of the sampling thread: it
/// records every command the daemon sends it, and reports the events the test posts, through a
/// real mailbox delivered on the daemon's loop, as the sampling thread's are.
final class ScriptedSampler: SamplerLink {
  let events: Mailbox<SamplerEvent>
  /// Every command sent, in order.
  private(set) var commands: [SamplerCommand] = []
  /// What the daemon started the sampler with.
  var configuration: SamplerConfiguration?
  /// Whether the daemon stopped the sampler.
  private(set) var stopped = false

  init() throws { events = try Mailbox<SamplerEvent>(kind: \.mailboxKind) }

  func send(_ command: SamplerCommand) { commands.append(command) }

  func stop() { stopped = true }

  /// Reports `event` to the daemon, as the sampling thread would.
  func post(_ event: SamplerEvent) { events.post(event) }

  /// The sampling demands sent, in order.
  var demands: [SamplingDemand] {
    commands.compactMap {
      guard case .demand(let demand) = $0 else { return nil }
      return demand
    }
  }

  /// Whether to forward samples, each time it was sent.
  var forwarding: [Bool] {
    commands.compactMap {
      guard case .forwardSamples(let forward) = $0 else { return nil }
      return forward
    }
  }

  /// The reading sensors to read, each time they were sent.
  var readingNeeds: [Set<SensorKind>] {
    commands.compactMap {
      guard case .readingNeeds(let kinds) = $0 else { return nil }
      return kinds
    }
  }
}
