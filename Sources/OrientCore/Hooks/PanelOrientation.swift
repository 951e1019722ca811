/// How the display panel is mounted in the device's casing: which of the panel's own edges
/// points up when the device is held the way its user calls normal (a laptop on its base, a
/// handheld with its controls below). A panel made portrait and mounted in a landscape
/// casing (GPD Win and Pocket, Chuwi MiniBook, many cheap tablets) is left-up or right-up.
///
/// The kernel calls this the DRM connector property `panel orientation` (values `Normal`,
/// `Upside Down`, `Left Side Up`, `Right Side Up`), from drm_panel_orientation_quirks.c, the
/// firmware or device tree, or `video=CONNECTOR:panel_orientation=...` on its command line.
/// Its transform counts as wl_output's does: left side up is made good by a quarter turn
/// counter-clockwise of the picture (wlroots' `wlr_drm_connector_get_panel_orientation` and
/// mutter's `set_panel_orientation` in meta-kms-connector.c both map `Left Side Up` to
/// transform 90 and `Right Side Up` to 270), the turn a device held left-up needs. So a
/// panel's mount is the screen orientation of that name, and the two add up.
package enum PanelOrientation {
  /// The kernel's name of a `panel orientation` value, or nil for a name it does not give.
  package static func fromKernel(_ name: some StringProtocol) -> ScreenOrientation? {
    switch name {
    case "Normal": return .normal
    case "Upside Down": return .bottomUp
    case "Left Side Up": return .leftUp
    case "Right Side Up": return .rightUp
    default: return nil
    }
  }

  /// The name of `orientation` as the kernel's `panel orientation` property spells it.
  package static func kernelName(_ orientation: ScreenOrientation) -> String {
    switch orientation {
    case .normal: return "Normal"
    case .bottomUp: return "Upside Down"
    case .leftUp: return "Left Side Up"
    case .rightUp: return "Right Side Up"
    }
  }
}

/// The `panel-orientation` setting: the kernel's word for the built-in panel, or a mount
/// given by hand (for a kernel without a quirk for the machine, or a mount matrix written
/// in the panel's own axes; orientd(8) says when).
package enum PanelOrientationSetting: Equatable, Sendable {
  /// The kernel's `panel orientation` of the built-in panel's connector; normal without one.
  case auto
  /// This mount, whatever the kernel says.
  case fixed(ScreenOrientation)

  /// Reads `auto`, `normal`, `left-up`, `bottom-up` or `right-up`.
  package init?(name: some StringProtocol) {
    if name == "auto" {
      self = .auto
    } else if let orientation = ScreenOrientation(name: name) {
      self = .fixed(orientation)
    } else {
      return nil
    }
  }

  /// The setting's value as written.
  package var name: String {
    switch self {
    case .auto: return "auto"
    case .fixed(let orientation): return orientation.name
    }
  }

  /// Every value the setting takes, as written.
  package static let names = ["auto"] + ScreenOrientation.allCases.map(\.name)
}

extension ScreenOrientation {
  /// The orientation to draw in on a panel mounted `panel`: the quarter turns the device is
  /// held in and the quarter turns of the mount, added (rotations about one axis commute).
  /// mutter does the same for the built-in panel (`meta_output_logical_to_crtc_transform`
  /// composes the logical transform with the panel's).
  package func onPanel(_ panel: ScreenOrientation) -> ScreenOrientation {
    ScreenOrientation(rawValue: (rawValue + panel.rawValue) % 4)!
  }
}
