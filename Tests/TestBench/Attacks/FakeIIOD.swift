import OrientSystem

// `orientd-testbench attack fake-iiod MODE [--port N] [--announce BYTES] [--send BYTES]
// [--devices N] [--serve N] [--read-error N] [--lie-once]` or `fake-iiod dtd PATH`: a hostile
// iiod on 127.0.0.1 for `orientd --uri ip:...`.
//
// It speaks as much of iiod's text protocol as libiio 0.24's client uses to open a context and
// poll attributes (PRINT, VERSION, TIMEOUT, READ), and prints `port N` once it listens (N is
// a free port unless --port gives one), then `connection N`, `announced BYTES` and `sent BYTES`
// lines as clients come and go. It serves until killed.
//
// Modes:
// - `huge`: answers PRINT with --announce BYTES (default 2147483647, the most libiio takes),
//   then sends --send bytes of filler (default: all of it, as fast as the client reads).
// - `devices`: a well-formed context of --devices trivial devices (default 5000).
// - `newline`: one accelerometer, upright in `normal`, whose name and label hold newlines and
//   other line breaks meant to forge reply and log lines.
// - `dtd PATH`: a context whose DOCTYPE names PATH, a file on the client's machine, as its
//   external DTD (libxml2 would open it there, and print its first line in a parse error).
// With --read-error N, every READ is answered with N, as an errno (libiio passes it on as
// the read's result: -2147483648 is none). With --serve N, PRINTs after the Nth are answered with an error (EIO), so a test can tell when
// the client is done with the context. With --lie-once, the first PRINT is answered with a
// one-device context, as a server that shows a small face to a size check and a large one to
// libiio.

/// The hostile server's options.
private struct FakeIIODOptions {
  enum Mode: String {
    case huge
    case devices
    case newline
    case dtd
  }

  var mode: Mode
  var port: UInt16 = 0
  var announce = 2_147_483_647
  var send: Int?
  var devices = 5000
  var serve = Int.max
  var readError: Int?
  var lieOnce = false
  var dtdPath = ""

  init(_ arguments: [String]) throws {
    guard let first = arguments.first, let mode = Mode(rawValue: first) else {
      throw SystemError("fake-iiod: MODE is huge, devices, newline or dtd", code: .invalidArgument)
    }
    self.mode = mode
    var rest = arguments.dropFirst()
    if mode == .dtd {
      guard let path = rest.popFirst() else {
        throw SystemError("fake-iiod: dtd PATH", code: .invalidArgument)
      }
      dtdPath = path
    }
    while let option = rest.popFirst() {
      if option == "--lie-once" {
        lieOnce = true
        continue
      }
      guard let text = rest.popFirst(), let value = Int(text), value >= 0 || option == "--read-error" else {
        throw SystemError("fake-iiod: \(option) needs a number", code: .invalidArgument)
      }
      switch option {
      case "--port": port = UInt16(clamping: value)
      case "--announce": announce = min(value, Int(Int32.max))
      case "--send": send = value
      case "--devices": devices = value
      case "--serve": serve = value
      case "--read-error": readError = value
      default: throw SystemError("fake-iiod: unknown option \(option)", code: .invalidArgument)
      }
    }
  }
}

/// libiio's context DTD (context.c), so the XML validates as a real server's does.
private let contextHeader =
  "<?xml version=\"1.0\" encoding=\"utf-8\"?><!DOCTYPE context ["
  + "<!ELEMENT context (device | context-attribute)*><!ELEMENT context-attribute EMPTY>"
  + "<!ELEMENT device (channel | attribute | debug-attribute | buffer-attribute)*>"
  + "<!ELEMENT channel (scan-element?, attribute*)><!ELEMENT attribute EMPTY>"
  + "<!ELEMENT scan-element EMPTY><!ELEMENT debug-attribute EMPTY><!ELEMENT buffer-attribute EMPTY>"
  + "<!ATTLIST context name CDATA #REQUIRED version-major CDATA #REQUIRED "
  + "version-minor CDATA #REQUIRED version-git CDATA #REQUIRED description CDATA #IMPLIED>"
  + "<!ATTLIST context-attribute name CDATA #REQUIRED value CDATA #REQUIRED>"
  + "<!ATTLIST device id CDATA #REQUIRED name CDATA #IMPLIED label CDATA #IMPLIED>"
  + "<!ATTLIST channel id CDATA #REQUIRED type (input|output) #REQUIRED name CDATA #IMPLIED>"
  + "<!ATTLIST scan-element index CDATA #REQUIRED format CDATA #REQUIRED scale CDATA #IMPLIED>"
  + "<!ATTLIST attribute name CDATA #REQUIRED filename CDATA #IMPLIED>"
  + "<!ATTLIST debug-attribute name CDATA #REQUIRED><!ATTLIST buffer-attribute name CDATA #REQUIRED>]>"
  + "<context name=\"network\" version-major=\"0\" version-minor=\"24\" version-git=\"fakeiio\" "
  + "description=\"fake iiod\" >"

