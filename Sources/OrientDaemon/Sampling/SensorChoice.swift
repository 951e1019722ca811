import OrientCore
import OrientIIO

/// Which accelerometer of a context a driver reads.
enum SensorChoice: Sendable {
  /// The one `--device` names (by id, name or label), else the automatic choice: the sensor
  /// orientation comes from.
  case named(String?)
  /// The keyboard base's sensor, for the hinge: the first one located in the base that is not
  /// the sensor `--device` names.
  case base(besides: String?)

  /// The sensor this choice picks among `sensors`, the accelerometers of `context`, and why
  /// it was picked, in words.
  func pick(among sensors: [Accelerometer], in context: IIOContext) throws(IIOError) -> (
    Accelerometer, String
  ) {
    switch self {
    case .named(let selector):
      let sensor = try SensorDiscovery.choose(from: sensors, selector: selector, context: context)
      return (sensor, SensorDiscovery.reason(for: sensor, among: sensors, selector: selector))
    case .base(let selector):
      // The sensor orientation comes from is never the base's too. When there is none, there
      // is none to avoid; the display's own driver, choosing with the same selector, says why.
      let display = try? SensorDiscovery.choose(from: sensors, selector: selector, context: context)
      guard let base = SensorDiscovery.base(among: sensors, besides: display) else {
        throw .noBaseSensor(uri: context.uri)
      }
      return (base, "it is the base sensor (\(base.locationSource ?? "location"))")
    }
  }
}

/// What one look for a sensor saw: every accelerometer of the context, and the one picked
/// (nil when none fits).
struct SensorSurvey {
  var sensors: [Accelerometer]
  var chosen: Accelerometer?
}
