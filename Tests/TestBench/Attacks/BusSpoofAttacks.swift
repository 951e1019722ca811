import OrientSystem

// Attacks that pretend to be the bus daemon. Only the bus daemon may say that a name changed
// hands; it sends those signals from `org.freedesktop.DBus`. Any client may address a signal
// with the same path, interface and member to one connection: the bus stamps the client's own
// unique name as its sender, and the receiver must check it.

/// `bus-spoof ADDRESS TARGET SIGNAL [CLIENT]`: sends TARGET (a unique name, or `owner` for
/// the owner of net.hadess.SensorProxy) one signal made up to look like the bus daemon's:
/// `name-lost` (NameLost of net.hadess.SensorProxy), `name-acquired` (NameAcquired of it),
/// or `client-gone` (NameOwnerChanged saying that CLIENT left the bus). Prints `target NAME`
/// and `sent SIGNAL`.
let busSpoof = Attack(usage: "ADDRESS TARGET|owner name-lost|name-acquired|client-gone [CLIENT]") {
  arguments in
  let arguments = AttackArguments(arguments)
  let client = try BusAttackClient(address: try arguments.text(0, "ADDRESS"))
  var target = try arguments.text(1, "TARGET")
  if target == "owner" {
    guard let owner = try client.owner(of: SensorProxyTarget.name) else {
      throw AttackUsage(description: "\(SensorProxyTarget.name) has no owner")
    }
    target = owner
  }
  let signal = try arguments.text(2, "SIGNAL")
  let member: String
  let values: [BusAttackClient.Argument]
  switch signal {
  case "name-lost":
    (member, values) = ("NameLost", [.string(SensorProxyTarget.name)])
  case "name-acquired":
    (member, values) = ("NameAcquired", [.string(SensorProxyTarget.name)])
  case "client-gone":
    let gone = try arguments.text(3, "CLIENT")
    (member, values) = ("NameOwnerChanged", [.string(gone), .string(gone), .string("")])
  default:
    throw AttackUsage(description: "SIGNAL must be name-lost, name-acquired or client-gone")
  }
  try client.sendSignal(
    to: target, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: member, values)
  // A round trip to the bus daemon: it has routed the signal before it answers this.
  _ = try client.owner(of: SensorProxyTarget.name)
  figure("target", target)
  figure("sent", signal)
}

/// `bus-take-name ADDRESS`: asks the bus for net.hadess.SensorProxy as a hostile service
/// would: plainly, replacing the owner, and queueing. Prints `request-FLAGS OUTCOME` for each
/// (the error's name, or the RequestName result code) and `owner NAME` afterwards.
let busTakeName = Attack(usage: "ADDRESS: try to own net.hadess.SensorProxy") { arguments in
  let arguments = AttackArguments(arguments)
  let client = try BusAttackClient(address: try arguments.text(0, "ADDRESS"))
  // RequestName's flags: 0x2 replace the owner, 0x4 do not queue.
  for flags: UInt32 in [0, 2, 4, 6] {
    let outcome = try client.requestName(SensorProxyTarget.name, flags: flags)
    figure("request-\(flags)", outcome)
  }
  figure("owner", try client.owner(of: SensorProxyTarget.name) ?? "none")
}

/// `bus-big-signals ADDRESS BYTES COUNT`: sends the owner of net.hadess.SensorProxy COUNT
/// signals shaped like the bus daemon's NameOwnerChanged, each carrying BYTES of arguments
/// (a byte array after the three names), as fast as the bus takes them: a client that tries to
/// fill the bus daemon's queue to orientd. Prints `target NAME` and `sent N`.
let busBigSignals = Attack(usage: "ADDRESS BYTES COUNT: big unicast signals to orientd") { arguments in
  let arguments = AttackArguments(arguments)
  let client = try BusAttackClient(address: try arguments.text(0, "ADDRESS"))
  let bytes = try arguments.number(1, "BYTES")
  let count = try arguments.number(2, "COUNT")
  guard let target = try client.owner(of: SensorProxyTarget.name) else {
    throw AttackUsage(description: "\(SensorProxyTarget.name) has no owner")
  }
  let gone = client.uniqueName
  for _ in 0..<count {
    try client.sendSignal(
      to: target, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
      member: "NameOwnerChanged",
      [.string(gone), .string(gone), .string(""), .bytes(count: bytes)])
  }
  // A round trip to the bus daemon: it has routed every signal before it answers this.
  _ = try client.owner(of: SensorProxyTarget.name)
  figure("target", target)
  figure("sent", String(count))
}
