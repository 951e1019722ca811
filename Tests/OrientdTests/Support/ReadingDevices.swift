import Foundation
import Testing

/// Fake light sensors, proximity sensors and compasses, shaped as the kernel's drivers (and
/// iio-sensor-proxy's integration test) show them.
extension FakeDevice {
  /// An IIO light sensor polled through `in_illuminance_input` (a processed value, in lux),
  /// as iio-sensor-proxy's test has it; its integration time of 0.1 s is its poll interval.
  static func processedLightSensor(
    input: String = "10", id: String = "iio:device1", integrationTime: String = "0.1"
  ) -> FakeDevice {
    FakeDevice(
      sysfsPath: "/devices/platform/als/\(id)", id: id,
      attributes: [
        ("name", "IIO Light Sensor"), ("in_illuminance_input", input), ("in_illuminance_scale", "1.0"),
        ("in_illuminance_integration_time", integrationTime),
      ])
  }

  /// An IIO light sensor polled through `in_illuminance_raw`, whose level is
  /// `(raw + offset) * scale`; nil leaves the scale or the offset out.
  static func rawLightSensor(
    raw: String, scale: String? = "0.5", offset: String? = nil, id: String = "iio:device1"
  ) -> FakeDevice {
    var attributes = [
      ("name", "ltr-test"), ("in_illuminance_raw", raw), ("in_illuminance_integration_time", "0.1"),
    ]
    if let scale { attributes.append(("in_illuminance_scale", scale)) }
    if let offset { attributes.append(("in_illuminance_offset", offset)) }
    return FakeDevice(sysfsPath: "/devices/platform/ltr/\(id)", id: id, attributes: attributes)
  }

  /// A HID sensor hub's ambient light sensor (`als`): `in_illuminance_raw` and
  /// `in_intensity_both_raw` with a shared scale of 0.1, and the intensity as a 32-bit scan
  /// element at index 0 with a timestamp at 1, everything disabled; its own trigger is
  /// `als-devN` (give it with `trigger`).
  static func hubLightSensor(raw: Int = 1000, id: String = "iio:device0") -> FakeDevice {
    FakeDevice(
      sysfsPath: "/devices/platform/HID-SENSOR-200041.0.auto/\(id)", id: id,
      attributes: [
        ("name", "als"), ("in_illuminance_raw", "\(raw)"), ("in_intensity_both_raw", "\(raw)"),
        ("in_illuminance_scale", "0.1"), ("in_intensity_scale", "0.1"),
        ("scan_elements/in_intensity_both_en", "0"), ("scan_elements/in_intensity_both_index", "0"),
        ("scan_elements/in_intensity_both_type", "le:s32/32>>0"),
        ("scan_elements/in_timestamp_en", "1"), ("scan_elements/in_timestamp_index", "1"),
        ("scan_elements/in_timestamp_type", "le:s64/64>>0"),
        ("buffer/enable", "0"), ("buffer/length", "2"), ("buffer/watermark", "1"),
        ("trigger/current_trigger", "als-dev0"), ("sampling_frequency", "10"),
      ])
  }

  /// An IIO proximity sensor with `in_proximity_raw`, and its near level as the sysfs
  /// attribute or the udev property (hwdb) when given.
  static func proximitySensor(
    raw: String, nearLevelAttribute: String? = nil, nearLevelProperty: String? = nil,
    id: String = "iio:device2"
  ) -> FakeDevice {
    var device = FakeDevice(
      sysfsPath: "/devices/platform/prox/\(id)", id: id,
      attributes: [("name", "IIO Test Proximity Sensor"), ("in_proximity_raw", raw)])
    if let nearLevelAttribute {
      device = device.with(attribute: "in_proximity_nearlevel", nearLevelAttribute)
    }
    if let nearLevelProperty { device = device.with(property: "PROXIMITY_NEAR_LEVEL", nearLevelProperty) }
    return device
  }

  /// A HID sensor hub's human presence sensor (`prox`): `in_proximity_raw` 0 or 1, no near level.
  static func presenceSensor(raw: Int, id: String = "iio:device3") -> FakeDevice {
    FakeDevice(
      sysfsPath: "/devices/platform/HID-SENSOR-200011.0.auto/\(id)", id: id,
      attributes: [("name", "prox"), ("in_proximity_raw", "\(raw)"), ("in_proximity_scale", "1")])
  }

