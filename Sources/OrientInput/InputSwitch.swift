import CEvdev

/// The switches orientd reads: the tablet-mode switch and the lid switch.
enum InputSwitch: CaseIterable, Sendable {
  /// `SW_TABLET_MODE`: 1 when the device is folded into a tablet.
  case tabletMode
  /// `SW_LID`: 1 when the lid is closed.
  case lid

  /// The evdev code (in `EV_SW`).
  var code: UInt32 {
    switch self {
    case .tabletMode: UInt32(SW_TABLET_MODE)
    case .lid: UInt32(SW_LID)
    }
  }

  /// The kernel's name for it, as logs and `info` show it.
  var name: String {
    switch self {
    case .tabletMode: "SW_TABLET_MODE"
    case .lid: "SW_LID"
    }
  }
}
