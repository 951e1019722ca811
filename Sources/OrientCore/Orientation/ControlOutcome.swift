/// What a control command (`lock`, `unlock`, `rotate`, `allow`, `accept-suggestion`, `mode`)
/// did to the state.
package struct ControlOutcome: Equatable, Sendable {
  /// The changes clients see, in publication order.
  package var changes: [StateChange]
  /// Whether the state kept across restarts changed, so the commander's `ok` waits until it is
  /// saved: a `mode` override can change it while nothing clients see changes.
  package var changesSavedState: Bool
  /// Whether a `mode` command changed the override (which the daemon logs).
  package var changesOverride: Bool

  /// An outcome with `changes`.
  package init(changes: [StateChange], changesSavedState: Bool, changesOverride: Bool = false) {
    self.changes = changes
    self.changesSavedState = changesSavedState
    self.changesOverride = changesOverride
  }
}

extension OrientationTracker {
  /// Runs a control command: the screen policy's for `lock`, `unlock`, `rotate` and `allow`, the
  /// mode's override for `mode`; `accept-suggestion` locks to the rotation suggested, and
  /// fails with `no-suggestion` when none is (it went, or none was made). A command the policy
  /// refuses (a target outside the allowed set) fails with `not-allowed`; any other command is
  /// not a control command.
  package mutating func control(_ command: ClientCommand) -> Result<ControlOutcome, ProtocolError> {
    if case .mode(let mode) = command {
      let before = self.mode.override
      let changes = updateMode { $0.override = mode }
      let changed = before != self.mode.override
      return .success(ControlOutcome(changes: changes, changesSavedState: changed, changesOverride: changed))
    }
    let changes: [StateChange]
    do throws(PolicyError) {
      switch command {
      case .lock(let target):
        changes = try apply { (policy: inout ScreenPolicy) throws(PolicyError) in try policy.lock(to: target)
        }
      case .unlock:
        changes = apply { (policy: inout ScreenPolicy) in policy.unlock() }
      case .rotate(let direction):
        changes = try apply { (policy: inout ScreenPolicy) throws(PolicyError) in try policy.rotate(direction)
        }
      case .allow(let allowed):
        changes = apply { (policy: inout ScreenPolicy) in policy.allow(allowed) }
      case .acceptSuggestion:
        guard let target = suggestion.suggested else {
          return .failure(
            ProtocolError(.noSuggestion, "no rotation is suggested now (none was made, or it went)"))
        }
        changes = try apply { (policy: inout ScreenPolicy) throws(PolicyError) in try policy.lock(to: target)
        }
      default:
        return .failure(ProtocolError(.internalError, "not a control command"))
      }
    } catch {
      return .failure(ProtocolError(.notAllowed, error.description))
    }
    return .success(ControlOutcome(changes: changes, changesSavedState: !changes.isEmpty))
  }
}
