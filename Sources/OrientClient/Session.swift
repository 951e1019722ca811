import OrientCore
import OrientSystem

/// One orientctl run over a connection: a query, a control command or a monitor.
///
/// Why this file is over 300 lines: `Session` is every command's conversation with orientd
/// (state, control, monitor in three styles), and `MonitorSensorFormat` below, monitor-sensor's
/// exact lines, is used by it alone.
struct Session {
  let connection: LineConnection
  let socket: String

  /// Prints the state once `get` is answered: every field (as lines, or as one JSON object),
  /// or only `field`'s value.
  func get(json: Bool, field: String?) -> Int32 {
    // A reading is asked for by name (orientd reads its sensor for the answer if nobody
    // does), and so is the suggestion: neither is in the orientation state.
    let named =
      field.flatMap(StateKey.init(rawValue:)).map { !StateKey.orientationState.contains($0) } ?? false
    guard let snapshot = state(keys: named ? field : nil) else { return lost() }
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

  /// Sends `get` (`get KEYS` with `keys`) and collects the state up to its `ok`; nil when the
  /// connection ended or orientd refused (the reason is then left for `lost()` or printed).
  func state(keys: String? = nil) -> StateSnapshot? {
    guard connection.send("get" + (keys.map { " " + $0 } ?? "")) else { return nil }
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
    /// The orientd systemd started for the connection cannot start (a config mistake); what
    /// it said.
    case cannotStart(String)
  }

  /// Prints every state line until interrupted, until nobody reads the output, or until the
  /// connection ends. `printed` carries what monitor-sensor's format last showed, across
  /// reconnections. With `supports`, the orientation lines are worked out within those
  /// orientations: the state sent on connect (the policy's) is skipped, and asked for again
  /// once orientd has accepted the set.
  func monitor(
    style: MonitorStyle, supports: AllowedOrientations? = nil, printed: inout MonitorSensorFormat.Shown?
  ) -> MonitorEnd {
    // The commands sent, whose replies come back in this order.
    var awaited: [MonitorRequest] = []
    func send(_ request: MonitorRequest) -> Bool {
      awaited.append(request)
      return connection.send(request.line)
    }
    // A send fails when orientd closed first; what it said before closing (it turned the
    // connection away, or cannot start) may still be there to read, and decides the end.
    func whyClosed() -> MonitorEnd {
      while let line = connection.readLine() {
        if line.hasPrefix(Self.badConfigPrefix) {
          return .cannotStart(String(line.dropFirst(Self.badConfigPrefix.count)))
        }
        if line.hasPrefix("error ") { return .refused(refused(line)) }
      }
      return .lost
    }
    var requests: [MonitorRequest] = supports.map { [.supports($0.listText)] } ?? []
    // The state sent on connect is text: it is asked for again in JSON, or within `supports`.
    if style == .json { requests.append(.format) }
    if supports != nil || style == .json { requests.append(.state) }
    // The readings too, as monitor-sensor claims every sensor; the heading only where this
    // user may have it (orientd keeps it for root, its own user and geoclue, as on D-Bus).
    requests.append(.subscribe(Self.everything))
    // monitor-sensor's lines start with the readings' first values.
    if style == .iioSensorProxy { requests.append(.readings(Self.readingKeys)) }
    for request in requests {
      guard send(request) else { return whyClosed() }
    }
    var pending: [StateChange] = []
    var greeted = false
    // The readings printed a value of: only these print `none` or `undefined` after, so that a
    // machine without those sensors shows the orientation state as before.
    var readingsShown: Set<StateKey> = []
    // The readings `get` answered (monitor-sensor's format), until its `ok`.
    var firstReadings: [StateChange] = []
    while let line = connection.readLine(watchingOutput: true) {
      if line.hasPrefix(Self.badConfigPrefix) {
        return .cannotStart(String(line.dropFirst(Self.badConfigPrefix.count)))
      }
      let isError = line.hasPrefix("error ") || line.hasPrefix("{\"reply\":\"error\"")
      if isError || line == "ok" || line.hasPrefix("ok ") || line.hasPrefix("{\"reply\"") {
        // orientd sends an error instead of the state when it turns the connection away.
        guard !awaited.isEmpty else { return isError ? .refused(refused(line)) : .lost }
        let request = awaited.removeFirst()
        switch (request, isError) {
        case (.subscribe, true) where line.hasPrefix("error permission-denied"):
          // No heading for this user: everything else, and the readings' values without it.
          guard send(.subscribe(Self.everythingButHeading)) else { return whyClosed() }
          if style == .iioSensorProxy, !send(.readings(Self.readingKeysButHeading)) { return whyClosed() }
        case (.readings, true) where line.hasPrefix("error permission-denied"):
          break
        case (_, true):
          // None of the orientations supported is allowed, or orientd refused otherwise.
          return .refused(refused(line))
        case (.readings, false):
          guard write(printed?.readingsSnapshot(firstReadings) ?? "") else { return .outputClosed }
          firstReadings = []
        default:
          break
        }
        continue
      }
      // Until the `ok` of `supports`, the lines are the policy's, not this client's.
      if case .supports? = awaited.first { continue }
      switch style {
      case .text, .json:
        guard style == .text ? StateChange(line: line) != nil : line.hasPrefix("{\"event\"") else { continue }
        if let (key, hasValue) = Self.reading(line, json: style == .json) {
          guard hasValue || readingsShown.contains(key) else { continue }
          readingsShown.insert(key)
        }
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
        // A reading before its first value was printed is part of that first value.
        if change.key.readingKind != nil, awaited.contains(where: \.asksReadings) {
          firstReadings.append(change)
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
    // A poll that fails tells nothing: stdout is taken as open, and a write says otherwise.
    let ready = try? Readiness.wait([(StandardStream.output.descriptor, [])], timeout: .zero)
    return ready?.first?.isDisjoint(with: [.error, .hangUp]) ?? true
  }

  /// Writes to stdout; false when it cannot, which callers take as stdout's reader gone (there
  /// is nowhere else to say it).
  func write(_ text: String) -> Bool {
    (try? StandardStream.output.write(text)) != nil
  }

  /// The reading an event line is about, and whether it carries a value (not `none` or
  /// `undefined`); nil for the orientation state's lines.
  static func reading(_ line: String, json: Bool) -> (key: StateKey, hasValue: Bool)? {
    guard json else {
      guard let change = StateChange(line: line), change.key.readingKind != nil else { return nil }
      let words = change.valueText
      return (change.key, words != "none" && words != "undefined")
    }
    let prefix = "{\"event\":\""
    guard line.hasPrefix(prefix) else { return nil }
    let rest = line.dropFirst(prefix.count)
    let marker = "\"value\":"
    guard let quote = rest.firstIndex(of: "\""), let key = StateKey(rawValue: String(rest[..<quote])),
      key.readingKind != nil, let value = rest.indices.first(where: { rest[$0...].hasPrefix(marker) })
    else { return nil }
    let text = rest[value...].dropFirst(marker.count)
    return (key, !(text.hasPrefix("null") || text.hasPrefix("\"none\"") || text.hasPrefix("\"undefined\"")))
  }

  /// A command `monitor` sends, whose reply it waits for.
  enum MonitorRequest {
    case supports(String)
    case format
    /// `get`: the orientation state again.
    case state
    case subscribe(String)
    /// `get` of the readings, for monitor-sensor's first lines.
    case readings(String)

    var line: String {
      switch self {
      case .supports(let list): "supports " + list
      case .format: "format json"
      case .state: "get"
      case .subscribe(let keys): "subscribe " + keys
      case .readings(let keys): "get " + keys
      }
    }

    var asksReadings: Bool {
      if case .readings = self { return true }
      return false
    }
  }

  /// What `monitor` subscribes to: the orientation state, rotation suggestions and every
  /// reading.
  static let everything = "all,suggestion,light,proximity,heading"
  static let everythingButHeading = "all,suggestion,light,proximity"
  static let readingKeys = "light,proximity,heading"
  static let readingKeysButHeading = "light,proximity"

  /// What an orientd that cannot start answers, before its reason.
  static let badConfigPrefix = "error " + ProtocolError.Code.badConfig.rawValue + " "

  func refused(_ reply: String) -> Int32 {
    let detail = reply.hasPrefix("error ") ? String(reply.dropFirst(6)) : reply
    let badConfig = ProtocolError.Code.badConfig.rawValue + " "
    if detail.hasPrefix(badConfig) {
      // Not a refusal: the orientd systemd started for this connection could not start.
      StandardStream.error.report("orientctl: \(detail.dropFirst(badConfig.count))\n")
      return ExitCode.unavailable.rawValue
    }
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
      // systemd holds the system socket and starts orientd for a client: a service that fails
      // to start leaves the client to wait here, so say where the reason is.
      let hint = socket == SocketLocation.system ? "; " + SocketLocation.serviceHint : ""
      StandardStream.error.report(
        "orientctl: orientd at \(socket) did not answer within \(timeout.secondsText) s"
          + " (--timeout)\(hint)\n")
      return ExitCode.unavailable.rawValue
    }
    let hint = socket == SocketLocation.system ? "; " + SocketLocation.serviceHint : ""
    StandardStream.error.report("orientctl: orientd at \(socket) closed the connection\(hint)\n")
    return ExitCode.unavailable.rawValue
  }
}

/// The lines monitor-sensor (from iio-sensor-proxy) prints, for the accelerometer, the light
/// sensor, the proximity sensor and the compass.
///
/// monitor-sensor shows iio-sensor-proxy's properties, which `SensorProxyAccelerometer` and
/// `SensorProxyReadings` work out from orientd's state (the device's four-way orientation: a
/// lock changes nothing, lying flat keeps the last value; the readings of claimed sensors). It
/// prints an orientation only while there is an accelerometer, and only when it differs from
/// the last one it printed; a reading when its property changes.
enum MonitorSensorFormat {
  /// What the output last said: whether there is an accelerometer, and its orientation, and
  /// what was shown of the readings.
  struct Shown: Equatable {
    private var state = SensorProxyAccelerometer(source: .device)
    private var readings: SensorProxyReadings = {
      // monitor-sensor claims every sensor it shows.
      var readings = SensorProxyReadings()
      for kind in SensorKind.readingKinds { _ = readings.setClaimed(kind, true) }
      return readings
    }()
    /// The orientation last printed; nil is `undefined`.
    private(set) var orientation: ScreenOrientation?
    /// Whether the readings' first lines were printed (on an earlier connection).
    private var readingsShown = false

    var online: Bool { state.hasAccelerometer }

    init(_ state: [StateChange]) {
      for change in state { _ = record(change) }
    }

    /// Takes `change` into account and returns the lines monitor-sensor prints for it, nil
    /// when what it shows stays the same.
    mutating func record(_ change: StateChange) -> String? {
      guard change.key.readingKind == nil else {
        let text = readings.apply(change).compactMap(line).joined()
        return text.isEmpty ? nil : text
      }
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

    /// The line monitor-sensor prints when `property` changes, if any.
    private func line(_ property: SensorProxyReadings.Property) -> String? {
      switch property {
      case .hasAmbientLight:
        return readings.hasAmbientLight ? "+++ Light sensor appeared\n" : "--- Light sensor disappeared\n"
      case .lightLevel:
        let level = readings.lightLevel
        return
          "    Light changed: \(DecimalFormatting.fixed(level.value, decimals: 6)) (\(level.unit.rawValue))\n"
      case .hasProximity:
        return readings.hasProximity
          ? "+++ Proximity sensor appeared\n" : "--- Proximity sensor disappeared\n"
      case .proximityNear:
        return "    Proximity value changed: \(readings.proximityNear ? 1 : 0)\n"
      case .hasCompass:
        return readings.hasCompass ? "+++ Compass appeared\n" : "--- Compass disappeared\n"
      case .compassHeading:
        return
          "    Compass heading changed: \(DecimalFormatting.fixed(readings.compassHeading, decimals: 6))\n"
      case .lightLevelUnit:
        return nil
      }
    }

    /// The first lines of the readings, from their first values (`readings` is what `get`
    /// answered; a kind it left out is not shown, as monitor-sensor shows the compass only
    /// to geoclue). Later changes of them print as changes.
    mutating func readingsSnapshot(_ first: [StateChange]) -> String {
      // After a reconnection, only what changed while orientd was away.
      guard !readingsShown else { return first.compactMap { record($0) }.joined() }
      readingsShown = true
      for change in first { _ = readings.apply(change) }
      // Once per sensor, in the order they came (a value may have come twice: as the first
      // value of a subscription and in the reply).
      var said: Set<StateKey> = []
      var text = ""
      for change in first where said.insert(change.key).inserted {
        switch change {
        case .light:
          let level = readings.lightLevel
          text +=
            readings.hasAmbientLight
            ? "=== Has ambient light sensor (value: \(DecimalFormatting.fixed(level.value, decimals: 6)), unit: \(level.unit.rawValue))\n"
            : "=== No ambient light sensor\n"
        case .proximity:
          text +=
            readings.hasProximity
            ? "=== Has proximity sensor (near: \(readings.proximityNear ? 1 : 0))\n"
            : "=== No proximity sensor\n"
        case .heading:
          text +=
            readings.hasCompass
            ? "=== Has compass (heading: \(DecimalFormatting.fixed(readings.compassHeading, decimals: 6)))\n"
            : "=== No compass\n"
        default:
          break
        }
      }
      return text
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
