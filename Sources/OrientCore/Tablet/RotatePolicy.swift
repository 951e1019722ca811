/// When the screen follows the device: `rotate =` in the config, `--rotate` on the command line.
package enum RotatePolicy: String, CaseIterable, Sendable {
  /// Always, whatever the mode (orientd before tablet mode).
  case always
  /// Only in tablet mode: in laptop mode the screen stays `normal`.
  case tablet
  /// `tablet` when something says the mode (a switch, a hinge, `mode tablet|laptop`),
  /// `always` otherwise, as GNOME does.
  case auto
}

/// Where the mode in force comes from, strongest first.
package enum ModeSource: String, Sendable {
  /// `mode tablet|laptop` from a client, until `mode auto`.
  case manual
  /// A tablet-mode switch (`SW_TABLET_MODE`).
  case tabletSwitch = "switch"
  /// A hinge sensor's angle (Intel's `hinge`).
  case hingeSensor = "hinge sensor"
  /// The angle between the display and base accelerometers.
  case hinge
  /// Nothing says: the mode is `unknown`.
  case none
}
