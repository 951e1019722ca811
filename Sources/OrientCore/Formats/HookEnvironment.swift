/// The environment a hook runs with: the orientations, and ready-made values for the
/// tools that rotate displays and touchscreens.
public enum HookEnvironment {
  /// The variables for a screen-orientation change, in a stable order.
  ///
  /// For an undefined orientation the per-tool values describe `normal`.
  public static func variables(
    orientation: ScreenOrientation?, previous: ScreenOrientation?, device: DeviceOrientation?
  ) -> [(name: String, value: String)] {
    let screen = orientation ?? .normal
    return [
      ("ORIENTD_ORIENTATION", orientationName(orientation)),
      ("ORIENTD_PREVIOUS", orientationName(previous)),
      ("ORIENTD_DEVICE", orientationName(device)),
      ("ORIENTD_XRANDR", xrandr(screen)),
      ("ORIENTD_WL_TRANSFORM", waylandTransform(screen)),
      ("ORIENTD_SWAY_TRANSFORM", swayTransform(screen)),
      ("ORIENTD_HYPRLAND_TRANSFORM", hyprlandTransform(screen)),
      ("ORIENTD_KSCREEN", kscreen(screen)),
      ("ORIENTD_TOUCH_MATRIX", touchMatrix(screen)),
    ]
  }

  /// xrandr's `--rotate` value.
  public static func xrandr(_ orientation: ScreenOrientation) -> String {
    switch orientation {
    case .normal: return "normal"
    case .leftUp: return "left"
    case .bottomUp: return "inverted"
    case .rightUp: return "right"
    }
  }

  /// The wl_output transform's name, as wlroots tools take it: sway's `output NAME
  /// transform` and wlr-randr's `--transform` both turn the name straight into the same
  /// `wl_output_transform` value (sway's `sway/commands/output/transform.c`, wlr-randr's
  /// `output_transform_map`), so one value serves every wlroots compositor.
  ///
  /// The value names how the panel is turned, which the compositor undoes (wl_output's
  /// transform: "compensate for the rotation of an output device"): left-up, the panel turned
  /// a quarter clockwise, is 270 (counter-clockwise), as iio-sway gives it.
  public static func waylandTransform(_ orientation: ScreenOrientation) -> String {
    switch orientation {
    case .normal: return "normal"
    case .leftUp: return "270"
    case .bottomUp: return "180"
    case .rightUp: return "90"
    }
  }

  /// sway's output transform: the same value as `waylandTransform`, under the name earlier
  /// hooks used.
  public static func swayTransform(_ orientation: ScreenOrientation) -> String {
    waylandTransform(orientation)
  }

  /// Hyprland's monitor transform number.
  public static func hyprlandTransform(_ orientation: ScreenOrientation) -> String {
    String(orientation.rawValue)
  }

  /// kscreen-doctor's rotation name.
  public static func kscreen(_ orientation: ScreenOrientation) -> String {
    switch orientation {
    case .normal: return "none"
    case .leftUp: return "left"
    case .bottomUp: return "inverted"
    case .rightUp: return "right"
    }
  }

  /// xinput's Coordinate Transformation Matrix, row by row.
  public static func touchMatrix(_ orientation: ScreenOrientation) -> String {
    switch orientation {
    case .normal: return "1 0 0 0 1 0 0 0 1"
    case .leftUp: return "0 -1 1 1 0 0 0 0 1"
    case .bottomUp: return "-1 0 1 0 -1 1 0 0 1"
    case .rightUp: return "0 1 0 -1 0 1 0 0 1"
    }
  }
}
