import OrientCore
import Testing

@Suite("Parsing allowed sets")
struct AllowedOrientationsTests {
  @Test("Lists print in clockwise order whatever order they were given in")
  func clockwiseOrder() throws {
    let allowed = try AllowedOrientations.parse("right-up, normal,bottom-up")
    #expect(allowed.listText == "normal,bottom-up,right-up")
    #expect(AllowedOrientations.all.listText == "normal,left-up,bottom-up,right-up")
  }

  @Test(
    "Unknown names, face orientations and empty lists are rejected",
    arguments: ["", "up", "face-up", "normal,,left-up"])
  func rejects(text: String) {
    #expect(throws: ValueError.self) { try AllowedOrientations.parse(text) }
  }

  @Test("all is the four orientations, alone or in a list")
  func all() throws {
    #expect(try AllowedOrientations.parse("all") == .all)
    #expect(try AllowedOrientations.parse(" all ") == .all)
    #expect(try AllowedOrientations.parse("normal,all") == .all)
  }
}
