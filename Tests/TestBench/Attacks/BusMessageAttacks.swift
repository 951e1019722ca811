import Glibc
import OrientSystem

// Attacks with the messages themselves: as large as the bus lets through, aimed where the
// service exports nothing, or never read.

/// `bus-big-calls ADDRESS BYTES COUNT [SHAPE]`: COUNT calls of each shape, each carrying
/// BYTES of arguments: `claim` (`ClaimAccelerometer` with a byte array: a wrong signature),
/// `get` (`Properties.Get` of a property whose name has BYTES characters: an unknown
/// property) and `introspect` (`Introspect` with a byte array); SHAPE picks one. Prints `calls N`, each distinct outcome as `outcome NAME COUNT` (`ok` for a
/// method return) and `seconds S`.
let busBigCalls = Attack(usage: "ADDRESS BYTES COUNT [claim|get|introspect]: calls with BYTES of arguments") {
  arguments in
  let arguments = AttackArguments(arguments)
  let client = try BusAttackClient(address: try arguments.text(0, "ADDRESS"))
  let bytes = try arguments.number(1, "BYTES")
  let count = try arguments.number(2, "COUNT")
  let name = String(repeating: "A", count: bytes)
  let every: [(String, String?, String, [BusAttackClient.Argument])] = [
    ("claim", SensorProxyTarget.interface, "ClaimAccelerometer", [.bytes(count: bytes)]),
    ("get", "org.freedesktop.DBus.Properties", "Get", [.string(SensorProxyTarget.interface), .string(name)]),
    ("introspect", "org.freedesktop.DBus.Introspectable", "Introspect", [.bytes(count: bytes)]),
  ]
  let chosen = arguments.values.count > 3 ? try arguments.text(3, "SHAPE") : nil
  let shapes = every.filter { chosen == nil || $0.0 == chosen }.map { ($0.1, $0.2, $0.3) }
  guard !shapes.isEmpty else { throw AttackUsage(description: "SHAPE must be claim, get or introspect") }
  var outcomes: [String: Int] = [:]
  let start = MonotonicInstant.now
  for _ in 0..<count {
    for (interface, member, values) in shapes {
      let error = try client.call(SensorProxyTarget.name, SensorProxyTarget.path, interface, member, values)
      outcomes[error ?? "ok", default: 0] += 1
    }
  }
  figure("calls", String(count * shapes.count))
  for (outcome, times) in outcomes.sorted(by: { $0.key < $1.key }) {
    figure("outcome", "\(outcome) \(times)")
  }
  figure("seconds", fixed(start.elapsed.inSeconds, 2))
}

/// `bus-odd-calls ADDRESS`: calls the service where it exports nothing or forbids: other
/// objects and interfaces, `Properties.Set`, `GetAll` of unknown interfaces, `Introspect` on
/// paths above, below and beside its objects, and a call without an interface. Prints
/// `LABEL OUTCOME` for each (`ok` for a method return).
let busOddCalls = Attack(usage: "ADDRESS: calls to unexported objects, interfaces and members") { arguments in
  let arguments = AttackArguments(arguments)
  let client = try BusAttackClient(address: try arguments.text(0, "ADDRESS"))
  let properties = "org.freedesktop.DBus.Properties"
  let introspectable = "org.freedesktop.DBus.Introspectable"
  let main = SensorProxyTarget.path
  let compass = main + "/Compass"
  let calls: [(String, String, String?, String, [BusAttackClient.Argument])] = [
    (
      "set", main, properties, "Set",
      [.string(SensorProxyTarget.interface), .string("AccelerometerOrientation"), .variantString("left-up")]
    ),
    (
      "set-unknown", main, properties, "Set",
      [.string("org.example.Nothing"), .string("X"), .variantString("y")]
    ),
    ("getall-unknown-interface", main, properties, "GetAll", [.string("org.example.Nothing")]),
    ("getall-compass-on-main", main, properties, "GetAll", [.string("net.hadess.SensorProxy.Compass")]),
    (
      "get-compass-on-main", main, properties, "Get",
      [.string("net.hadess.SensorProxy.Compass"), .string("HasCompass")]
    ),
    ("claim-compass-on-main", main, "net.hadess.SensorProxy.Compass", "ClaimCompass", []),
    ("claim-on-compass", compass, SensorProxyTarget.interface, "ClaimAccelerometer", []),
    ("claim-elsewhere", "/net/hadess/Other", SensorProxyTarget.interface, "ClaimAccelerometer", []),
    ("claim-no-interface", main, nil, "ClaimAccelerometer", []),
    ("unknown-interface", main, "org.example.Nothing", "Frobnicate", []),
    ("introspect-root", "/", introspectable, "Introspect", []),
    ("introspect-below", compass + "/a/b/c", introspectable, "Introspect", []),
    ("introspect-beside", "/net/hadess/Other", introspectable, "Introspect", []),
    ("object-manager", main, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", []),
    ("ping", main, "org.freedesktop.DBus.Peer", "Ping", []),
    ("machine-id", main, "org.freedesktop.DBus.Peer", "GetMachineId", []),
  ]
  for (label, path, interface, member, values) in calls {
    figure(
      label,
      try client.call(SensorProxyTarget.name, path, interface, member, values, timeout: .seconds(10)) ?? "ok")
  }
}

/// `bus-long-paths ADDRESS COUNT`: COUNT calls of `Introspect` on an object path of 32,000
/// components (64 KB, just under what sd-bus accepts) where nothing is exported: a service
/// that looks the path up by each of its prefixes in turn works quadratically on it. Prints
/// `outcome NAME` of the last call and `seconds S` for all of them.
let busLongPaths = Attack(usage: "ADDRESS COUNT: calls on object paths of 64 KB") { arguments in
  let arguments = AttackArguments(arguments)
  let client = try BusAttackClient(address: try arguments.text(0, "ADDRESS"))
  let path = String(repeating: "/a", count: 32_000)
  var outcome = "none"
  let start = MonotonicInstant.now
  for _ in 0..<(try arguments.number(1, "COUNT")) {
    outcome =
      try client.call(
        SensorProxyTarget.name, path, "org.freedesktop.DBus.Introspectable", "Introspect",
        timeout: .seconds(60))
      ?? "ok"
  }
  figure("outcome", outcome)
  figure("seconds", fixed(start.elapsed.inSeconds, 2))
}

/// `bus-deaf-listeners ADDRESS COUNT`: COUNT connections ask the bus for the service's
/// `PropertiesChanged`, claim the accelerometer (so that it signals), shrink their receive
/// buffers and never read again. Prints `listening COUNT` and holds them until killed.
let busDeafListeners = Attack(usage: "ADDRESS COUNT: connections that subscribe and never read, until killed")
{
  arguments in
  let arguments = AttackArguments(arguments)
  let address = try arguments.text(0, "ADDRESS")
  let count = try arguments.number(1, "COUNT")
  raiseOpenFileLimit(to: count + 64)
  var held: [BusAttackClient] = []
  for _ in 0..<count {
    let client = try BusAttackClient(address: address)
    try client.addMatch(
      "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path='\(SensorProxyTarget.path)'"
    )
    _ = try client.call(
      SensorProxyTarget.name, SensorProxyTarget.path, SensorProxyTarget.interface, "ClaimAccelerometer")
    client.shrinkReceiveBuffer()
    held.append(client)
  }
  figure("listening", String(held.count))
  holdUntilKilled()
}
