import CSystemd
import Glibc
import OrientSystem

/// A connection to a message bus, driven by an `EventLoop`: no thread of its own and no
/// blocking call on the loop.
///
/// sd-bus does the protocol (authentication, `Hello`, queues, replies); the loop watches the
/// connection's descriptor for the events sd-bus asks for and keeps sd-bus's timeout as a
/// `LoopTimer`. Each wake-up runs `sd_bus_process` until it has nothing left, then reads the
/// events and timeout afresh, since processing changes both (a queued write wants the
/// descriptor writable, a sent call arms a reply timeout).
///
/// Use it on the loop's thread only: sd-bus objects are not thread-safe. What the connection
/// has to say arrives as `BusEvent`s, delivered after sd-bus has returned, so a handler may
/// close the connection. When the bus goes away the connection reports `.disconnected` and
/// stops watching; reconnecting means opening a new `BusConnection`.
///
/// Why this type is large (about 16 stored properties, over 400 lines): sd-bus needs a driver
/// that keeps its descriptor's events, its timeout and its processing state together, and the
/// connection owns what sd-bus hands back only while it lives (exported objects, name
/// requests, peer watches, calls in flight). Name requests and peer watches already live in
/// types of their own (`BusNameRequests`, `BusPeerWatch`).
package final class BusConnection {
  /// Which bus this connects to.
  let address: BusAddress
  /// How many times the loop woke this connection (its descriptor or its timer), for the
  /// tests: after a disconnection it must stay still.
  private(set) var wakeUpsForTesting = 0

  private let loop: EventLoop
  private let handler: (BusEvent) -> Void
  private let screening: BusCallScreening?
  /// The sd-bus object; nil once closed or disconnected.
  private(set) var bus: OpaquePointer?
  private var watch: Watch?
  private var watchedEvents: IOEvents = []
  private var timer: LoopTimer?
  /// The names asked for, and what the bus last said about each.
  private lazy var names = BusNameRequests(connection: self)
  /// Events and call completions raised while sd-bus runs, handed out once it has returned.
  private var pending: [() -> Void] = []
  /// Whether sd-bus is processing: what a method handler sends then waits for its reply.
  private var processing = false
  /// The exported objects, alive as long as their slots.
  private var exported: [ExportedObject] = []
  /// The clients watched for leaving the bus.
  private lazy var peers = BusPeerWatch(connection: self)
  /// A signal that cannot be queued is logged, but not for every change.
  private var emitFailure = RateLimitedWarning()
  /// Why the loop could not watch the events sd-bus asked for; the connection is then lost.
  private var watchFailure: SystemError?

  /// Bounds the messages handled in one wake-up, so a flood on the bus cannot keep the loop
  /// from its other descriptors and timers; the rest is handled on the next round.
  private static let processRounds = 64

  /// Connects to `address`; `handler` gets the connection's events on `loop`, and
  /// `screening`, when given, sees every method call before sd-bus dispatches it and may
  /// answer it instead (a call that would cost more than it is worth).
  ///
  /// Only the socket's connect happens here (immediate for a local socket); authentication
  /// and `Hello` proceed on the loop. Messages sent before then wait in sd-bus's queue.
  package init(
    _ address: BusAddress, loop: EventLoop, screening: BusCallScreening? = nil,
    handler: @escaping (BusEvent) -> Void
  ) throws(SystemError) {
    self.address = address
    self.loop = loop
    self.screening = screening
    self.handler = handler
    bus = try Self.open(address)
    do throws(SystemError) {
      try start()
    } catch {
      close()
      throw error
    }
  }

  deinit { close() }

  /// The unique name the bus gave this connection (`:1.42`), once `Hello` was answered. Only
  /// the tests ask it (orientd names itself by its well-known name).
  var uniqueNameForTesting: String? {
    // sd_bus_get_unique_name waits for the Hello reply when it has not come: ask only when ready.
    guard let bus, sd_bus_is_ready(bus) > 0 else { return nil }
    var name: UnsafePointer<CChar>?
    guard sd_bus_get_unique_name(bus, &name) >= 0, let name else { return nil }
    return String(cString: name)
  }

  /// Whether the connection is open (not closed and not lost).
  var isOpen: Bool { bus != nil }

  /// Whether the loop watches the connection's descriptor: for the tests, which check that a
  /// lost connection leaves the loop.
  var isWatchingForTesting: Bool { watch != nil }

  /// What the bus last said about `name`: nil before its answer or if the name was not requested.
  func ownership(of name: String) -> NameOwnership? { names.ownership(of: name) }

  /// Asks the bus for `name`, queueing behind its owner if it has one and never replacing it.
  ///
  /// The answer arrives as `.name(name, .owned)` or `.queued`, then follows `NameAcquired` and
  /// `NameLost`; a refusal arrives as `.nameRequestFailed`.
  package func requestName(_ name: String) throws(SystemError) {
    guard let bus else { throw SystemError("request name \(name) on \(address)", code: .notConnected) }
    try names.request(name, on: bus, operation: "request name \(name) on \(address)")
    updateLoop()
  }

  /// Calls a method that takes no arguments, without waiting for its reply: the tests' way to
  /// drive a connection; orientd itself only answers calls and emits signals.
  ///
  /// `completion` gets nil when the method returned, else the error's name and message
  /// (`org.freedesktop.DBus.Error.NoReply` when nothing came within `timeout`, nil for
  /// sd-bus's default of 25 s). It runs on the loop after sd-bus has returned, and not at
  /// all if the connection is closed or lost first.
  func callMethodForTesting(
    destination: String, path: String, interface: String, member: String, timeout: Duration? = nil,
    completion: @escaping (String?) -> Void
  ) throws(SystemError) {
    try call(
      "call \(interface).\(member) on \(destination) \(path) on \(address)", destination: destination,
      path: path,
      interface: interface, member: member, timeout: timeout
    ) { [unowned self] message in
      let error = Self.errorText(message)
      pending.append { completion(error) }
    }
  }

  /// Sends a method call without waiting; `handle` gets the reply (nil when sd-bus has none)
  /// while sd-bus processes it. `argument`, when given, is the call's one string argument.
  private func call(
    _ operation: @autoclosure () -> String, destination: String, path: String, interface: String,
    member: String,
    argument: String? = nil, timeout: Duration? = nil, handle: @escaping (OpaquePointer?) -> Void
  ) throws(SystemError) {
    guard let bus else { throw SystemError(operation(), code: .notConnected) }
    var call: OpaquePointer?
    try Self.check(
      operation(), sd_bus_message_new_method_call(bus, &call, destination, path, interface, member))
    defer { sd_bus_message_unref(call) }
    if let argument {
      try Self.check(
        operation(), argument.withCString { sd_bus_message_append_basic(call, CChar(UInt8(ascii: "s")), $0) })
    }
    try ReplyHandler(handle).attach(operation()) { userdata, slot in
      // sd-bus takes microseconds, 0 for its default.
      sd_bus_call_async(
        bus, slot, call, ReplyHandler.callback, userdata,
        timeout.map { UInt64(max(1, $0.wholeNanoseconds / 1000)) } ?? 0)
    }
    updateLoop()
  }

  /// Calls a method of the bus daemon itself that takes one name.
  func callBusDaemon(
    _ member: String, about name: String, operation: @autoclosure () -> String,
    handle: @escaping (OpaquePointer?) -> Void
  ) throws(SystemError) {
    try call(
      operation(), destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
      interface: "org.freedesktop.DBus", member: member, argument: name, handle: handle)
  }

  /// Closes the connection without waiting: what is still queued is dropped, names are
  /// released by the bus as the socket closes. Calling it again does nothing.
  package func close() {
    stopWatching()
    if let bus { sd_bus_close(bus) }
    // Slots hold references to the bus: they go first, so that the bus is freed with it.
    peers.forgetAll()
    for object in exported { object.release() }
    exported = []
    if let bus { sd_bus_unref(bus) }
    bus = nil
    names.forgetAll()
    pending = []
  }

  // MARK: Serving

  /// Exports `object`; its methods and properties are served from the next wake-up on.
  package func export(_ object: BusObject) throws(SystemError) {
    let operation = "export \(object.interface) at \(object.path) on \(address)"
    guard let bus else { throw SystemError(operation, code: .notConnected) }
    let exported = ExportedObject(object, connection: self)
    try Self.check(operation, exported.add(to: bus))
    self.exported.append(exported)
  }

  /// Broadcasts `PropertiesChanged` with the new values of `names`. Sent from a method
  /// handler, it follows the handler's reply.
  package func emitPropertiesChanged(path: String, interface: String, names: [String]) {
    guard !names.isEmpty else { return }
    if processing {
      pending.append { [weak self] in
        self?.emitPropertiesChanged(path: path, interface: interface, names: names)
      }
      return
    }
    guard let bus else { return }
    var list: [UnsafeMutablePointer<CChar>?] = names.map { strdup($0) } + [nil]
    defer { for name in list { free(name) } }
    let result = list.withUnsafeMutableBufferPointer {
      sd_bus_emit_properties_changed_strv(bus, path, interface, $0.baseAddress)
    }
    if result < 0 {
      emitFailure.warn(
        "\(SystemError("emit PropertiesChanged for \(interface) on \(address)", code: Errno(rawValue: -result)))"
      )
    }
    updateLoop()
  }

  /// Reports `.peerGone(name)` when the client with unique name `name` leaves the bus, also
  /// when it has left already. Watching a client twice does nothing.
  package func watchPeer(_ name: String) throws(SystemError) {
    let operation = "watch \(name) on \(address)"
    guard let bus else { throw SystemError(operation, code: .notConnected) }
    try peers.watch(name, on: bus, operation: operation)
  }

  /// Asks the bus which user runs the client `name`; `completion` gets the user id, or nil
  /// when the bus does not know it (the client has gone). It runs on the loop after sd-bus
  /// has returned, and not at all if the connection is closed or lost first.
  package func unixUser(of name: String, completion: @escaping (UInt32?) -> Void) throws(SystemError) {
    try callBusDaemon(
      "GetConnectionUnixUser", about: name, operation: "ask \(address) for the user of \(name)"
    ) {
      [unowned self] message in
      var user: UInt32 = 0
      let known =
        message != nil && sd_bus_message_get_error(message) == nil
        && sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &user) > 0
      pending.append { completion(known ? user : nil) }
    }
  }

  /// Asks the bus which process owns `name` (a unique or a well-known name); `completion` gets
  /// its process id, or nil when the bus does not know it (nobody owns the name now). It runs
  /// on the loop after sd-bus has returned, and not at all if the connection is closed or
  /// lost first.
  package func processID(of name: String, completion: @escaping (UInt32?) -> Void) throws(SystemError) {
    try callBusDaemon(
      "GetConnectionUnixProcessID", about: name, operation: "ask \(address) for the process of \(name)"
    ) {
      [unowned self] message in
      var pid: UInt32 = 0
      let known =
        message != nil && sd_bus_message_get_error(message) == nil
        && sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &pid) > 0
      pending.append { completion(known ? pid : nil) }
    }
  }

  /// Stops watching a client (it has no claims left).
  package func forgetPeer(_ name: String) { peers.forget(name) }

  // MARK: Opening

  private static func open(_ address: BusAddress) throws(SystemError) -> OpaquePointer {
    var bus: OpaquePointer?
    switch address {
    case .system:
      try check("connect to \(address)", sd_bus_open_system(&bus))
    case .session:
      try check("connect to \(address)", sd_bus_open_user(&bus))
    case .address(let text):
      try check("create a bus connection", sd_bus_new(&bus))
      do throws(SystemError) {
        try check("use bus address \(text)", sd_bus_set_address(bus, text))
        // A client of a bus daemon (Hello, names, matches), not a direct peer connection.
        try check("use bus address \(text)", sd_bus_set_bus_client(bus, 1))
        try check("connect to \(text)", sd_bus_start(bus))
      } catch {
        sd_bus_unref(bus)
        throw error
      }
    }
    guard let bus else { throw SystemError("connect to \(address)", code: .invalidArgument) }
    return bus
  }

  /// Watches the descriptor, arms the timer and adds the match rules for the name signals.
  private func start() throws(SystemError) {
    guard let bus else { return }
    // By default sd-bus may exit the process when the bus goes away; the daemon must not.
    try Self.check("configure \(address)", sd_bus_set_exit_on_disconnect(bus, 0))
    let descriptor = sd_bus_get_fd(bus)
    try Self.check("get the descriptor of \(address)", descriptor)
    try names.follow(on: bus, address: address)
    // Floating: the filter belongs to the bus and goes with it.
    let me = Unmanaged.passUnretained(self).toOpaque()
    try Self.check("add a filter on \(address)", sd_bus_add_filter(bus, nil, Self.filter, me))
    timer = LoopTimer(loop: loop) { [weak self] _ in self?.process() }
    watch = try loop.watch(descriptor, for: []) { [weak self] _ in self?.process() }
    updateLoop()
  }

  // MARK: Driving

  /// Runs sd-bus after a wake-up, then hands out what it raised.
  private func process() {
    wakeUpsForTesting += 1
    guard let bus else { return }
    if let watchFailure {
      close()
      raise(.disconnected(reason: watchFailure.description))
      deliver()
      return
    }
    var failure: Int32 = 0
    var finished = false
    processing = true
    for _ in 0..<Self.processRounds {
      let result = sd_bus_process(bus, nil)
      if result < 0 {
        failure = result
        break
      }
      if result == 0 {
        finished = true
        break
      }
    }
    processing = false
    if failure < 0 || sd_bus_is_open(bus) <= 0 {
      let reason =
        failure < 0
        ? SystemError("process \(address)", code: Errno(rawValue: -failure)).description
        : "\(address) closed the connection"
      close()
      raise(.disconnected(reason: reason))
    } else if finished {
      updateLoop()
    } else {
      // More is waiting, perhaps already read into sd-bus's buffer where epoll cannot see it:
      // come back at once, after the loop's other handlers.
      timer?.schedule(after: .zero)
    }
    deliver()
    // What the handlers sent may wait in sd-bus's queue.
    updateLoop()
  }

  /// After something was sent outside processing: watches for writability if sd-bus could not
  /// write it all at once.
  func flush() { updateLoop() }

  /// Watches the events sd-bus wants and arms its timeout.
  private func updateLoop() {
    guard let bus, let watch else { return }
    let events = sd_bus_get_events(bus)
    if events < 0 {
      // Not open any more: the next processing round reports it.
      timer?.schedule(after: .zero)
      return
    }
    var wanted: IOEvents = []
    if events & Int32(POLLIN) != 0 { wanted.insert(.readable) }
    if events & Int32(POLLOUT) != 0 { wanted.insert(.writable) }
    if wanted != watchedEvents {
      do {
        try loop.change(watch, to: wanted)
        watchedEvents = wanted
      } catch {
        // Without the events sd-bus waits for the connection would stall: the next round,
        // at once, reports it lost (not here, where a caller may be in the middle of a send).
        watchFailure = error
        timer?.schedule(after: .zero)
        return
      }
    }
    // An absolute CLOCK_MONOTONIC time in microseconds, UINT64_MAX for none.
    var timeout: UInt64 = 0
    if sd_bus_get_timeout(bus, &timeout) < 0 || timeout == UInt64.max {
      timer?.cancel()
      return
    }
    let (deadline, tooFar) = timeout.multipliedReportingOverflow(by: 1000)
    if tooFar {
      timer?.cancel()
      return
    }
    timer?.schedule(at: MonotonicInstant(nanoseconds: deadline))
  }

  private func stopWatching() {
    if let watch { loop.unwatch(watch) }
    watch = nil
    watchedEvents = []
    timer?.cancel()
  }

  /// Hands out the events raised during processing; a handler that closes the connection
  /// empties `pending`, so nothing stale follows.
  private func deliver() {
    while !pending.isEmpty {
      pending.removeFirst()()
    }
  }

  func raise(_ event: BusEvent) {
    pending.append { [handler] in handler(event) }
  }

  /// The error a reply carries, as `name: message`; nil for a method return.
  static func errorText(_ message: OpaquePointer?) -> String? {
    guard let message else { return "no reply" }
    guard let error = sd_bus_message_get_error(message) else { return nil }
    let name = error.pointee.name.map { String(cString: $0) } ?? "an error"
    let text = error.pointee.message.map { String(cString: $0) } ?? ""
    return text.isEmpty ? name : "\(name): \(text)"
  }

  /// Sees every message before sd-bus dispatches it. A signal from anyone but the bus daemon
  /// is dropped at once: the connection follows no other signal, and a client's signal
  /// (perhaps 32 MiB, shaped like the bus daemon's) costs no match lookup. A method call goes
  /// through the connection's `screening`, whose reply answers it and ends it there.
  private static let filter: sd_bus_message_handler_t = { message, userdata, _ in
    guard let message, let userdata else { return 0 }
    var type: UInt8 = 0
    guard sd_bus_message_get_type(message, &type) >= 0 else { return 0 }
    if type == UInt8(SD_BUS_MESSAGE_SIGNAL) { return isFromBusDaemon(message) ? 0 : 1 }
    guard type == UInt8(SD_BUS_MESSAGE_METHOD_CALL) else { return 0 }
    let connection = Unmanaged<BusConnection>.fromOpaque(userdata).takeUnretainedValue()
    guard let screening = connection.screening else { return 0 }
    let reply = screening(BusCallPreview(message: message))
    _ = sd_bus_message_rewind(message, 1)
    guard let reply else { return 0 }
    _ = BusReply.send(reply, to: message)
    return 1
  }

  /// Whether the bus daemon itself sent `message`.
  ///
  /// A match on `sender='org.freedesktop.DBus'` is not enough: sd-bus cannot check a
  /// well-known sender and lets through any signal addressed to this connection, and any
  /// client may send one. The bus daemon stamps every client's message with the client's
  /// unique name, so only its own messages carry this sender.
  static func isFromBusDaemon(_ message: OpaquePointer) -> Bool {
    guard let sender = sd_bus_message_get_sender(message) else { return false }
    return strcmp(sender, "org.freedesktop.DBus") == 0
  }

  /// sd-bus returns negative errno numbers.
  static func check(_ operation: @autoclosure () -> String, _ result: Int32) throws(SystemError) {
    guard result >= 0 else { throw SystemError(operation(), code: Errno(rawValue: -result)) }
  }
}
