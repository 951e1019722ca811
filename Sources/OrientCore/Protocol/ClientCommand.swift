/// The wire format of one connection.
package enum MessageFormat: Sendable {
  /// `orientation left-up`, `ok`, `error not-allowed ...`.
  case text
  /// `{"event":"orientation","value":"left-up"}`, `{"reply":"ok"}`.
  case json
}

/// Which samples a connection asked to receive.
package enum SampleStream: Sendable {
  /// `sample <t> <x> <y> <z>`: g in the corrected frame.
  case corrected
  /// `raw <t> <x> <y> <z>`: g before the mount matrix.
  case raw
}

/// A line a client sent, parsed.
package enum ClientCommand: Equatable, Sendable {
  /// The whole orientation state (nil), or the state of these keys: `get light,proximity`.
  /// The readings' keys (`light`, `proximity`, `heading`) are read for the reply if nothing
  /// reads them.
  case get(Subscription?)
  case lock(ScreenOrientation?)
  case unlock
  case rotate(RotationDirection)
  case allow(AllowedOrientations)
  /// Lock the screen to the rotation suggested now.
  case acceptSuggestion
  /// This connection's `orientation` lines use only these orientations (`.all`: any allowed).
  case supports(AllowedOrientations)
  /// Set the mode (tablet or laptop) until `mode auto` (nil) gives it back to its sources.
  case mode(TabletMode?)
  /// Receive only these changes from now on.
  case subscribe(Subscription)
  case format(MessageFormat)
  /// Start (or, with nil, stop) this connection's sample stream.
  case samples(SampleStream?)
  /// Describe the sensor, its set-up and the daemon's settings.
  case info
  case ping
  case help
  case quit

  /// The commands and what they do, one line each, as `help` sends them.
  package static let helpLines = [
    "get [LIST]: the state lines (sensor, device, orientation, lock, allowed, mode, and hinge where there is one), or those of LIST (e.g. get light,heading), then ok",
    "lock [ORIENTATION]: lock the screen to ORIENTATION, or to the current one",
    "unlock: follow the device again",
    "rotate cw|ccw: lock to the next allowed orientation clockwise or counter-clockwise",
    "allow all|LIST: set the allowed screen orientations, e.g. allow normal,left-up",
    "accept-suggestion: lock the screen to the rotation suggested now (subscribe suggestion to hear them)",
    "supports all|LIST: work this connection's orientation lines out within these, e.g. supports normal,bottom-up",
    "mode tablet|laptop|auto: set the mode until mode auto gives it back to the switch or hinge",
    "subscribe all|LIST: receive only these changes, e.g. subscribe orientation,mode or subscribe all,light",
    "format json|text: switch this connection's format",
    "samples corrected|raw|off: stream this connection every sample, in g",
    "info: the sensor, how it is read, its matrix and the settings, then ok",
    "ping: reply pong",
    "help: this list",
    "quit: close the connection",
  ]

  /// Parses one line without its newline; the command word is case-sensitive, as documented.
  package static func parse(_ line: Substring) throws(ProtocolError) -> ClientCommand {
    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
    guard let verb = words.first else { throw ProtocolError(.unknownCommand, "empty command") }
    let arguments = words.dropFirst()
    func noArguments(_ command: ClientCommand) throws(ProtocolError) -> ClientCommand {
      guard arguments.isEmpty else { throw ProtocolError(.badArgument, "\(verb) takes no argument") }
      return command
    }
    func oneArgument(_ usage: String) throws(ProtocolError) -> Substring {
      guard arguments.count == 1, let argument = arguments.first else {
        throw ProtocolError(.badArgument, "usage: \(usage)")
      }
      return argument
    }
    switch verb {
    case "get":
      guard !arguments.isEmpty else { return .get(nil) }
      do {
        return .get(try Subscription.parse(arguments.joined(separator: " ")))
      } catch {
        throw ProtocolError(.badArgument, error.message)
      }
    case "unlock": return try noArguments(.unlock)
    case "accept-suggestion": return try noArguments(.acceptSuggestion)
    case "ping": return try noArguments(.ping)
    case "help": return try noArguments(.help)
    case "info": return try noArguments(.info)
    case "samples":
      switch try oneArgument("samples corrected|raw|off") {
      case "corrected": return .samples(.corrected)
      case "raw": return .samples(.raw)
      case "off": return .samples(nil)
      case let other:
        throw ProtocolError(
          .badArgument, "expected corrected, raw or off, got '\(ProtocolError.printable(other))'")
      }
    case "quit": return try noArguments(.quit)
    case "lock":
      guard arguments.count <= 1 else { throw ProtocolError(.badArgument, "usage: lock [ORIENTATION]") }
      guard let name = arguments.first else { return .lock(nil) }
      guard let target = ScreenOrientation(name: name) else {
        throw ProtocolError(
          .badArgument,
          "unknown screen orientation '\(ProtocolError.printable(name))' "
            + "(expected normal, left-up, bottom-up or right-up)")
      }
      return .lock(target)
    case "rotate":
      switch try oneArgument("rotate cw|ccw") {
      case "cw": return .rotate(.clockwise)
      case "ccw": return .rotate(.counterClockwise)
      case let other:
        throw ProtocolError(.badArgument, "expected cw or ccw, got '\(ProtocolError.printable(other))'")
      }
    case "allow", "supports":
      // The list may be written with spaces after the commas.
      guard !arguments.isEmpty else { throw ProtocolError(.badArgument, "usage: \(verb) all|LIST") }
      let set: AllowedOrientations
      do {
        set = try AllowedOrientations.parse(arguments.joined(separator: " "))
      } catch {
        throw ProtocolError(.badArgument, ProtocolError.printable(Substring(error.message)))
      }
      return verb == "allow" ? .allow(set) : .supports(set)
    case "mode":
      switch try oneArgument("mode tablet|laptop|auto") {
      case "tablet": return .mode(.tablet)
      case "laptop": return .mode(.laptop)
      case "auto": return .mode(nil)
      case let other:
        throw ProtocolError(
          .badArgument, "expected tablet, laptop or auto, got '\(ProtocolError.printable(other))'")
      }
    case "subscribe":
      guard !arguments.isEmpty else { throw ProtocolError(.badArgument, "usage: subscribe all|LIST") }
      do {
        return .subscribe(try Subscription.parse(arguments.joined(separator: " ")))
      } catch {
        throw ProtocolError(.badArgument, error.message)
      }
    case "format":
      switch try oneArgument("format json|text") {
      case "json": return .format(.json)
      case "text": return .format(.text)
      case let other:
        throw ProtocolError(.badArgument, "expected json or text, got '\(ProtocolError.printable(other))'")
      }
    default:
      throw ProtocolError(.unknownCommand, "'\(ProtocolError.printable(verb))' (try help)")
    }
  }
}
