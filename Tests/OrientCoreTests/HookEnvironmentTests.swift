import OrientCore
import Testing

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

  @Test("The touch matrices rotate the unit square onto itself")
  func touchMatricesAreRotations() {
    for orientation in ScreenOrientation.allCases {
      let numbers = HookEnvironment.touchMatrix(orientation).split(separator: " ").compactMap { Double($0) }
      #expect(numbers.count == 9)
      // Corners (0,0) and (1,1) of the touch area must land on corners again.
      for (x, y) in [(0.0, 0.0), (1.0, 1.0), (1.0, 0.0)] {
        let mappedX = numbers[0] * x + numbers[1] * y + numbers[2]
        let mappedY = numbers[3] * x + numbers[4] * y + numbers[5]
        #expect([0.0, 1.0].contains(mappedX) && [0.0, 1.0].contains(mappedY))
      }
    }
  }
}
