/// Which reading sensors (light, proximity, compass, the hinge sensor) are read, as what needs
/// them changes.
///
/// A sensor starts at once when something needs it (a D-Bus claim, a socket subscription, a
/// `get` waiting for its value), and stops once nothing has needed it for `linger`: a client
/// that claims and releases as fast as it can must not start and stop the sensor with it,
/// each a request to its driver or sensor hub. Stopped, a sensor costs nothing: no read, no
/// timer, no open buffer. Pure: each input returns what the shell must do, in order.
package struct ReadingDemand: Equatable, Sendable {
  /// What the shell must do.
  package enum Action: Equatable, Sendable {
    /// Start reading this sensor.
    case start(SensorKind)
    /// Nothing needs this sensor now: call `lingerExpired` after this long, unless cancelled.
    case armLinger(SensorKind, Duration)
    /// Something needs it again before the linger ran out: cancel its timer.
    case cancelLinger(SensorKind)
    /// Stop reading it.
    case stop(SensorKind)
  }

  /// How long nothing must need a sensor before it stops.
  package static let linger = Duration.seconds(5)

  /// The sensors being read (lingering ones included).
  package private(set) var running: Set<SensorKind> = []
  /// The sensors that stop when their linger ends.
  package private(set) var lingering: Set<SensorKind> = []

  package init() {}

  /// What is needed now: returns what to start, and which lingers to arm or cancel.
  package mutating func update(_ needed: Set<SensorKind>) -> [Action] {
    var actions: [Action] = []
    for kind in SensorKind.valueKinds {
      if needed.contains(kind) {
        if lingering.remove(kind) != nil {
          actions.append(.cancelLinger(kind))
        } else if running.insert(kind).inserted {
          actions.append(.start(kind))
        }
      } else if running.contains(kind), lingering.insert(kind).inserted {
        actions.append(.armLinger(kind, Self.linger))
      }
    }
    return actions
  }

  /// `kind`'s linger ran out (`needed` says what is needed now): it stops unless needed.
  package mutating func lingerExpired(_ kind: SensorKind, needed: Set<SensorKind>) -> [Action] {
    guard lingering.remove(kind) != nil, !needed.contains(kind) else { return [] }
    running.remove(kind)
    return [.stop(kind)]
  }
}