/// What follows a newline in the name: a line as an `info` reply has them.
private let forgedReply = "info forged yes"
/// What follows a newline in the label: a line as orientd's log has them.
private let forgedLog = "orientd: info: orientation left-up"

/// An accelerometer whose texts try to start lines of their own (`&#10;` is a newline, `&#13;`
/// a carriage return and `&#133;` a C1 next-line once libxml2 has parsed them; XML 1.0 has no
/// way to write the other C0 controls).
private let newlineContext =
  contextHeader
  + "<device id=\"iio:device0\" name=\"accel_3d&#10;\(forgedReply)\" label=\"accel-display&#13;&#10;\(forgedLog)&#133;\" >"
  + ["x", "y", "z"].map { axis in
    "<channel id=\"accel_\(axis)\" type=\"input\" >"
      + "<attribute name=\"raw\" filename=\"in_accel_\(axis)_raw\" />"
      + "<attribute name=\"scale\" filename=\"in_accel_scale\" />"
      + "</channel>"
  }.joined()
  + "</device></context>"

/// A context of `count` devices with nothing in them.
private func devicesContext(_ count: Int) -> String {
  var xml = contextHeader
  for index in 0..<count { xml += "<device id=\"iio:device\(index)\" name=\"d\(index)\" />" }
  return xml + "</context>"
}

/// The value of a READ in `newline` mode: an upright device, 256 raw units a g.
private func attributeValue(_ words: [Substring]) -> String? {
  guard let attribute = words.last else { return nil }
  switch (words.count >= 4 ? words[3] : "", attribute) {
  case ("accel_y", "raw"): return "-256"
  case (_, "raw"): return "0"
  case (_, "scale"): return "0.038307"
  default: return nil
  }
}

/// One client of the fake server.
private final class FakeIIODClient {
  let descriptor: FileDescriptor
  let number: Int
  var watch: Watch?
  var input: [UInt8] = []
  var output: [UInt8] = []
  var outputOffset = 0
  /// Filler bytes still to send after a PRINT in `huge` mode.
  var fillerLeft = 0
  var sent = 0

  init(descriptor: consuming FileDescriptor, number: Int) {
    self.descriptor = descriptor
    self.number = number
  }
}

