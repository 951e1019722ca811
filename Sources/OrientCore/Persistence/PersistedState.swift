/// The part of the state that survives a restart: the lock and the allowed set, whether that
/// set was chosen with `orientctl allow`, and the config file's allowed set when they were
/// saved (so that a later edit of the file can be told from an old value; see
/// `AllowedOrigin.choose`), and the mode set with `orientctl mode` until `mode auto`.
package struct PersistedState: Equatable, Sendable {
  package var lock: ScreenOrientation?
  package var allowed: AllowedOrientations
  /// Whether `allowed` was chosen with `orientctl allow` (false: it came from the config file,
  /// the command line or the default); nil in a file written before orientd recorded it.
  package var allowedChosen: Bool?
  /// What the config file's `allowed =` was when the state was saved.
  package var configAllowed: ConfigRecord
  /// The mode set with `mode tablet|laptop`; nil is `mode auto` (the line is left out).
  package var mode: TabletMode?

  /// What the state file knows of the config file's `allowed =`.
  package enum ConfigRecord: Equatable, Sendable {
    /// A file written before orientd recorded it.
    case unknown
    /// The config's value (nil: the file had no `allowed =`).
    case known(AllowedOrientations?)
  }

  /// Creates a state.
  package init(
    lock: ScreenOrientation? = nil, allowed: AllowedOrientations = .all, allowedChosen: Bool? = nil,
    configAllowed: ConfigRecord = .unknown, mode: TabletMode? = nil
  ) {
    self.mode = mode == .unknown ? nil : mode
    self.lock = lock
    self.allowed = allowed
    self.allowedChosen = allowedChosen
    self.configAllowed = configAllowed
  }

  /// The file's first line.
  package static let header = "# orientd-state 1"

  /// The file contents, e.g. `# orientd-state 1\nlock off\nallowed normal,left-up\n`
  /// `allowed-chosen yes\nconfig-allowed none\n`.
  package var fileText: String {
    var text = "\(Self.header)\nlock \(lock?.name ?? "off")\nallowed \(allowed.listText)\n"
    if let allowedChosen { text += "allowed-chosen \(allowedChosen ? "yes" : "no")\n" }
    if case .known(let config) = configAllowed { text += "config-allowed \(config?.listText ?? "none")\n" }
    if let mode { text += "mode \(mode.rawValue)\n" }
    return text
  }

  /// Parses a state file; any defect is an error, and the caller falls back to the defaults.
  package static func parse(_ text: String) throws(ValueError) -> PersistedState {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map { $0.trimmingSpaces }
    guard lines.first == Substring(header) else { throw ValueError("missing '\(header)' header") }
    lines.removeFirst()
    var lock: ScreenOrientation??
    var allowed: AllowedOrientations?
    var configAllowed = ConfigRecord.unknown
    var sawConfig = false
    var allowedChosen: Bool?
    var mode: TabletMode??
    for (index, line) in lines.enumerated() {
      let parts = line.split(separator: " ", maxSplits: 1)
      guard parts.count == 2 else { throw ValueError("line \(index + 2) is not 'key value'") }
      switch parts[0] {
      case "lock" where lock == nil:
        if parts[1] == "off" {
          lock = .some(nil)
        } else if let target = ScreenOrientation(name: parts[1]) {
          lock = .some(target)
        } else {
          throw ValueError("line \(index + 2): bad lock '\(parts[1])'")
        }
      case "allowed" where allowed == nil:
        do {
          allowed = try AllowedOrientations.parse(parts[1])
        } catch {
          throw ValueError("line \(index + 2): \(error.message)")
        }
      case "allowed-chosen" where allowedChosen == nil:
        switch parts[1] {
        case "yes": allowedChosen = true
        case "no": allowedChosen = false
        default: throw ValueError("line \(index + 2): allowed-chosen is yes or no, got '\(parts[1])'")
        }
      case "config-allowed" where !sawConfig:
        sawConfig = true
        do {
          configAllowed = .known(parts[1] == "none" ? nil : try AllowedOrientations.parse(parts[1]))
        } catch {
          throw ValueError("line \(index + 2): \(error.message)")
        }
      case "mode" where mode == nil:
        switch parts[1] {
        case "tablet": mode = .some(.tablet)
        case "laptop": mode = .some(.laptop)
        case "auto": mode = .some(nil)
        default: throw ValueError("line \(index + 2): mode is tablet, laptop or auto, got '\(parts[1])'")
        }
      default:
        throw ValueError("line \(index + 2): unexpected '\(parts[0])'")
      }
    }
    guard let lock, let allowed else { throw ValueError("lock or allowed is missing") }
    return PersistedState(
      lock: lock, allowed: allowed, allowedChosen: allowedChosen, configAllowed: configAllowed,
      mode: mode ?? nil)
  }
}
