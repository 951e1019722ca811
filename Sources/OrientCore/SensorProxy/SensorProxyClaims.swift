/// Which bus clients claim which sensors of `net.hadess.SensorProxy`.
///
/// As in iio-sensor-proxy 3.0, a claim is a flag per client and sensor, not a count: claiming
/// twice and releasing once ends the claim. Releasing what was never claimed, or claiming a
/// sensor that is absent, is not an error. A client whose connection goes away loses its
/// claims. Clients are named by their unique bus names (`:1.42`).
public struct SensorProxyClaims: Equatable, Sendable {
  /// The sensors a client can claim.
  public enum Sensor: String, CaseIterable, Sendable {
    case accelerometer = "Accelerometer"
    case light = "Light"
    case proximity = "Proximity"
    case compass = "Compass"
  }

  private var claims: [Sensor: Set<String>] = [:]

  /// Nobody claims anything.
  public init() {}

  /// Records that `client` claims `sensor`; true when it did not before.
  @discardableResult
  public mutating func claim(_ sensor: Sensor, by client: String) -> Bool {
    claims[sensor, default: []].insert(client).inserted
  }

  /// Ends `client`'s claim on `sensor`; true when it had one.
  @discardableResult
  public mutating func release(_ sensor: Sensor, by client: String) -> Bool {
    claims[sensor]?.remove(client) != nil
  }

  /// Ends every claim of a client whose connection went away; returns the sensors it held.
  public mutating func disconnect(_ client: String) -> [Sensor] {
    Sensor.allCases.filter { release($0, by: client) }
  }

  /// Whether `client` claims `sensor`.
  public func claims(_ sensor: Sensor, by client: String) -> Bool {
    claims[sensor]?.contains(client) ?? false
  }

  /// How many clients claim `sensor`.
  public func claimants(of sensor: Sensor) -> Int { claims[sensor]?.count ?? 0 }

  /// Every client with a claim, each once, in name order (to watch their connections).
  public var clients: [String] { Set(claims.values.joined()).sorted() }
}
