import OrientCore
import OrientSystem

/// One orientctl run over a connection: a query, a control command or a monitor.
struct Session {
  let connection: LineConnection
  let socket: String

  /// Prints the state once `get` is answered: every field (as lines, or as one JSON object),
  /// or only `field`'s value.
  func get(json: Bool, field: String?) -> Int32 {
    guard let snapshot = state() else { return lost() }
    if let field {
      guard let value = snapshot.value(of: field, json: json) else {
        StandardStream.error.report("orientctl: orientd did not report \(field)\n")
        return ExitCode.unavailable.rawValue
      }
      _ = write(value)
    } else {
      _ = write(json ? snapshot.jsonObject : snapshot.lines)
    }
    return 0
  }

  /// Sends `get` and collects the state up to its `ok`; nil when the connection ended or
  /// orientd refused (the reason is then left for `lost()` or printed).
  func state() -> StateSnapshot? {
    guard connection.send("get") else { return nil }
    var snapshot = StateSnapshot()
    while let line = connection.readLine() {
      if let change = StateChange(line: line) {
        snapshot.record(change)
        continue
      }
      if line == "ok" { return snapshot }
      if line.hasPrefix("error ") {
        connection.pushBack(line)
        return nil
      }
    }
    return nil
  }

  /// `lock --toggle`: one key binding that locks to the current orientation or unlocks.
  func toggleLock() -> Int32 {
    guard let snapshot = state() else { return lost() }
    return control(snapshot.lock == .lock(nil) ? "lock" : "unlock")
  }

  /// Sends one control line and waits for its reply, skipping events that come first.
  func control(_ line: String) -> Int32 {
    guard connection.send(line) else { return lost() }
    while let reply = connection.readLine() {
      if StateChange(line: reply) != nil { continue }
      if reply.hasPrefix("ok ") {
        // The change holds but orientd could not save it (a full disk): say so, and succeed.
        StandardStream.error.report("orientctl: warning: \(reply.dropFirst(3))\n")
        return 0
      }
      return reply == "ok" ? 0 : refused(reply)
    }
    return lost()
  }

  /// How one monitored connection ended.
  enum MonitorEnd: Equatable {
    /// Nobody reads the output any more: a clean end.
    case outputClosed
    /// orientd turned the connection away; the exit status.
    case refused(Int32)
    /// orientd closed the connection (it stopped or restarted).
    case lost
  }

  /// Prints every state line until interrupted, until nobody reads the output, or until the
  /// connection ends. `printed` carries what monitor-sensor's format last showed, across
  /// reconnections. With `supports`, the orientation lines are worked out within those
  /// orientations: the state sent on connect (the policy's) is skipped, and asked for again
  /// once orientd has accepted the set.
  func monitor(
    style: MonitorStyle, supports: AllowedOrientations? = nil, printed: inout MonitorSensorFormat.Shown?
  ) -> MonitorEnd {
    var commands = supports.map { ["supports " + $0.listText] } ?? []
    // The state sent on connect is text; ask for it again in JSON.
    if style == .json { commands.append("format json") }
    if !commands.isEmpty { commands.append("get") }
    for command in commands {
      guard connection.send(command) else { return .lost }
    }
    // Until the `ok` of `supports`, the lines are the policy's, not this client's.
    var declaring = supports != nil
    var pending: [StateChange] = []
    var greeted = false
    while let line = connection.readLine(watchingOutput: true) {
      // orientd sends an error instead of the state when it turns the connection away, or
      // when none of the orientations supported is allowed.
      if line.hasPrefix("error ") || line.hasPrefix("{\"reply\":\"error\"") { return .refused(refused(line)) }
      if declaring {
        declaring = line != "ok"
        continue
      }
      switch style {
      case .text:
        guard StateChange(line: line) != nil else { continue }
        guard write(line + "\n") else { return .outputClosed }
      case .json:
        guard line.hasPrefix("{\"event\"") else { continue }
        guard write(line + "\n") else { return .outputClosed }
      case .iioSensorProxy:
        guard let change = StateChange(line: line) else { continue }
        if !greeted {
          // The lines sent on connect, through `mode`, form the initial state.
          pending.append(change)
          guard change.key == .mode else { continue }
          greeted = true
          let text = MonitorSensorFormat.snapshot(pending, shown: &printed)
          guard write(text) else { return .outputClosed }
          continue
        }
        if let text = printed?.record(change) {
          guard write(text) else { return .outputClosed }
        }
      }
    }
    return outputIsOpen ? .lost : .outputClosed
  }

