import Foundation
import Testing

/// The traces of Tests/Fixtures/posture (written by benchmarks/posture.py: a hand's everyday
/// motions, synthesized at 50 Hz with a sensor's noise), replayed through `orientd --dump`.
@Suite("Replaying a hand's everyday motions with and without the posture graces", .scratch)
struct PostureTraceTests {
  static let graces = [
    "--flat-grace", "0", "--swing-grace", "0", "--shake-grace", "0", "--overhead-lock", "no",
  ]

  /// The screen orientations `orientd --dump --replay` publishes for a fixture, with their times.
  static func orientations(_ name: String, _ extra: [String] = []) throws -> [(time: Double, value: String)] {
    let path = TestPaths.packageRoot + "/Tests/Fixtures/posture/\(name).trace"
    let result = try runToCompletion([TestPaths.orientd, "--dump", "--replay", path] + extra)
    try #require(result.status == 0, "orientd exited \(result.status): \(result.stderr)")
    return result.stdout.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: " ")
      guard fields.count == 3, fields[1] == "orientation", let time = Double(fields[0]) else { return nil }
      return (time, String(fields[2]))
    }
  }

  @Test(
    "Picked up by a side edge, swung while carried, turned overhead onto one side: the screen stays normal; without the graces it turns",
    arguments: ["flat-pickup", "swing-carry", "roll-onto-side"])
  func falseTurnsAreGone(name: String) throws {
    // The premise: these motions do turn the screen when nothing holds it back.
    let without = try Self.orientations(name, Self.graces)
    #expect(without.first?.value == "normal")
    #expect(
      without.dropFirst().contains { $0.value != "normal" }, "\(name) turned nothing without the graces")
    let with = try Self.orientations(name)
    #expect(with.map(\.value) == ["normal"])
  }

  @Test(
    "Reading lying back, setting it on a table, handing it over: the screen stays normal",
    arguments: ["lie-back", "set-on-table", "hand-over"])
  func noFalseTurns(name: String) throws {
    #expect(try Self.orientations(name).map(\.value) == ["normal"])
  }

  @Test(
    "A real quarter turn is taken as soon as without the graces; a pick-up from flat waits out the flat grace"
  )
  func realTurns() throws {
    let turn = try Self.orientations("quarter-turn")
    #expect(turn.map(\.value) == ["normal", "left-up"])
    #expect(turn.map(\.time) == (try Self.orientations("quarter-turn", Self.graces)).map(\.time))
    let pickup = try Self.orientations("pickup-to-read")
    let quick = try Self.orientations("pickup-to-read", Self.graces)
    #expect(pickup.map(\.value) == ["left-up"])
    #expect(quick.map(\.value) == ["left-up"])
    // Later, by less than the grace of 750 ms.
    let delay = (pickup.first?.time ?? 0) - (quick.first?.time ?? 0)
    #expect(delay > 0 && delay < 0.75)
  }
}
