import Testing

@testable import OrientCore

@Suite("A panel mounted turned in its casing")
struct PanelOrientationTests {
  typealias Vector = (x: Double, y: Double)

  /// A quarter turn counter-clockwise.
  static func quarterTurn(_ vector: Vector) -> Vector { (-vector.y, vector.x) }

  /// The turn that takes the casing's frame to the panel's: the casing's own down, (0, -1),
  /// goes to the panel's edge that points down when the device is held normally, which is what
  /// the mount's name says (a left-up panel's right edge is down).
  static func intoPanel(_ vector: Vector, mount: ScreenOrientation) -> Vector {
    let target = HookEnvironmentTests.down(mount)
    var turns = 0
    var down: Vector = (0, -1)
    while down != target {
      down = quarterTurn(down)
      turns += 1
    }
    var turned = vector
    for _ in 0..<turns { turned = quarterTurn(turned) }
    return turned
  }

  static let cases = ScreenOrientation.allCases.flatMap { held in
    ScreenOrientation.allCases.map { mount in (held, mount) }
  }

  @Test(
    "Every tool's value turns the picture's top to the edge that points up, for every way the device is held on every mount",
    arguments: cases)
  func transformsOnATurnedPanel(held: ScreenOrientation, mount: ScreenOrientation) {
    let values = Dictionary(
      uniqueKeysWithValues: HookEnvironment.variables(
        orientation: held, previous: .normal, device: held.device, panel: mount
      ).map { ($0.name, $0.value) })
    // Down in the panel's own frame: the device's down, turned by the mount.
    let down = Self.intoPanel(HookEnvironmentTests.down(held), mount: mount)
    let up: Vector = (-down.x, -down.y)
    let quarters = [(0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0)].firstIndex { $0 == up }!
    let degrees = quarters * 90
    // wl_output counts counter-clockwise, Hyprland takes the enum's number, sway counts
    // clockwise, xrandr's `left` is a quarter counter-clockwise, kscreen names as xrandr.
    #expect(values["ORIENTD_WL_TRANSFORM"] == (degrees == 0 ? "normal" : "\(degrees)"))
    #expect(values["ORIENTD_HYPRLAND_TRANSFORM"] == "\(quarters)")
    #expect(values["ORIENTD_SWAY_TRANSFORM"] == (degrees == 0 ? "normal" : "\(360 - degrees)"))
    #expect(values["ORIENTD_XRANDR"] == ["normal", "left", "inverted", "right"][quarters])
    #expect(values["ORIENTD_KSCREEN"] == ["none", "left", "inverted", "right"][quarters])
    // The orientations stay the user's; the mount is named.
    #expect(values["ORIENTD_ORIENTATION"] == held.name)
    #expect(values["ORIENTD_DEVICE"] == held.name)
    #expect(values["ORIENTD_PANEL"] == mount.name)
  }

  @Test(
    "The touch matrix maps a touch in the panel's own coordinates to where the user sees it, for every way the device is held on every mount",
    arguments: cases)
  func touchOnATurnedPanel(held: ScreenOrientation, mount: ScreenOrientation) throws {
    let value = HookEnvironment.variables(orientation: held, previous: nil, device: nil, panel: mount)
      .first { $0.name == "ORIENTD_TOUCH_MATRIX" }?.value
    let numbers = try #require(value).split(separator: " ").compactMap { Double($0) }
    try #require(numbers.count == 9)
    #expect(numbers[6...] == [0, 0, 1])
    let down = Self.intoPanel(HookEnvironmentTests.down(held), mount: mount)
    let right: Vector = (-down.y, down.x)
    for (u, v) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0), (0.5, 0.5), (0.2, 0.7), (0.9, 0.1)] {
      let mapped = (
        numbers[0] * u + numbers[1] * v + numbers[2], numbers[3] * u + numbers[4] * v + numbers[5]
      )
      let point = (x: u - 0.5, y: 0.5 - v)
      let seen = (0.5 + point.x * right.x + point.y * right.y, 0.5 + point.x * down.x + point.y * down.y)
      #expect(
        abs(mapped.0 - seen.0) < 1e-12 && abs(mapped.1 - seen.1) < 1e-12,
        "(\(u), \(v)) maps to \(mapped), the user sees it at \(seen)")
    }
  }

  @Test("A right-up panel held as a laptop is turned right, as a machine with such a panel needs under X11")
  func rightUpPanelHeldNormally() {
    let values = Dictionary(
      uniqueKeysWithValues: HookEnvironment.variables(
        orientation: .normal, previous: nil, device: nil, panel: .rightUp
      ).map { ($0.name, $0.value) })
    #expect(values["ORIENTD_XRANDR"] == "right")
    #expect(values["ORIENTD_WL_TRANSFORM"] == "270")
    #expect(values["ORIENTD_SWAY_TRANSFORM"] == "90")
    #expect(values["ORIENTD_HYPRLAND_TRANSFORM"] == "3")
    #expect(values["ORIENTD_KSCREEN"] == "right")
    #expect(values["ORIENTD_TOUCH_MATRIX"] == "0 1 0 -1 0 1 0 0 1")
    #expect(values["ORIENTD_ORIENTATION"] == "normal")
  }

  @Test("Without a mount the values are the screen orientation's own")
  func normalMountChangesNothing() {
    for held in ScreenOrientation.allCases {
      let plain = HookEnvironment.variables(orientation: held, previous: nil, device: nil)
      let mounted = HookEnvironment.variables(orientation: held, previous: nil, device: nil, panel: .normal)
      #expect(plain.map(\.value) == mounted.map(\.value))
    }
  }

  @Test(
    "The kernel's names of the property read as the orientation of the same meaning, and back",
    arguments: [
      ("Normal", ScreenOrientation.normal), ("Upside Down", .bottomUp), ("Left Side Up", .leftUp),
      ("Right Side Up", .rightUp),
    ])
  func kernelNames(name: String, orientation: ScreenOrientation) {
    #expect(PanelOrientation.fromKernel(name) == orientation)
    #expect(PanelOrientation.kernelName(orientation) == name)
  }

  @Test(
    "A name the kernel does not give reads as nothing", arguments: ["", "normal", "Left side up", "Unknown"])
  func unknownKernelName(name: String) {
    #expect(PanelOrientation.fromKernel(name) == nil)
  }

  @Test("The setting reads auto and the four orientations, and nothing else")
  func setting() {
    #expect(PanelOrientationSetting(name: "auto") == .auto)
    #expect(PanelOrientationSetting(name: "left-up") == .fixed(.leftUp))
    #expect(PanelOrientationSetting(name: "bottom-up") == .fixed(.bottomUp))
    #expect(PanelOrientationSetting(name: "face-up") == nil)
    #expect(PanelOrientationSetting(name: "Left Side Up") == nil)
    #expect(PanelOrientationSetting.names == ["auto", "normal", "left-up", "bottom-up", "right-up"])
    for name in PanelOrientationSetting.names { #expect(PanelOrientationSetting(name: name)?.name == name) }
  }
}

