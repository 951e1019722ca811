import OrientCore
import OrientSystem

/// The hinge of a convertible, on the sampling thread: both accelerometer drivers hand it
/// their readings, `HingePairing` decides what they say, and the daemon hears
/// (`SamplerEvent.hinge`) whenever that changes. It owns no sensor: the sampling engine wires
/// the drivers to it.
final class Hinge {
  private var pairing: HingePairing
  private let events: Mailbox<SamplerEvent>

  /// A hinge whose sensors are read every `interval`, telling the daemon through `events`.
  init(interval: Duration, events: Mailbox<SamplerEvent>) {
    pairing = HingePairing(interval: interval)
    self.events = events
  }

  /// A base sensor was found and will be read.
  func baseFound() { pairing.baseFound() }

  /// The lid switch changed (nil: there is none).
  func setLid(closed: Bool?) {
    for note in pairing.setLid(closed: closed) { Log.write(note) }
  }

  /// `sensor` came online (`summary` names it) or went offline.
  func online(_ sensor: HingePairing.Sensor, _ value: Bool, summary: String) {
    carryOut(pairing.online(sensor, value, summary: summary))
  }

  /// A usable reading of `sensor`; `polled` says whether polling read it.
  func take(_ sample: Sample, from sensor: HingePairing.Sensor, polled: Bool) {
    // The one sensor of most machines: no outcome to build and take apart for each sample.
    guard pairing.hasBothSensors else { return }
    carryOut(pairing.take(sample, from: sensor, polled: polled))
  }

  /// A reading of `sensor` at `time` was out of range.
  func rejected(_ sensor: HingePairing.Sensor, at time: SampleTime) {
    carryOut(pairing.rejected(sensor, at: time))
  }

  private func carryOut(_ outcome: HingePairing.Outcome) {
    for note in outcome.notes { Log.write(note) }
    if let status = outcome.status { events.post(.hinge(status)) }
  }
}
