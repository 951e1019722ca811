import Testing

@testable import OrientCore

@Suite("The environment hooks run with")
struct HookEnvironmentTests {
  func lookup(_ orientation: ScreenOrientation) -> [String: String] {
    Dictionary(
      uniqueKeysWithValues: HookEnvironment.variables(
        orientation: orientation, previous: .normal, device: .faceUp
      )
      .map { ($0.name, $0.value) })
  }

  @Test(
    "Each screen orientation has the documented value for every tool",
    arguments: [
      (ScreenOrientation.normal, ["normal", "normal", "normal", "0", "none", "1 0 0 0 1 0 0 0 1"]),
      (.leftUp, ["left", "90", "270", "1", "left", "0 -1 1 1 0 0 0 0 1"]),
      (.bottomUp, ["inverted", "180", "180", "2", "inverted", "-1 0 1 0 -1 1 0 0 1"]),
      (.rightUp, ["right", "270", "90", "3", "right", "0 1 0 -1 0 1 0 0 1"]),
    ])
  func table(orientation: ScreenOrientation, expected: [String]) {
    let values = lookup(orientation)
    let names = [
      "ORIENTD_XRANDR", "ORIENTD_WL_TRANSFORM", "ORIENTD_SWAY_TRANSFORM", "ORIENTD_HYPRLAND_TRANSFORM",
      "ORIENTD_KSCREEN", "ORIENTD_TOUCH_MATRIX",
    ]
    #expect(names.map { values[$0] ?? "" } == expected)
    #expect(values["ORIENTD_ORIENTATION"] == orientation.name)
    #expect(values["ORIENTD_PREVIOUS"] == "normal")
    #expect(values["ORIENTD_DEVICE"] == "face-up")
  }

  /// Which way is down on the panel, in its own frame (x towards its right edge, y towards
  /// its top edge), when the device is held in `orientation`: read off the name, which says
  /// which edge points up.
  static func down(_ orientation: ScreenOrientation) -> (x: Double, y: Double) {
    switch orientation {
    case .normal: return (0, -1)  // the top edge is up
    case .leftUp: return (1, 0)  // the left edge is up, so the right edge is down
    case .bottomUp: return (0, 1)  // upside down
    case .rightUp: return (-1, 0)
    }
  }

  /// Where the user sees a touch at panel coordinates (u, v) (0 to 1, from the panel's own
  /// top-left corner, v growing downwards) on the screen turned to `orientation`: screen
  /// coordinates from the user's top-left corner, y growing downwards.
  static func seen(u: Double, v: Double, _ orientation: ScreenOrientation) -> (x: Double, y: Double) {
    let down = down(orientation)
    // The user's right is down turned a quarter counter-clockwise.
    let right = (x: -down.y, y: down.x)
    // The touch relative to the panel's centre, in the panel's frame.
    let point = (x: u - 0.5, y: 0.5 - v)
    return (0.5 + point.x * right.x + point.y * right.y, 0.5 + point.x * down.x + point.y * down.y)
  }

  @Test(
    "The touch matrix maps every touch to where the user sees it on the turned screen",
    arguments: ScreenOrientation.allCases)
  func touchMatrixFollowsTheScreen(orientation: ScreenOrientation) throws {
    let numbers = HookEnvironment.touchMatrix(orientation).split(separator: " ").compactMap { Double($0) }
    try #require(numbers.count == 9)
    #expect(numbers[6...] == [0, 0, 1], "the last row of an affine matrix")
    // The corners, the centre, and points that tell every rotation and mirror apart.
    for (u, v) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0), (0.5, 0.5), (0.2, 0.7), (0.9, 0.1)] {
      let mapped = (
        numbers[0] * u + numbers[1] * v + numbers[2], numbers[3] * u + numbers[4] * v + numbers[5]
      )
      let expected = Self.seen(u: u, v: v, orientation)
      #expect(
        abs(mapped.0 - expected.x) < 1e-12 && abs(mapped.1 - expected.y) < 1e-12,
        "(\(u), \(v)) maps to \(mapped), the user sees it at \(expected)")
    }
  }

  @Test(
    "The display transforms turn the picture so its top is the edge that points up",
    arguments: ScreenOrientation.allCases)
  func transformsFollowTheScreen(orientation: ScreenOrientation) {
    // The picture's top must point up, against down: the quarter turns counter-clockwise
    // from the panel's own top edge, (0, 1), to there.
    let down = Self.down(orientation)
    let up = (x: -down.x, y: -down.y)
    let quarters = [(0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0)].firstIndex { $0 == up }!
    let degrees = quarters * 90
    // The Wayland protocol's wl_output transform counts the picture's turn counter-clockwise
    // ("90 degrees counter-clockwise"), and Hyprland takes the enum's number; sway's command
    // counts clockwise and inverts it into the enum (commands/output/transform.c).
    #expect(HookEnvironment.waylandTransform(orientation) == (degrees == 0 ? "normal" : "\(degrees)"))
    #expect(HookEnvironment.hyprlandTransform(orientation) == "\(quarters)")
    #expect(HookEnvironment.swayTransform(orientation) == (degrees == 0 ? "normal" : "\(360 - degrees)"))
    #expect(HookEnvironment.xrandr(orientation) == ["normal", "left", "inverted", "right"][quarters])
    #expect(HookEnvironment.kscreen(orientation) == ["none", "left", "inverted", "right"][quarters])
  }
}

@Suite("What orientd's own hooks inherit of its environment")
struct DaemonHookInheritanceTests {
  @Test(
    "The locale, paths, display variables and ORIENTD_ overrides pass; systemd's sockets and anything else do not",
    arguments: [
      ("PATH", true), ("LANG", true), ("LC_ALL", true), ("LC_TIME", true), ("TZ", true), ("HOME", true),
      ("DISPLAY", true), ("XAUTHORITY", true), ("WAYLAND_DISPLAY", true), ("ORIENTD_OUTPUT", true),
      ("ORIENTD_HOOK", true), ("NOTIFY_SOCKET", false), ("WATCHDOG_USEC", false), ("WATCHDOG_PID", false),
      ("LISTEN_FDS", false), ("LISTEN_PID", false), ("INVOCATION_ID", false), ("JOURNAL_STREAM", false),
      ("CREDENTIALS_DIRECTORY", false), ("DBUS_SYSTEM_BUS_ADDRESS", false), ("MY_API_TOKEN", false),
      ("PATHS", false), ("", false),
    ])
  func inheritance(name: String, inherited: Bool) {
    #expect(HookEnvironment.isInheritedByDaemonHooks(name) == inherited)
  }
}
