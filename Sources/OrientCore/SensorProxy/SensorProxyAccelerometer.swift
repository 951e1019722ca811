/// The accelerometer as iio-sensor-proxy's D-Bus interface shows it: `HasAccelerometer` and
/// `AccelerometerOrientation`, worked out from orientd's published state.
///
/// iio-sensor-proxy's orientation is four-way: lying flat keeps the last four-way value. It is
/// `undefined` before the first classification and while there is no sensor; unlike
/// iio-sensor-proxy 3.0, which resets it without a signal, the reset is reported, so a client
/// that follows signals never keeps a stale value. When the sensor comes back, the last
/// value returns with it. `source` chooses what the orientation follows: the device (as
/// iio-sensor-proxy does), or orientd's screen orientation, so that a lock or an allowed set
/// holds a desktop that rotates from D-Bus.
public struct SensorProxyAccelerometer: Equatable, Sendable {
  /// What `AccelerometerOrientation` follows (config `dbus-orientation`).
  public enum Source: String, CaseIterable, Sendable {
    /// The device's four-way orientation, as iio-sensor-proxy reports the physical one.
    case device
    /// orientd's screen orientation, after lock and allowed set.
    case screen
  }

  /// A property of `net.hadess.SensorProxy` that this state drives.
  public enum Property: String, CaseIterable, Sendable {
    case hasAccelerometer = "HasAccelerometer"
    case accelerometerOrientation = "AccelerometerOrientation"
  }

  public let source: Source
  private var online = false
  private var lastFourWay: ScreenOrientation?
  private var lastScreen: ScreenOrientation?

  /// No sensor yet, orientation undefined.
  public init(source: Source) { self.source = source }

  /// `HasAccelerometer`: whether the sensor is online.
  public var hasAccelerometer: Bool { online }

  /// `AccelerometerOrientation`; nil is `undefined`.
  public var orientation: ScreenOrientation? {
    guard online else { return nil }
    return source == .device ? lastFourWay : lastScreen
  }

  /// `AccelerometerOrientation` as the interface spells it: `normal`, `left-up`, ...,
  /// `undefined`.
  public var orientationText: String { orientationName(orientation) }

  /// Takes one published change into account and returns the properties whose values
  /// changed, in the order of `Property.allCases`, for `PropertiesChanged`.
  public mutating func apply(_ change: StateChange) -> [Property] {
    let before = (hasAccelerometer, orientation)
    switch change {
    case .sensor(let value): online = value
    case .device(let device):
      // Face-up and face-down are not four-way: the last four-way value stays.
      if device == .faceUp || device == .faceDown { break }
      lastFourWay = device?.screen
    case .orientation(let screen): lastScreen = screen
    case .lock, .allowed: break
    }
    var changed: [Property] = []
    if hasAccelerometer != before.0 { changed.append(.hasAccelerometer) }
    if orientation != before.1 { changed.append(.accelerometerOrientation) }
    return changed
  }
}