  /// A HID sensor hub's 3D magnetometer (`magn_3d`): the tilt-compensated heading from magnetic
  /// north, in degrees through `in_rot_scale`, as `_raw` and as a scan element (16 bits used
  /// of 32 stored, as the hub's driver stores it) at index 0; its own trigger is `magn_3d-devN`.
  static func hubCompass(heading: Int = 90, scale: String = "1", id: String = "iio:device0") -> FakeDevice {
    FakeDevice(
      sysfsPath: "/devices/platform/HID-SENSOR-200083.0.auto/\(id)", id: id,
      attributes: [
        ("name", "magn_3d"), ("in_magn_x_raw", "100"), ("in_magn_y_raw", "0"), ("in_magn_z_raw", "0"),
        ("in_magn_scale", "0.001"), ("in_rot_from_north_magnetic_tilt_comp_raw", "\(heading)"),
        ("in_rot_scale", scale),
        ("scan_elements/in_rot_from_north_magnetic_tilt_comp_en", "0"),
        ("scan_elements/in_rot_from_north_magnetic_tilt_comp_index", "0"),
        ("scan_elements/in_rot_from_north_magnetic_tilt_comp_type", "le:s16/32>>0"),
        ("buffer/enable", "0"), ("buffer/length", "2"), ("buffer/watermark", "1"),
        ("trigger/current_trigger", "magn_3d-dev0"),
      ])
  }

  /// The Intel ISH hinge sensor as hid-sensor-custom-intel-hinge shows it (`hinge`): the
  /// hinge's, the screen's and the keyboard's angles (`in_angl0_raw` to `in_angl2_raw`, in
  /// degrees, labelled), the radians a count in `in_angl_scale`, and the three as 16-bit scan
  /// elements in 32-bit storage at 0 to 2 with a timestamp at 3; its own trigger is
  /// `hinge-devN`.
  static func hingeSensor(angle: Int = 100, id: String = "iio:device1") -> FakeDevice {
    FakeDevice(
      sysfsPath: "/devices/platform/HID-SENSOR-INT-020b.0.auto/\(id)", id: id,
      attributes: [
        ("name", "hinge"), ("in_angl0_raw", "\(angle)"), ("in_angl1_raw", "90"), ("in_angl2_raw", "0"),
        ("in_angl0_label", "hinge"), ("in_angl1_label", "screen"), ("in_angl2_label", "keyboard"),
        ("in_angl_scale", "0.017453293"), ("in_angl_hysteresis", "0"), ("sampling_frequency", "10"),
        ("scan_elements/in_angl0_en", "0"), ("scan_elements/in_angl0_index", "0"),
        ("scan_elements/in_angl0_type", "le:s16/32>>0"),
        ("scan_elements/in_angl1_en", "0"), ("scan_elements/in_angl1_index", "1"),
        ("scan_elements/in_angl1_type", "le:s16/32>>0"),
        ("scan_elements/in_angl2_en", "0"), ("scan_elements/in_angl2_index", "2"),
        ("scan_elements/in_angl2_type", "le:s16/32>>0"),
        ("scan_elements/in_timestamp_en", "1"), ("scan_elements/in_timestamp_index", "3"),
        ("scan_elements/in_timestamp_type", "le:s64/64>>0"),
        ("buffer/enable", "0"), ("buffer/length", "2"), ("buffer/watermark", "1"),
        ("trigger/current_trigger", "hinge-dev0"),
      ])
  }

  /// Apple's SMC light sensor: the platform device with `light` holding `(LEFT,RIGHT)`, and its
  /// hwmon device. iio-sensor-proxy finds the platform device by the udev property its rules
  /// would set; orientd finds the hwmon device through udev and reads its parent's file.
  static func appleLightSensor(_ value: String = "(128,128)") -> [FakeDevice] {
    let platform = "/devices/platform/applesmc.768"
    return [
      FakeDevice(
        sysfsPath: platform, id: "applesmc.768", attributes: [("light", value), ("name", "applesmc")],
        properties: [("SUBSYSTEM", "platform"), ("IIO_SENSOR_PROXY_TYPE", "hwmon-als")], hasNode: false,
        isIIO: false),
      FakeDevice(
        sysfsPath: platform + "/hwmon/hwmon0", id: "hwmon0", attributes: [("name", "applesmc")],
        properties: [("SUBSYSTEM", "hwmon")], hasNode: false, isIIO: false),
    ]
  }
}

/// 32-bit little-endian scans of one channel, as a HID hub's light sensor fills its buffer.
func scans32(_ values: [Int32]) -> [UInt8] {
  values.flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
}
