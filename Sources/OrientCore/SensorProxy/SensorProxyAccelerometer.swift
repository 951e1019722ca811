/// The accelerometer as iio-sensor-proxy's D-Bus interface shows it: `HasAccelerometer`,
/// `AccelerometerOrientation` and `AccelerometerTilt`, worked out from orientd's published
/// state.
///
/// iio-sensor-proxy's orientation is four-way: lying flat keeps the last four-way value. It is
/// `undefined` before the first classification and while there is no sensor; unlike
/// iio-sensor-proxy 3.0, which resets it without a signal, the reset is reported, so a client
/// that follows signals never keeps a stale value. When the sensor comes back, the last
/// value returns with it. `source` chooses what the orientation follows: the device (as
/// iio-sensor-proxy does), or orientd's screen orientation, so that a lock or an allowed set
/// holds a desktop that rotates from D-Bus.
///
/// iio-sensor-proxy reads its accelerometer only while a client claims it, so what it shows
/// is `undefined` until the first claim and stale after the last release. orientd reads its
/// sensor anyway, for its socket's clients, but shows D-Bus the same way: while nobody claims,
/// the orientation and tilt shown stay as they were (`undefined` before any claim), and a
/// claim brings them up to date. Clients written for iio-sensor-proxy then see the same
/// sequence from both (`monitor-sensor` prints the same lines). `HasAccelerometer` is always
/// current, as in iio-sensor-proxy.
package struct SensorProxyAccelerometer: Equatable, Sendable {
  /// What `AccelerometerOrientation` follows (config `dbus-orientation`).
  package enum Source: String, CaseIterable, Sendable {
    /// The device's four-way orientation, as iio-sensor-proxy reports the physical one.
    case device
    /// orientd's screen orientation, after lock and allowed set.
    case screen
  }

  /// A property of `net.hadess.SensorProxy` that this state drives.
  package enum Property: String, CaseIterable, Sendable {
    case hasAccelerometer = "HasAccelerometer"
    case accelerometerOrientation = "AccelerometerOrientation"
    case accelerometerTilt = "AccelerometerTilt"
  }

  package let source: Source
  private var online = false
  private var lastFourWay: ScreenOrientation?
  private var lastScreen: ScreenOrientation?
  private var currentTilt = AccelerometerTilt.undefined
  /// Whether a client claims the accelerometer, so that what is shown follows the sensor.
  package private(set) var claimed: Bool
  private var shownOrientation: ScreenOrientation?
  private var shownTilt = AccelerometerTilt.undefined

  /// No sensor yet, orientation undefined. With `claimed` false (the D-Bus service before any
  /// client claims) orientation and tilt stay `undefined` until `setClaimed(true)`.
  package init(source: Source, claimed: Bool = true) {
    self.source = source
    self.claimed = claimed
  }

  /// `HasAccelerometer`: whether the sensor is online.
  package var hasAccelerometer: Bool { online }

  /// `AccelerometerOrientation`; nil is `undefined`.
  package var orientation: ScreenOrientation? { shownOrientation }

  /// `AccelerometerOrientation` as the interface spells it: `normal`, `left-up`, ...,
  /// `undefined`.
  package var orientationText: String { orientationName(orientation) }

  /// `AccelerometerTilt`.
  package var tilt: AccelerometerTilt { shownTilt }

  /// Takes one published change into account and returns the properties whose values
  /// changed, in the order of `Property.allCases`, for `PropertiesChanged`.
  package mutating func apply(_ change: StateChange) -> [Property] {
    update {
      switch change {
      case .sensor(let value):
        $0.online = value
        // A sensor that comes back has not measured a tilt yet.
        if !value { $0.currentTilt = .undefined }
      case .device(let device):
        // Face-up and face-down are not four-way: the last four-way value stays.
        if device == .faceUp || device == .faceDown { break }
        $0.lastFourWay = device?.screen
      case .orientation(let screen): $0.lastScreen = screen
      // iio-sensor-proxy's interface has no rotation suggestion.
      case .lock, .allowed, .mode, .hinge, .light, .proximity, .heading, .suggestion: break
      }
    }
  }

  /// Takes a new tilt of the sensor into account; returns the properties that changed.
  package mutating func apply(tilt: AccelerometerTilt) -> [Property] {
    update { $0.currentTilt = tilt }
  }

  /// Whether any client claims the accelerometer now; a first claim brings what is shown up
  /// to date. Returns the properties that changed.
  package mutating func setClaimed(_ claimed: Bool) -> [Property] {
    update { $0.claimed = claimed }
  }

  /// Nobody claims and nothing is shown: orientation and tilt are `undefined` again, as from a
  /// service that has just started (after the bus connection was lost, with every claim).
  package mutating func restart() {
    claimed = false
    (shownOrientation, shownTilt) = (nil, .undefined)
  }

  /// What the sensor says now, shown or not.
  private var current: (orientation: ScreenOrientation?, tilt: AccelerometerTilt) {
    guard online else { return (nil, .undefined) }
    return (source == .device ? lastFourWay : lastScreen, currentTilt)
  }

  private mutating func update(_ change: (inout Self) -> Void) -> [Property] {
    let before = (hasAccelerometer, orientation, tilt)
    change(&self)
    // Without a sensor nothing is known, claimed or not: the reset is shown at once.
    if claimed || !online { (shownOrientation, shownTilt) = current }
    var changed: [Property] = []
    if hasAccelerometer != before.0 { changed.append(.hasAccelerometer) }
    if orientation != before.1 { changed.append(.accelerometerOrientation) }
    if tilt != before.2 { changed.append(.accelerometerTilt) }
    return changed
  }
}
