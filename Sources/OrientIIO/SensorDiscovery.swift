import OrientCore
import OrientSystem

/// Finds accelerometers in an IIO context and picks the one that drives orientation.
package enum SensorDiscovery {
  /// Every device with accel x, y and z raw attributes or scan elements, in libiio's order.
  package static func accelerometers(in context: IIOContext, udev: UdevProperties?) -> [Accelerometer] {
    context.devices.compactMap { Accelerometer(device: $0, udev: udev) }
  }

  /// Why `chosen` was picked among `sensors`, in words.
  package static func reason(for chosen: Accelerometer, among sensors: [Accelerometer], selector: String?)
    -> String
  {
    if let selector { return "--device \(selector) names it" }
    if sensors.count == 1 { return "it is the only accelerometer" }
    if chosen.location == .display {
      return "it is the display sensor (\(chosen.locationSource ?? "location")); the others are skipped"
    }
    return "it is the first accelerometer not in the keyboard base"
  }

  /// The keyboard base's sensor, for the hinge angle: the first sensor located in the base
  /// that is not `display` (the one orientation comes from, which `--device` may have made a
  /// base sensor), or nil.
  package static func base(among sensors: [Accelerometer], besides display: Accelerometer?) -> Accelerometer? {
    sensors.first { $0.location == .base && $0.device.id != display?.device.id }
  }

  /// Picks by `--device` (id, name or label), else the first display sensor, else the first
  /// sensor not in the base. The error says where it looked.
  package static func choose(
    from sensors: [Accelerometer], selector: String?, context: IIOContext
  ) throws(IIOError) -> Accelerometer {
    let found =
      sensors.isEmpty
      ? "no accelerometer"
      : "only " + sensors.map { "\($0.summary) [\($0.location.rawValue)]" }.joined(separator: ", ")
    if let selector {
      if let match = sensors.first(where: {
        $0.device.id == selector || $0.device.name == selector || $0.device.label == selector
      }) {
        return match
      }
      throw .noSuchSensor(selector: selector, uri: context.uri, found: found)
    }
    if let display = sensors.first(where: { $0.location == .display }) { return display }
    if let other = sensors.first(where: { $0.location != .base }) { return other }
    throw .noUsableSensor(
      uri: context.uri, devices: context.devices.count, found: found, baseSkipped: !sensors.isEmpty)
  }
}
