/// The environment a hook runs with: the orientations, and ready-made values for the
/// tools that rotate displays and touchscreens.
package enum HookEnvironment {
  /// Whether a hook orientd runs itself (as root, under systemd) gets the variable `name` of
  /// orientd's own environment: the locale, the paths, what a display tool needs to find a
  /// display (set with the unit's `Environment=`), and the `ORIENTD_` overrides the example
  /// hooks read. Not systemd's notification and watchdog sockets, passed sockets, journal
  /// stream or credentials, nor anything else the service happens to have: a hook must not
  /// speak to systemd as orientd, and what it gets is what orientd(8) lists.
  package static func isInheritedByDaemonHooks(_ name: some StringProtocol) -> Bool {
    if name.hasPrefix("ORIENTD_") || name.hasPrefix("LC_") { return true }
    return daemonHookVariables.contains(String(name))
  }

  /// The variables of orientd's environment its own hooks get (besides `LC_*` and `ORIENTD_*`).
  package static let daemonHookVariables: Set<String> = [
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TZ", "DISPLAY", "XAUTHORITY",
    "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP", "SWAYSOCK",
    "HYPRLAND_INSTANCE_SIGNATURE", "DBUS_SESSION_BUS_ADDRESS",
  ]

  /// The variables for a change of the screen orientation or the mode, in a stable order.
  ///
  /// For an undefined orientation the per-tool values describe `normal`. The orientations
  /// are the user's (`normal` is the way the device is held as it is meant to be); the
  /// per-tool values are for the panel mounted `panel` (`PanelOrientation`): the screen
  /// orientation and the mount added, since no tool a hook drives makes up for the mount
  /// itself once it is given a transform:
  ///
  /// - xrandr and xinput (X11): the modesetting driver shows `panel orientation` only as an
  ///   output property and turns nothing by it (hw/xfree86/drivers/modesetting/
  ///   drmmode_display.c); `--rotate` is the whole rotation of the output, from the panel's
  ///   own scan-out. Touchscreens report in the panel's own coordinates (the kernel's
  ///   documentation of `panel orientation`: a rotation of the picture must be applied to
  ///   them too), so the touch matrix turns with the output.
  /// - sway and wlr-randr: wlroots only reports the mount
  ///   (`wlr_drm_connector_get_panel_orientation`); sway uses it as the transform of an
  ///   output whose configuration gives none (sway/config/output.c), and `output NAME
  ///   transform` or the output-management protocol's transform replaces it.
  /// - Hyprland: neither Hyprland nor aquamarine applies the property (aquamarine lists it
  ///   among the connector's properties and reads nothing of it); a monitor's transform and
  ///   the touch device's are all there is.
  /// - KWin (kscreen-doctor): the mount is the default transform of an output seen for the
  ///   first time (`OutputConfigurationStore::generateConfig`), and a configured transform is
  ///   handed to the pipeline as it is (`DrmOutput::queueChanges`).
  /// - mutter composes the mount itself (`meta_output_logical_to_crtc_transform`), but GNOME
  ///   turns its screen from orientd's D-Bus service, which gives the user's orientation as
  ///   iio-sensor-proxy does, and no hook runs there (the `auto` hook says so).
  package static func variables(
    orientation: ScreenOrientation?, previous: ScreenOrientation?, device: DeviceOrientation?,
    mode: TabletMode = .unknown, panel: ScreenOrientation = .normal
  ) -> [(name: String, value: String)] {
    let screen = (orientation ?? .normal).onPanel(panel)
    return [
      ("ORIENTD_ORIENTATION", orientationName(orientation)),
      ("ORIENTD_PREVIOUS", orientationName(previous)),
      ("ORIENTD_DEVICE", orientationName(device)),
      ("ORIENTD_MODE", mode.rawValue),
      ("ORIENTD_XRANDR", xrandr(screen)),
      ("ORIENTD_WL_TRANSFORM", waylandTransform(screen)),
      ("ORIENTD_SWAY_TRANSFORM", swayTransform(screen)),
      ("ORIENTD_HYPRLAND_TRANSFORM", hyprlandTransform(screen)),
      ("ORIENTD_KSCREEN", kscreen(screen)),
      ("ORIENTD_TOUCH_MATRIX", touchMatrix(screen)),
      ("ORIENTD_PANEL", panel.name),
    ]
  }

  /// xrandr's `--rotate` value.
  static func xrandr(_ orientation: ScreenOrientation) -> String {
    switch orientation {
    case .normal: return "normal"
    case .leftUp: return "left"
    case .bottomUp: return "inverted"
    case .rightUp: return "right"
    }
  }

  /// The wl_output transform's name, as the Wayland protocol counts it: the quarter turns
  /// counter-clockwise that the compositor gives the picture (wl_output's `transform` enum,
  /// "90 degrees counter-clockwise"). Tools that speak the wlr-output-management protocol
  /// hand it on unchanged: `wlr-randr --transform` (its main.c maps the name to the enum),
  /// kanshi's `transform`. Left-up, the panel turned a quarter clockwise, needs the picture
  /// turned a quarter counter-clockwise: 90.
  ///
  /// sway's own `output NAME transform` counts the other way (see `swayTransform`).
  static func waylandTransform(_ orientation: ScreenOrientation) -> String {
    switch orientation {
    case .normal: return "normal"
    case .leftUp: return "90"
    case .bottomUp: return "180"
    case .rightUp: return "270"
    }
  }

  /// sway's `output NAME transform` value. sway counts clockwise and inverts the name into
  /// the protocol's counter-clockwise enum (`invert_rotation_direction` in sway's
  /// `commands/output/transform.c`, since sway 1.5), so left-up is 270, as iio-sway gives it.
  static func swayTransform(_ orientation: ScreenOrientation) -> String {
    switch orientation {
    case .normal: return "normal"
    case .leftUp: return "270"
    case .bottomUp: return "180"
    case .rightUp: return "90"
    }
  }

  /// Hyprland's monitor `transform` number: the protocol's enum value itself (Hyprland's
  /// monitor-rule parser casts the number to `wl_output_transform`), so left-up is 1, the
  /// number for `waylandTransform`'s 90, as iio-hyprland gives it.
  static func hyprlandTransform(_ orientation: ScreenOrientation) -> String {
    switch orientation {
    case .normal: return "0"
    case .leftUp: return "1"
    case .bottomUp: return "2"
    case .rightUp: return "3"
    }
  }

  /// kscreen-doctor's rotation name.
  static func kscreen(_ orientation: ScreenOrientation) -> String {
    switch orientation {
    case .normal: return "none"
    case .leftUp: return "left"
    case .bottomUp: return "inverted"
    case .rightUp: return "right"
    }
  }

  /// xinput's Coordinate Transformation Matrix, row by row.
  static func touchMatrix(_ orientation: ScreenOrientation) -> String {
    switch orientation {
    case .normal: return "1 0 0 0 1 0 0 0 1"
    case .leftUp: return "0 -1 1 1 0 0 0 0 1"
    case .bottomUp: return "-1 0 1 0 -1 1 0 0 1"
    case .rightUp: return "0 1 0 -1 0 1 0 0 1"
    }
  }
}
