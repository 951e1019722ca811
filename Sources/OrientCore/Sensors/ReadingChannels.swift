/// Where each reading sensor's value is, in the kernel's IIO names: the attribute files a
/// poll reads and the channels a buffer carries, in the order they are preferred, as
/// iio-sensor-proxy looks for them (its udev rule and drivers).
package enum ReadingChannels {
  /// One place a value can be polled from: an attribute file, the prefix its scale and
  /// offset files share, and whether it is a processed value (`_input`).
  package struct Polled: Equatable, Sendable {
    package var file: String
    package var prefix: String
    package var processed: Bool
  }

  /// Light: processed values first, then raw ones; `in_intensity_both_raw` is the HID sensor
  /// hub's (which has `in_illuminance_raw` too).
  package static let light: [Polled] =
    ["in_illuminance", "in_illuminance0", "in_illuminance_clear", "in_intensity_clear"].map {
      Polled(file: $0 + "_input", prefix: $0, processed: true)
    }
    + [
      "in_illuminance", "in_illuminance0", "in_illuminance_clear", "in_intensity_clear", "in_intensity_both",
    ].map {
      Polled(file: $0 + "_raw", prefix: $0, processed: false)
    }
  /// Light through a buffer: the HID sensor hub's channel first.
  package static let lightScan = ["intensity_both", "illuminance", "illuminance0"]

  /// Proximity: the reading compared with the near level, as it is (no scale).
  package static let proximity: [Polled] = ["in_proximity", "in_proximity0"].map {
    Polled(file: $0 + "_raw", prefix: $0, processed: false)
  }
  package static let proximityScan = ["proximity", "proximity0"]

  /// The tilt-compensated heading of a 3D magnetometer (HID `magn_3d`), in degrees through
  /// its scale.
  package static let compass: [Polled] = [
    Polled(
      file: "in_rot_from_north_magnetic_tilt_comp_raw", prefix: "in_rot_from_north_magnetic_tilt_comp",
      processed: false)
  ]
  package static let compassScan = ["rot_from_north_magnetic_tilt_comp"]

  /// The hinge sensor's own angle (Intel's `hinge`: `in_angl0` is labelled `hinge`, beside the
  /// screen's and the keyboard's, `in_angl1` and `in_angl2`), in radians through its scale.
  package static let hinge: [Polled] = [Polled(file: "in_angl0_raw", prefix: "in_angl0", processed: false)]
  package static let hingeScan = ["angl0"]
  /// The IIO device name of the kernel's driver for it (hid-sensor-custom-intel-hinge), and
  /// the label of the channel that is the hinge.
  package static let hingeDeviceName = "hinge"
  package static let hingeLabelFile = "in_angl0_label"

  /// The files a value's scale may be in, most specific first: `in_intensity_both_scale`,
  /// then the one its type shares, `in_intensity_scale` (`in_rot_scale` for the heading).
  package static func scaleFiles(_ prefix: String) -> [String] { sharedFiles(prefix, "scale") }

  /// The files a value's offset may be in, as `scaleFiles`.
  package static func offsetFiles(_ prefix: String) -> [String] { sharedFiles(prefix, "offset") }

  private static func sharedFiles(_ prefix: String, _ suffix: String) -> [String] {
    let own = prefix + "_" + suffix
    guard prefix.hasPrefix("in_") else { return [own] }
    let type = prefix.dropFirst(3).prefix { $0 != "_" }.filter { !$0.isNumber }
    let shared = "in_" + type + "_" + suffix
    return shared == own ? [own] : [own, shared]
  }

  /// The polled channel of a kind.
  package static func polled(_ kind: SensorKind) -> [Polled] {
    switch kind {
    case .light: light
    case .proximity: proximity
    case .compass: compass
    case .hinge: hinge
    case .accelerometer: []
    }
  }

  /// The scan channels of a kind.
  package static func scanned(_ kind: SensorKind) -> [String] {
    switch kind {
    case .light: lightScan
    case .proximity: proximityScan
    case .compass: compassScan
    case .hinge: hingeScan
    case .accelerometer: []
    }
  }
}
