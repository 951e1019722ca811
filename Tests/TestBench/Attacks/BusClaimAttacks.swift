import Glibc
import OrientSystem

// Attacks on the claims of net.hadess.SensorProxy: each claiming client costs the service a
// record and a watch on its connection, so a hostile user tries to hold many of them, or to
// make many that the service must notice going away.

/// `bus-claimants ADDRESS COUNT [RELEASE]`: COUNT connections each claim the accelerometer,
/// then the first RELEASE of those that got their claim release it and stay connected. It
/// prints `claimed N`, `refused N` (with the first refusal's error as `refusal NAME`) and
/// `released N`, then `holding` once all is done, and holds every connection until killed.
let busClaimants = Attack(
  usage: "ADDRESS COUNT [RELEASE]: COUNT connections claim, RELEASE release, until killed"
) {
  arguments in
  let arguments = AttackArguments(arguments)
  let address = try arguments.text(0, "ADDRESS")
  let count = try arguments.number(1, "COUNT")
  let releases = arguments.values.count > 2 ? try arguments.number(2, "RELEASE") : 0
  raiseOpenFileLimit(to: count + 64)
  var held: [BusAttackClient] = []
  var claimers: [BusAttackClient] = []
  var refusal: String?
  var refused = 0
  for _ in 0..<count {
    let client = try BusAttackClient(address: address)
    held.append(client)
    if let error = try client.call(
      SensorProxyTarget.name, SensorProxyTarget.path, SensorProxyTarget.interface, "ClaimAccelerometer")
    {
      refused += 1
      refusal = refusal ?? error
    } else {
      claimers.append(client)
    }
  }
  var released = 0
  for client in claimers.prefix(releases) {
    if try client.call(
      SensorProxyTarget.name, SensorProxyTarget.path, SensorProxyTarget.interface, "ReleaseAccelerometer")
      == nil
    {
      released += 1
    }
  }
  figure("claimed", String(claimers.count))
  figure("refused", String(refused))
  if let refusal { figure("refusal", refusal) }
  figure("released", String(released))
  figure("holding", String(held.count))
  holdUntilKilled()
}

/// `bus-claim-churn ADDRESS COUNT MODE`: COUNT times, a new connection claims the
/// accelerometer and closes. MODE `wait` closes once the claim was answered; `drop` sends the
/// claim and closes at once, so the service handles the claim of a client that is already
/// gone. Prints `cycles N`, `errors N` and `seconds S`.
let busClaimChurn = Attack(usage: "ADDRESS COUNT wait|drop: claim and disconnect COUNT times") { arguments in
  let arguments = AttackArguments(arguments)
  let address = try arguments.text(0, "ADDRESS")
  let count = try arguments.number(1, "COUNT")
  let mode = try arguments.text(2, "MODE")
  guard mode == "wait" || mode == "drop" else { throw AttackUsage(description: "MODE must be wait or drop") }
  let start = MonotonicInstant.now
  var errors = 0
  for _ in 0..<count {
    let client = try BusAttackClient(address: address)
    if mode == "wait" {
      if try client.call(
        SensorProxyTarget.name, SensorProxyTarget.path, SensorProxyTarget.interface, "ClaimAccelerometer")
        != nil
      {
        errors += 1
      }
    } else {
      try client.send(
        SensorProxyTarget.name, SensorProxyTarget.path, SensorProxyTarget.interface, "ClaimAccelerometer")
    }
    client.close()
  }
  figure("cycles", String(count))
  figure("errors", String(errors))
  figure("seconds", fixed(start.elapsed.inSeconds, 2))
}

/// `bus-claim-flood ADDRESS CONNECTIONS INFLIGHT SECONDS`: CONNECTIONS connections each keep
/// INFLIGHT ClaimAccelerometer calls waiting for their answer for SECONDS, sending a new one
/// whenever one is answered. Prints `connections N` once they all have their calls out, then
/// at the end `calls N` (answered), `claimed N` (method returns) and
/// `refused N` (errors), with the most frequent error's name as `refusal NAME`.
let busClaimFlood = Attack(usage: "ADDRESS CONNECTIONS INFLIGHT SECONDS") { arguments in
  let arguments = AttackArguments(arguments)
  let address = try arguments.text(0, "ADDRESS")
  let count = try arguments.number(1, "CONNECTIONS")
  let inflight = try arguments.number(2, "INFLIGHT")
  let end = MonotonicInstant.now + .seconds(try arguments.number(3, "SECONDS"))
  raiseOpenFileLimit(to: count + 64)
  let claim = { (client: BusAttackClient) throws(SystemError) in
    try client.send(
      SensorProxyTarget.name, SensorProxyTarget.path, SensorProxyTarget.interface, "ClaimAccelerometer",
      expectingReply: true)
  }
  var clients: [BusAttackClient] = []
  for _ in 0..<count {
    let client = try BusAttackClient(address: address)
    for _ in 0..<inflight { try claim(client) }
    clients.append(client)
  }
  figure("connections", String(clients.count))
  var claimed = 0
  var errors: [String: Int] = [:]
  while MonotonicInstant.now < end {
    let ready = try Readiness.wait(clients.map { ($0.descriptor, IOEvents.readable) }, timeout: end - .now)
    for (client, events) in zip(clients, ready) where !events.isEmpty {
      let replies = client.takeReplies()
      claimed += replies.returns
      for error in replies.errors { errors[error, default: 0] += 1 }
      // Every answer is followed by a new call: INFLIGHT stay waiting.
      for _ in 0..<(replies.returns + replies.errors.count) { try claim(client) }
    }
  }
  let refused = errors.values.reduce(0, +)
  figure("calls", String(claimed + refused))
  figure("claimed", String(claimed))
  figure("refused", String(refused))
  if let most = errors.max(by: { $0.value < $1.value }) { figure("refusal", most.key) }
}

/// `bus-call-latency ADDRESS COUNT INTERVAL_MS`: COUNT calls of `Properties.Get
/// HasAccelerometer` on net.hadess.SensorProxy, one every INTERVAL milliseconds, each waited
/// for: prints the round trips' p50, p99 and max (`p50_ms` ...), and `errors N`.
let busCallLatency = Attack(usage: "ADDRESS COUNT INTERVAL_MS: Get round trips") { arguments in
  let arguments = AttackArguments(arguments)
  let client = try BusAttackClient(address: try arguments.text(0, "ADDRESS"))
  let interval = Duration.milliseconds(try arguments.number(2, "INTERVAL_MS"))
  var times: [Double] = []
  var errors = 0
  for _ in 0..<(try arguments.number(1, "COUNT")) {
    let start = MonotonicInstant.now
    if try client.call(
      SensorProxyTarget.name, SensorProxyTarget.path, "org.freedesktop.DBus.Properties", "Get",
      [.string(SensorProxyTarget.interface), .string("HasAccelerometer")], timeout: .seconds(60)) != nil
    {
      errors += 1
    }
    times.append(start.elapsed.inMilliseconds)
    let rest = interval - start.elapsed
    if rest > .zero { _ = try? Readiness.wait([], timeout: rest) }
  }
  figure("calls", String(times.count))
  figure("errors", String(errors))
  figure("p50_ms", fixed(percentile(times, 0.5), 2))
  figure("p99_ms", fixed(percentile(times, 0.99), 2))
  figure("max_ms", fixed(times.max() ?? 0, 2))
}
