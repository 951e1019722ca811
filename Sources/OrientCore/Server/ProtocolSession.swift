/// One client's side of the protocol: its settings (format, subscription, sample stream, the
/// orientations it supports) and what each line it sends asks of the server.
///
/// Pure: the lines come in, the steps go out; the server's session handler carries them out
/// (it reads the state, asks whether the client may control, runs control commands).
package struct ProtocolSession: Sendable {
  /// The format of everything the client is sent.
  package private(set) var format = MessageFormat.text
  /// The changes the client receives; everything until it says otherwise.
  package private(set) var subscription = Subscription.all
  /// The samples the client asked for, if any.
  package private(set) var sampleStream: SampleStream?
  /// How the client's `orientation` lines are worked out: the policy's, until the server
  /// accepts a `supports` (`declared(_:)`).
  package private(set) var view = ClientScreenView.policy
  /// Whether the client has sent a line with anything in it.
  package private(set) var hasSentCommand = false
  /// Why the client may not hear the compass heading, or nil when it may (the server
  /// decides from who connected).
  package var headingRefusal: String?

  /// A new client's session: text, every change, no samples.
  package init() {}

  /// What serving a line takes.
  package enum Step: Equatable, Sendable {
    /// Nothing: the line was empty.
    case nothing
    /// Send this reply: an error, `ok` for a setting changed, `pong`.
    case reply(Reply)
    /// `get`: send the state (the whole orientation state, or the keys given), then `ok`.
    case sendState(Subscription?)
    /// `info`: send the info lines (with paths and hooks for a client that may control), then `ok`.
    case sendInfo
    /// `help`: send `ClientCommand.helpLines`, then `ok`.
    case sendHelp
    /// `quit`: the client may send nothing more.
    case close
    /// A control command, for a client that may control.
    case control(ClientCommand)
    /// `supports`: the server checks the set against the policy, records it with
    /// `declared(_:)` and tells the client its orientation if that changes, then `ok`.
    case supports(AllowedOrientations)
  }

  /// What the client's settings ask of the sensor.
  package var needs: ClientNeeds {
    ClientNeeds(
      deviceChanges: subscription.contains(.device), samples: sampleStream != nil,
      readings: Set(subscription.readingKinds))
  }

  /// Serves one line, without its newline: parses it, applies a setting it changes, and
  /// returns what else it takes.
  package mutating func handle(_ line: [UInt8]) -> Step {
    guard !line.isEmpty else { return .nothing }
    hasSentCommand = true
    guard let text = String(validating: line, as: UTF8.self), !line.contains(0) else {
      return .reply(.error(ProtocolError(.badEncoding, "lines must be UTF-8 text without NUL bytes")))
    }
    let command: ClientCommand
    do {
      command = try ClientCommand.parse(Substring(text))
    } catch {
      return .reply(.error(error))
    }
    switch command {
    case .get(let keys):
      if let refusal = refusal(keys) { return refusal }
      return .sendState(keys)
    case .subscribe(let subscription):
      if let refusal = refusal(subscription) { return refusal }
      self.subscription = subscription
      return .reply(.ok)
    case .format(let format):
      // The `ok` is in the new format already.
      self.format = format
      return .reply(.ok)
    case .samples(let stream):
      sampleStream = stream
      return .reply(.ok)
    case .ping:
      return .reply(.pong)
    case .info:
      return .sendInfo
    case .help:
      return .sendHelp
    case .quit:
      return .close
    case .lock, .unlock, .rotate, .allow, .acceptSuggestion, .mode:
      return .control(command)
    case .supports(let set):
      return .supports(set)
    }
  }

  /// The error for a client that asks for the heading and may not hear it.
  private func refusal(_ keys: Subscription?) -> Step? {
    guard let headingRefusal, keys?.includes(.heading) == true else { return nil }
    return .reply(.error(ProtocolError(.permissionDenied, headingRefusal)))
  }

  /// The server accepted the client's `supports`: its orientation lines follow `view` now.
  package mutating func declared(_ view: ClientScreenView) {
    self.view = view
  }

  /// The client goes: it needs nothing more of the sensor, and holds no set.
  package mutating func end() {
    subscription = []
    sampleStream = nil
    view = .policy
  }
}
