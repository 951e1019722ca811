/// The distinct sets of orientations that socket clients declared with `supports`, each with
/// how many clients hold it and the orientation they were last told, so that a change is
/// worked out, and rendered, once per set rather than once per client: there are at most 15
/// sets, however many clients.
///
/// Clients that declared none (or `supports all`) are not counted: they are told the policy's
/// own changes. Pure: the server says who declares what and who leaves, and hands it each
/// batch of changes with the policy that made them; it answers with what each set is told.
package struct ClientViews: Sendable {
  /// One set's clients and what they were told.
  struct Entry: Equatable, Sendable {
    /// The clients that declared the set.
    var clients: Int
    /// The orientation they were last told.
    var told: ScreenOrientation?
  }

  /// The sets in use; no entry for `.all`.
  private(set) var entries: [ClientScreenView: Entry] = [:]

  /// No client declared anything yet.
  package init() {}

  /// The sets clients declared, other than `.all`.
  package var views: [ClientScreenView] { Array(entries.keys) }

  /// The orientation the clients of `view` are told now: what they were last told, or the
  /// policy's own for a client that declared nothing (or a set nobody holds).
  package func told(_ view: ClientScreenView, under policy: ScreenPolicy) -> ScreenOrientation? {
    guard let entry = entries[view] else { return policy.orientation }
    return entry.told
  }

  /// A client that held `old` declares `new` (either may be `.policy`, for `supports all`);
  /// returns the `orientation` change it must be told now, before its `ok`, or nil when its
  /// orientation stays the same.
  package mutating func declare(
    _ new: ClientScreenView, replacing old: ClientScreenView, under policy: ScreenPolicy
  ) -> StateChange? {
    guard new != old else { return nil }
    let before = told(old, under: policy)
    leave(old)
    if !new.followsPolicy {
      let initial = entries[new]?.told ?? new.orientation(under: policy)
      entries[new, default: Entry(clients: 0, told: initial)].clients += 1
    }
    let after = told(new, under: policy)
    return after == before ? nil : .orientation(after)
  }

  /// A client that held `view` is gone (or declared another).
  package mutating func leave(_ view: ClientScreenView) {
    guard var entry = entries[view] else { return }
    entry.clients -= 1
    entries[view] = entry.clients > 0 ? entry : nil
  }

  /// What the clients of each set are told of `changes`, a batch the policy (now as `policy`
  /// is) published: the policy's `orientation` change gives way to the set's own, where the
  /// set's orientation changed, else to nothing; a set whose orientation changed while the
  /// policy's did not (an `allow` can do that) gets it after the batch's other changes. Every
  /// set in use is in the answer, with what its clients are told (perhaps nothing).
  package mutating func changesByView(
    _ changes: [StateChange], under policy: ScreenPolicy
  ) -> [ClientScreenView: [StateChange]] {
    var answer: [ClientScreenView: [StateChange]] = [:]
    for (view, entry) in entries {
      let now = view.orientation(under: policy)
      let own: [StateChange] = now == entry.told ? [] : [.orientation(now)]
      entries[view]?.told = now
      if let index = changes.firstIndex(where: { $0.key == .orientation }) {
        answer[view] =
          changes[..<index].filter { $0.key != .orientation } + own
          + changes[(index + 1)...].filter { $0.key != .orientation }
      } else {
        answer[view] = changes + own
      }
    }
    return answer
  }

  /// The state a client of `view` is told (greeting, `get`, a collapsed backlog): `snapshot`,
  /// the policy's state in protocol order, with the orientation its set was last told.
  package func state(_ snapshot: [StateChange], for view: ClientScreenView, under policy: ScreenPolicy)
    -> [StateChange]
  {
    guard !view.followsPolicy else { return snapshot }
    let orientation = told(view, under: policy)
    return snapshot.map { $0.key == .orientation ? .orientation(orientation) : $0 }
  }
}