/// The server: one loop, every client non-blocking.
private final class FakeIIOD {
  let options: FakeIIODOptions
  let loop: EventLoop
  let listener: FileDescriptor
  var clients: [Int: FakeIIODClient] = [:]
  var connections = 0
  var printsAnswered = 0
  let filler = [UInt8](repeating: UInt8(ascii: " "), count: 1 << 16)
  let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)

  init(options: FakeIIODOptions) throws {
    self.options = options
    loop = try EventLoop()
    listener = try InternetSocket.listenOnLoopbackForTesting(port: options.port)
  }

  func run() throws {
    report("port \(try listener.boundPort())")
    _ = try loop.watch(listener.rawValue) { [unowned self] _ in self.acceptAll() }
    try loop.run()
  }

  func report(_ line: String) { StandardStream.output.report(line + "\n") }

  func acceptAll() {
    while let accepted = try? listener.accept() {
      connections += 1
      let client = FakeIIODClient(descriptor: accepted, number: connections)
      report("connection \(connections)")
      do {
        client.watch = try loop.watch(client.descriptor.rawValue, for: .readable) { [unowned self] events in
          self.serve(client, events)
        }
        clients[client.number] = client
      } catch {
        report("error watching connection \(connections): \(error)")
      }
    }
  }

  func serve(_ client: FakeIIODClient, _ events: IOEvents) {
    if events.contains(.readable) || events.contains(.hangUp) || events.contains(.error) {
      while true {
        let count: Int?
        do {
          count = try client.descriptor.receive(into: buffer)
        } catch {
          return drop(client)
        }
        guard let count else { break }
        guard count > 0 else { return drop(client) }
        client.input += buffer[0..<count]
      }
      handleCommands(client)
    }
    flush(client)
  }

  func handleCommands(_ client: FakeIIODClient) {
    while client.fillerLeft == 0, let end = client.input.firstIndex(of: UInt8(ascii: "\n")) {
      let line = String(decoding: client.input[..<end], as: UTF8.self)
      client.input.removeSubrange(...end)
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\r" })
      switch words.first {
      case "PRINT": answerPrint(client)
      case "VERSION": queue(client, "0.24.fakeiio\n")
      case "TIMEOUT": queue(client, "0\n")
      case "READ" where options.readError != nil:
        queue(client, "\(options.readError ?? 0)\n")
      case "READ" where options.mode == .newline:
        if let value = attributeValue(words) {
          queue(client, "\(value.utf8.count)\n\(value)\n")
        } else {
          queue(client, "-2\n")
        }
      default: queue(client, "-22\n")
      }
    }
  }

  func answerPrint(_ client: FakeIIODClient) {
    printsAnswered += 1
    if printsAnswered > options.serve {
      report("announced -5")
      return queue(client, "-5\n")
    }
    if options.lieOnce, printsAnswered == 1 {
      let small = devicesContext(1)
      report("announced \(small.utf8.count)")
      return queue(client, "\(small.utf8.count)\n\(small)\n")
    }
    switch options.mode {
    case .huge:
      report("announced \(options.announce)")
      queue(client, "\(options.announce)\n")
      // libiio reads the announced length and its newline.
      client.fillerLeft = options.send ?? (options.announce + 1)
    case .devices:
      let xml = devicesContext(options.devices)
      report("announced \(xml.utf8.count)")
      queue(client, "\(xml.utf8.count)\n\(xml)\n")
    case .newline:
      report("announced \(newlineContext.utf8.count)")
      queue(client, "\(newlineContext.utf8.count)\n\(newlineContext)\n")
    case .dtd:
      let xml =
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><!DOCTYPE context SYSTEM \"\(options.dtdPath)\">"
        + "<context name=\"network\" version-major=\"0\" version-minor=\"24\" version-git=\"fakeiio\" ></context>"
      report("announced \(xml.utf8.count)")
      queue(client, "\(xml.utf8.count)\n\(xml)\n")
    }
  }

  func queue(_ client: FakeIIODClient, _ text: String) { client.output += Array(text.utf8) }

  /// Sends what the socket takes: queued replies first, then filler.
  func flush(_ client: FakeIIODClient) {
    do {
      while client.outputOffset < client.output.count {
        guard let sent = try client.descriptor.send(client.output[client.outputOffset...]) else {
          return wantWritable(client, true)
        }
        client.outputOffset += sent
        client.sent += sent
      }
      client.output.removeAll(keepingCapacity: true)
      client.outputOffset = 0
      while client.fillerLeft > 0 {
        let chunk = filler[0..<min(filler.count, client.fillerLeft)]
        guard let sent = try client.descriptor.send(chunk) else { return wantWritable(client, true) }
        client.fillerLeft -= sent
        client.sent += sent
      }
      wantWritable(client, false)
    } catch {
      drop(client)
    }
  }

  func wantWritable(_ client: FakeIIODClient, _ writable: Bool) {
    guard let watch = client.watch else { return }
    // Only out of memory: the client would stall, which the test that drives it sees.
    try? loop.change(watch, to: writable ? [.readable, .writable] : .readable)
  }

  func drop(_ client: FakeIIODClient) {
    guard let watch = client.watch else { return }
    loop.unwatch(watch)
    client.watch = nil
    clients[client.number] = nil
    report("sent \(client.sent)")
  }
}

/// `fake-iiod`: serves hostile contexts until killed.
let fakeIIODAttack = Attack(
  usage:
    "huge|devices|newline|dtd PATH [--port N] [--announce BYTES] [--send BYTES] [--devices N] [--serve N] "
    + "[--read-error N] [--lie-once]"
) { arguments in
  let server = try FakeIIOD(options: try FakeIIODOptions(arguments))
  try server.run()
}
