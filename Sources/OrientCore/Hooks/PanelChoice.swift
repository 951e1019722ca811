/// One display connector as the kernel's DRM mode interface describes it.
package struct DisplayConnector: Equatable, Sendable {
  /// The DRM device it belongs to, e.g. `card0`.
  package var card: String
  /// The kernel's connector type (`DRM_MODE_CONNECTOR_*`).
  package var type: UInt32
  /// Its number among the connectors of its type, from 1.
  package var typeIndex: UInt32
  /// The value of its `panel orientation` property as the kernel names it; nil when it has
  /// none (the kernel gives the property only to a panel whose mount it knows).
  package var panelOrientation: String?

  package init(card: String, type: UInt32, typeIndex: UInt32, panelOrientation: String? = nil) {
    self.card = card
    self.type = type
    self.typeIndex = typeIndex
    self.panelOrientation = panelOrientation
  }

  /// The connector's name as the kernel, compositors and xrandr give it: `eDP-1`.
  package var name: String {
    let index = Int(type)
    let typeName = index < Self.typeNames.count ? Self.typeNames[index] : "Unknown"
    return "\(typeName)-\(typeIndex)"
  }

  /// Whether it is a connector for a panel built into the machine: eDP, LVDS, DSI or DPI (what
  /// KWin's `DrmConnector::isInternal` and wlroots' built-in test also count).
  package var isBuiltIn: Bool { Self.builtInTypes.contains(type) }

  /// The kernel's names of the connector types by number (`drm_connector_enum_list` in
  /// drivers/gpu/drm/drm_connector.c).
  static let typeNames = [
    "Unknown", "VGA", "DVI-I", "DVI-D", "DVI-A", "Composite", "SVIDEO", "LVDS", "Component", "DIN", "DP",
    "HDMI-A", "HDMI-B", "TV", "eDP", "Virtual", "DSI", "DPI", "Writeback", "SPI", "USB",
  ]

  /// LVDS 7, eDP 14, DSI 16, DPI 17.
  static let builtInTypes: Set<UInt32> = [7, 14, 16, 17]
}

/// What looking at the kernel's display connectors found.
package enum DisplayConnectorReading: Equatable, Sendable {
  /// The connectors of every DRM device that could be read, and what kept the others from
  /// being read (`card1: Permission denied`).
  case connectors([DisplayConnector], problems: [String])
  /// No DRM device to look at (why, e.g. "/dev/dri does not exist").
  case noDevice(String)
}

/// The panel's mount that the hooks' transforms add to the screen orientation, and where it
/// came from, decided from the `panel-orientation` setting and what the kernel says.
package struct PanelChoice: Equatable, Sendable {
  package let orientation: ScreenOrientation
  /// Where it came from, for the log, `info` and `orientctl doctor`.
  package let source: String

  package init(orientation: ScreenOrientation, source: String) {
    self.orientation = orientation
    self.source = source
  }

  /// The mount for `setting`; with `auto`, from `kernel` (which need not be read otherwise).
  ///
  /// The kernel attaches `panel orientation` only to a panel whose mount it knows (a panel
  /// driver, a quirk, the firmware, or the `video=` command line), so a connector that has it
  /// is the panel; a built-in one is taken before others. Without one, the panel is taken as
  /// mounted normally, and the source says why.
  package static func decide(setting: PanelOrientationSetting, kernel: () -> DisplayConnectorReading)
    -> PanelChoice
  {
    if case .fixed(let orientation) = setting {
      return PanelChoice(orientation: orientation, source: "set by panel-orientation")
    }
    switch kernel() {
    case .noDevice(let why):
      return PanelChoice(orientation: .normal, source: "no DRM device (\(why)): taken as normal")
    case .connectors(let connectors, let problems):
      let unread = problems.isEmpty ? "" : "; not read: " + problems.joined(separator: ", ")
      let oriented = connectors.filter { $0.panelOrientation != nil }
      if let panel = oriented.first(where: \.isBuiltIn) ?? oriented.first, let value = panel.panelOrientation
      {
        let place = "\(panel.card) \(panel.name)"
        guard let orientation = PanelOrientation.fromKernel(value) else {
          return PanelChoice(
            orientation: .normal,
            source: "the kernel: \(place) has panel orientation '\(value)', which orientd does not know: "
              + "taken as normal" + unread)
        }
        return PanelChoice(
          orientation: orientation, source: "the kernel: \(place) has panel orientation \(value)" + unread)
      }
      if let builtIn = connectors.first(where: \.isBuiltIn) {
        return PanelChoice(
          orientation: .normal,
          source: "the kernel: \(builtIn.card) \(builtIn.name) has no panel orientation: taken as normal"
            + unread)
      }
      let names = connectors.map(\.name)
      let seen = names.isEmpty ? "no connector" : "only " + names.joined(separator: ", ")
      return PanelChoice(
        orientation: .normal,
        source: "the kernel: no built-in panel (eDP, LVDS, DSI or DPI), \(seen): taken as normal" + unread)
    }
  }
}
