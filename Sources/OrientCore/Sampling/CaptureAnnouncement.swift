/// How an accelerometer is read from now on, as the capture plan decided it: said in the log,
/// and shown by `info` as the mode and the reason for it.
///
/// The plan decides what to announce; the texts also need facts only the driver knows once
/// it has acted (how polling reads the attributes, what the buffer was set up with, which
/// sampling frequencies were raised), so the driver renders them with those facts.
package enum CaptureAnnouncement: Equatable, Sendable {
  /// Polling, for `reason`.
  case polling(reason: String)
  /// The buffer, as `given` says (`--mode buffer`, or no raw attributes to poll).
  case bufferGiven(String)
  /// The buffer on trial in auto mode: up to 1 s for its first scan.
  case bufferTrying
  /// The first scan of a buffer on trial came `after` it was opened.
  case firstScan(after: Duration)
  /// The buffer tried again while polling delivered a scan `after` it was opened; polling
  /// stopped.
  case bufferTakesOver(after: Duration)

  /// What the driver knows once it has acted.
  package struct Facts: Equatable, Sendable {
    /// The poll interval while the device is handled.
    package var interval: Duration
    /// The poll interval while it rests; nil when it is the interval.
    package var restingInterval: Duration?
    /// How polling reads the attributes, e.g. `open sysfs files`.
    package var pollMethod: String
    /// What the buffer was set up with, e.g. `scan 6 bytes, trigger none`.
    package var bufferSetup: String
    /// The sampling frequencies raised, e.g. `sampling_frequency 5 -> 20 Hz`.
    package var frequencyChanges: [String]

    /// The facts at hand; what does not apply is empty.
    package init(
      interval: Duration, restingInterval: Duration? = nil, pollMethod: String = "", bufferSetup: String = "",
      frequencyChanges: [String] = []
    ) {
      self.interval = interval
      self.restingInterval = restingInterval == interval ? nil : restingInterval
      self.pollMethod = pollMethod
      self.bufferSetup = bufferSetup
      self.frequencyChanges = frequencyChanges
    }

    /// The frequencies raised, for the end of a line: `, sampling_frequency 5 -> 20 Hz`, or nothing.
    var frequencyText: String {
      frequencyChanges.isEmpty ? "" : ", " + frequencyChanges.joined(separator: ", ")
    }

    /// The buffer's set-up and the frequencies raised for it.
    var bufferSummary: String { bufferSetup + frequencyText }
  }

  /// The announcement in words.
  package struct Text: Equatable, Sendable {
    /// The line to log at info level, or nil for none.
    package var logLine: String?
    /// `info`'s `mode`.
    package var mode: String
    /// `info`'s `mode-reason`.
    package var reason: String
  }

  /// The texts, with `facts`.
  package func text(_ facts: Facts) -> Text {
    let buffer = facts.bufferSummary
    switch self {
    case .polling(let reason):
      let resting = facts.restingInterval.map { ", every \($0.wholeMilliseconds) ms at rest" } ?? ""
      let mode = "poll every \(facts.interval.wholeMilliseconds) ms\(resting)"
      return Text(
        logLine: "capture mode \(mode): \(reason); reading through \(facts.pollMethod)\(facts.frequencyText)",
        mode: mode, reason: reason)
    case .bufferGiven(let given):
      return Text(
        logLine: "capture mode buffer (\(given)): \(buffer)", mode: "buffer", reason: "\(given); \(buffer)")
    case .bufferTrying:
      return Text(logLine: nil, mode: "buffer (trying)", reason: "waiting up to 1 s for the first scan")
    case .firstScan(let waited):
      return Text(
        logLine: "capture mode buffer: the first scan came after \(waited.wholeMilliseconds) ms; \(buffer)",
        mode: "buffer", reason: "the buffer delivered a scan after \(waited.wholeMilliseconds) ms; \(buffer)")
    case .bufferTakesOver(let waited):
      return Text(
        logLine:
          "capture mode buffer: the buffer tried again delivered a scan after \(waited.wholeMilliseconds) ms; "
          + "polling stopped; \(buffer)",
        mode: "buffer", reason: "the buffer tried again after polling delivered a scan; \(buffer)")
    }
  }
}
