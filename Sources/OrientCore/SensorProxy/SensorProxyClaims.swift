/// Which bus clients claim which sensors of `net.hadess.SensorProxy`.
///
/// As in iio-sensor-proxy 3.0, a claim is a flag per client and sensor, not a count: claiming
/// twice and releasing once ends the claim. Releasing what was never claimed, or claiming a
/// sensor that is absent, is not an error. A client whose connection goes away loses its
/// claims. Clients are named by their unique bus names (`:1.42`).
///
/// Unlike iio-sensor-proxy, the number of clients with claims is bounded: each one costs the
/// daemon a record and a watch on its connection, and a hostile user may open many
/// connections. A client beyond `clientLimit` is refused, and so is one beyond
/// `clientsPerUser` of the same user (root excepted), so that one user cannot take every
/// place from the desktop's clients. Repeated claims of one client cost nothing and are never
/// refused.
package struct SensorProxyClaims: Equatable, Sendable {
  /// The sensors a client can claim: every kind orientd knows.
  package typealias Sensor = SensorKind

  /// What a claim did.
  package enum ClaimOutcome: Equatable, Sendable {
    /// The client claims the sensor now; `newClient` when it had no claim before (its
    /// connection is to be watched from now on).
    case claimed(newClient: Bool)
    /// The client claimed the sensor already: nothing changed.
    case repeated
    /// A new client over a limit: nothing changed.
    case refused(Refusal)
  }

  /// Why a new client was refused.
  package enum Refusal: Equatable, Sendable {
    /// `clientLimit` clients hold claims already.
    case tooManyClients
    /// `clientsPerUser` clients of the same user hold claims already.
    case tooManyOfUser
  }

  /// The most clients that may hold claims at once.
  package let clientLimit: Int
  /// The most clients of one user other than root that may hold claims at once.
  package let clientsPerUser: Int
  /// Each client's user and claimed sensors.
  private var claims: [String: (user: UInt32, sensors: Set<Sensor>)] = [:]

  /// Nobody claims anything; at most `clientLimit` clients will, `clientsPerUser` of one user.
  package init(clientLimit: Int = 128, clientsPerUser: Int = 16) {
    self.clientLimit = max(1, clientLimit)
    self.clientsPerUser = max(1, clientsPerUser)
  }

  package static func == (left: Self, right: Self) -> Bool {
    left.clientLimit == right.clientLimit && left.clientsPerUser == right.clientsPerUser
      && left.claims.mapValues(\.user) == right.claims.mapValues(\.user)
      && left.claims.mapValues(\.sensors) == right.claims.mapValues(\.sensors)
  }

  /// Records that `client`, a connection of `user`, claims `sensor`. For a client that holds
  /// claims already, `user` is not looked at.
  package mutating func claim(_ sensor: Sensor, by client: String, user: UInt32) -> ClaimOutcome {
    guard let held = claims[client] else {
      guard !isFull else { return .refused(.tooManyClients) }
      guard user == 0 || claims.values.count(where: { $0.user == user }) < clientsPerUser else {
        return .refused(.tooManyOfUser)
      }
      claims[client] = (user, [sensor])
      return .claimed(newClient: true)
    }
    guard !held.sensors.contains(sensor) else { return .repeated }
    claims[client]?.sensors.insert(sensor)
    return .claimed(newClient: false)
  }

  /// Ends `client`'s claim on `sensor`; true when it had one. A client left without claims
  /// is forgotten (its connection needs no watching).
  @discardableResult
  package mutating func release(_ sensor: Sensor, by client: String) -> Bool {
    guard claims[client]?.sensors.remove(sensor) != nil else { return false }
    if claims[client]?.sensors.isEmpty == true { claims[client] = nil }
    return true
  }

  /// Ends every claim of a client whose connection went away; returns the sensors it held.
  package mutating func disconnect(_ client: String) -> [Sensor] {
    let held = claims.removeValue(forKey: client)?.sensors ?? []
    return Sensor.allCases.filter(held.contains)
  }

  /// Forgets every claim (the bus connection is gone, and with it every client's).
  package mutating func removeAll() { claims = [:] }

  /// Whether `client` claims `sensor`.
  package func claims(_ sensor: Sensor, by client: String) -> Bool {
    claims[client]?.sensors.contains(sensor) ?? false
  }

  /// Whether `clientLimit` clients hold claims: a new client would be refused.
  package var isFull: Bool { claims.count >= clientLimit }

  /// Whether `client` holds any claim.
  package func holdsClaims(_ client: String) -> Bool { claims[client] != nil }

  /// How many clients claim `sensor`.
  package func claimants(of sensor: Sensor) -> Int { claims.values.count { $0.sensors.contains(sensor) } }

  /// Every client with a claim, each once, in name order (to watch their connections).
  package var clients: [String] { claims.keys.sorted() }
}