@Suite("Which panel mount the hooks use")
struct PanelChoiceTests {
  static let eDP: UInt32 = 14
  static let hdmi: UInt32 = 11
  static let virtual: UInt32 = 15
  static let dsi: UInt32 = 16

  func decide(_ reading: DisplayConnectorReading) -> PanelChoice {
    PanelChoice.decide(setting: .auto) { reading }
  }

  @Test("A mount set by hand is used without looking at the kernel")
  func fixed() {
    let choice = PanelChoice.decide(setting: .fixed(.rightUp)) {
      Issue.record("the kernel was read")
      return .noDevice("")
    }
    #expect(choice == PanelChoice(orientation: .rightUp, source: "set by panel-orientation"))
  }

  @Test("The built-in panel's property is the mount, named with its connector")
  func builtInPanel() {
    let choice = decide(
      .connectors(
        [
          DisplayConnector(card: "card0", type: Self.hdmi, typeIndex: 1),
          DisplayConnector(card: "card0", type: Self.dsi, typeIndex: 1, panelOrientation: "Right Side Up"),
        ], problems: []))
    #expect(choice.orientation == .rightUp)
    #expect(choice.source == "the kernel: card0 DSI-1 has panel orientation Right Side Up")
  }

  @Test("A built-in panel with the property goes before another connector that has it")
  func builtInFirst() {
    let choice = decide(
      .connectors(
        [
          DisplayConnector(card: "card0", type: Self.virtual, typeIndex: 1, panelOrientation: "Upside Down"),
          DisplayConnector(card: "card1", type: Self.eDP, typeIndex: 1, panelOrientation: "Left Side Up"),
        ], problems: []))
    #expect(choice.orientation == .leftUp)
    #expect(choice.source.contains("card1 eDP-1"))
  }

  @Test("A connector the kernel command line gave the property counts, built in or not")
  func commandLineConnector() {
    let choice = decide(
      .connectors(
        [DisplayConnector(card: "card0", type: Self.virtual, typeIndex: 1, panelOrientation: "Left Side Up")],
        problems: []))
    #expect(
      choice
        == PanelChoice(
          orientation: .leftUp, source: "the kernel: card0 Virtual-1 has panel orientation Left Side Up"))
  }

  @Test("A built-in panel without the property is normal, and says so")
  func builtInWithout() {
    let choice = decide(
      .connectors(
        [DisplayConnector(card: "card0", type: Self.eDP, typeIndex: 1)],
        problems: ["card1: Permission denied"]))
    #expect(choice.orientation == .normal)
    #expect(
      choice.source
        == "the kernel: card0 eDP-1 has no panel orientation: taken as normal; not read: card1: Permission denied"
    )
  }

  @Test("No built-in panel, or no connector at all, is normal, and names what was seen")
  func noPanel() {
    let external = decide(
      .connectors([DisplayConnector(card: "card0", type: Self.hdmi, typeIndex: 2)], problems: []))
    #expect(external.orientation == .normal)
    #expect(
      external.source
        == "the kernel: no built-in panel (eDP, LVDS, DSI or DPI), only HDMI-A-2: taken as normal")
    let none = decide(.connectors([], problems: []))
    #expect(
      none.source == "the kernel: no built-in panel (eDP, LVDS, DSI or DPI), no connector: taken as normal")
  }

  @Test("No DRM device is normal, and says why")
  func noDevice() {
    let choice = decide(.noDevice("/dev/dri does not exist"))
    #expect(
      choice
        == PanelChoice(
          orientation: .normal, source: "no DRM device (/dev/dri does not exist): taken as normal"))
  }

  @Test("A value the kernel may add later is normal, and named")
  func unknownValue() {
    let choice = decide(
      .connectors(
        [DisplayConnector(card: "card0", type: Self.eDP, typeIndex: 1, panelOrientation: "Diagonal")],
        problems: []))
    #expect(choice.orientation == .normal)
    #expect(choice.source.contains("'Diagonal', which orientd does not know"))
  }

  @Test(
    "Connector names follow the kernel's",
    arguments: [(UInt32(14), "eDP-1"), (7, "LVDS-1"), (10, "DP-1"), (99, "Unknown-1")])
  func names(type: UInt32, name: String) {
    #expect(DisplayConnector(card: "card0", type: type, typeIndex: 1).name == name)
  }
}