  /// Whether stdout still has a reader (a closed pipe reports POLLERR).
  var outputIsOpen: Bool {
    let ready = try? Readiness.wait([(StandardStream.output.descriptor, [])], timeout: .zero)
    return ready?.first?.isDisjoint(with: [.error, .hangUp]) ?? true
  }

  func write(_ text: String) -> Bool {
    (try? StandardStream.output.write(text)) != nil
  }

  func refused(_ reply: String) -> Int32 {
    let detail = reply.hasPrefix("error ") ? String(reply.dropFirst(6)) : reply
    StandardStream.error.report("orientctl: orientd refused: \(detail)\n")
    // Turned away for lack of room is the service being unavailable, not a refused command.
    if detail.hasPrefix("too-many-clients") { return ExitCode.unavailable.rawValue }
    if detail.hasPrefix("permission-denied") { return ExitCode.noPermission.rawValue }
    return 1
  }

  /// The connection ended before the answer: reports the reason orientd gave, if it sent one
  /// before closing (a refused connection), else that it closed.
  func lost() -> Int32 {
    while let line = connection.readLine() {
      if line.hasPrefix("error ") { return refused(line) }
    }
    if connection.timedOut, let timeout = connection.replyTimeout {
      StandardStream.error.report(
        "orientctl: orientd at \(socket) did not answer within \(timeout.secondsText) s"
          + " (--timeout)\n")
      return ExitCode.unavailable.rawValue
    }
    StandardStream.error.report("orientctl: orientd at \(socket) closed the connection\n")
    return ExitCode.unavailable.rawValue
  }
}

/// The accelerometer lines monitor-sensor (from iio-sensor-proxy) prints.
///
/// monitor-sensor shows iio-sensor-proxy's properties, which `SensorProxyAccelerometer` works
/// out from orientd's state (the device's four-way orientation: a lock changes nothing, lying
/// flat keeps the last value). It prints an orientation only while there is an
/// accelerometer, and only when it differs from the last one it printed.
enum MonitorSensorFormat {
  /// What the output last said: whether there is an accelerometer, and its orientation.
  struct Shown: Equatable {
    private var state = SensorProxyAccelerometer(source: .device)
    /// The orientation last printed; nil is `undefined`.
    private(set) var orientation: ScreenOrientation?

    var online: Bool { state.hasAccelerometer }

    init(_ state: [StateChange]) {
      for change in state { _ = record(change) }
    }

    /// Takes `change` into account and returns the lines monitor-sensor prints for it, nil
    /// when what it shows stays the same.
    mutating func record(_ change: StateChange) -> String? {
      var text = ""
      if state.apply(change).contains(.hasAccelerometer) {
        text += online ? "+++ Accelerometer appeared\n" : "--- Accelerometer disappeared\n"
      }
      if online, state.orientation != orientation {
        orientation = state.orientation
        text += "    Accelerometer orientation changed: \(state.orientationText)\n"
      }
      return text.isEmpty ? nil : text
    }
  }

  /// The first line, from the initial state.
  static func initial(_ state: [StateChange]) -> String {
    let shown = Shown(state)
    return shown.online
      ? "=== Has accelerometer (orientation: \(orientationName(shown.orientation)))\n"
      : "=== No accelerometer\n"
  }

  /// The lines for the state sent on connect: the first line on the first connection; after
  /// a reconnection, only what changed while orientd was away, as monitor-sensor does when
  /// the proxy comes back.
  static func snapshot(_ state: [StateChange], shown: inout Shown?) -> String {
    guard var current = shown else {
      shown = Shown(state)
      return initial(state)
    }
    let text = state.compactMap { current.record($0) }.joined()
    shown = current
    return text
  }
}
