/// Which bus clients claim which sensors of `net.hadess.SensorProxy`.
///
/// As in iio-sensor-proxy 3.0, a claim is a flag per client and sensor, not a count: claiming
/// twice and releasing once ends the claim. Releasing what was never claimed, or claiming a
/// sensor that is absent, is not an error. A client whose connection goes away loses its
/// claims. Clients are named by their unique bus names (`:1.42`).
///
/// Unlike iio-sensor-proxy, the number of clients with claims is bounded: each one costs the
/// daemon a record and a watch on its connection, and a hostile user may open many
/// connections. A client beyond `clientLimit` is refused; repeated claims of one client cost
/// nothing and are never refused.
public struct SensorProxyClaims: Equatable, Sendable {
  /// The sensors a client can claim.
  public enum Sensor: String, CaseIterable, Sendable {
    case accelerometer = "Accelerometer"
    case light = "Light"
    case proximity = "Proximity"
    case compass = "Compass"
  }

  /// What a claim did.
  public enum ClaimOutcome: Equatable, Sendable {
    /// The client claims the sensor now; `newClient` when it had no claim before (its
    /// connection is to be watched from now on).
    case claimed(newClient: Bool)
    /// The client claimed the sensor already: nothing changed.
    case repeated
    /// `clientLimit` clients hold claims already; nothing changed.
    case refused
  }

  /// The most clients that may hold claims at once.
  public let clientLimit: Int
  private var claims: [String: Set<Sensor>] = [:]

  /// Nobody claims anything; at most `clientLimit` clients will.
  public init(clientLimit: Int = 128) { self.clientLimit = max(1, clientLimit) }

  /// Records that `client` claims `sensor`.
  public mutating func claim(_ sensor: Sensor, by client: String) -> ClaimOutcome {
    guard let held = claims[client] else {
      guard claims.count < clientLimit else { return .refused }
      claims[client] = [sensor]
      return .claimed(newClient: true)
    }
    guard !held.contains(sensor) else { return .repeated }
    claims[client]?.insert(sensor)
    return .claimed(newClient: false)
  }

  /// Ends `client`'s claim on `sensor`; true when it had one. A client left without claims
  /// is forgotten (its connection needs no watching).
  @discardableResult
  public mutating func release(_ sensor: Sensor, by client: String) -> Bool {
    guard claims[client]?.remove(sensor) != nil else { return false }
    if claims[client]?.isEmpty == true { claims[client] = nil }
    return true
  }

  /// Ends every claim of a client whose connection went away; returns the sensors it held.
  public mutating func disconnect(_ client: String) -> [Sensor] {
    let held = claims.removeValue(forKey: client) ?? []
    return Sensor.allCases.filter(held.contains)
  }

  /// Forgets every claim (the bus connection is gone, and with it every client's).
  public mutating func removeAll() { claims = [:] }

  /// Whether `client` claims `sensor`.
  public func claims(_ sensor: Sensor, by client: String) -> Bool {
    claims[client]?.contains(sensor) ?? false
  }

  /// Whether `client` holds any claim.
  public func holdsClaims(_ client: String) -> Bool { claims[client] != nil }

  /// How many clients claim `sensor`.
  public func claimants(of sensor: Sensor) -> Int { claims.values.count { $0.contains(sensor) } }

  /// Every client with a claim, each once, in name order (to watch their connections).
  public var clients: [String] { claims.keys.sorted() }
}
