import CEvdev

/// The switches orientd reads: the tablet-mode switch and the lid switch for the mode, the
/// front proximity switch as a proximity sensor.
enum InputSwitch: CaseIterable, Sendable {
  /// `SW_TABLET_MODE`: 1 when the device is folded into a tablet.
  case tabletMode
  /// `SW_LID`: 1 when the lid is closed.
  case lid
  /// `SW_FRONT_PROXIMITY`: 1 while something is near the front of the device (a phone's
  /// proximity sensor, as some drivers report it).
  case frontProximity

  /// The switches that give the mode.
  static let modeSwitches: [InputSwitch] = [.tabletMode, .lid]

  /// The evdev code (in `EV_SW`).
  var code: UInt32 {
    switch self {
    case .tabletMode: UInt32(SW_TABLET_MODE)
    case .lid: UInt32(SW_LID)
    case .frontProximity: UInt32(SW_FRONT_PROXIMITY)
    }
  }

  /// The kernel's name for it, as logs and `info` show it.
  var name: String {
    switch self {
    case .tabletMode: "SW_TABLET_MODE"
    case .lid: "SW_LID"
    case .frontProximity: "SW_FRONT_PROXIMITY"
    }
  }
}
