import Testing

@testable import OrientCore

/// Feeds `headings` to `filter`; returns what it published at each, nil where nothing.
private func feed(_ filter: inout HeadingFilter, _ headings: [Double]) -> [Double?] {
  headings.map { filter.take($0) }
}

@Suite("Compass headings: wrapped, rounded to a tenth, published on a move of a degree")
struct HeadingFilterTests {
  @Test(
    "Headings wrap into 0 to below 360 and round to a tenth",
    arguments: [
      (0.0, 0.0), (123.44, 123.4), (123.45, 123.5), (-10, 350), (-370, 350), (360, 0), (720.04, 0),
      (359.94, 359.9), (359.96, 0), (-0.04, 0), (-0.06, 359.9), (1e8 + 0.5, 280.5),
    ])
  func normalized(degrees: Double, heading: Double) throws {
    let normalized = try #require(HeadingFilter.normalized(degrees))
    #expect(abs(normalized - heading) < 1e-9, "\(degrees) gave \(normalized)")
    #expect(normalized >= 0 && normalized < 360)
  }

  @Test("Rounding never gives 360", arguments: [359.95, 359.99, 719.999, -0.001, -1e-12])
  func never360(degrees: Double) throws {
    #expect(try #require(HeadingFilter.normalized(degrees)) == 0)
  }

  @Test(
    "Not a number, an infinity, or beyond a billion degrees is no heading",
    arguments: [
      Double.nan, .infinity, -.infinity, 1e9, -1e9, 1e300,
    ])
  func notAHeading(degrees: Double) {
    #expect(HeadingFilter.normalized(degrees) == nil)
    var filter = HeadingFilter()
    #expect(filter.take(degrees) == nil)
    #expect(filter.published == nil, "a rejected reading publishes nothing")
  }

  @Test("The first heading is published, then only moves of a degree or more")
  func stepOfADegree() {
    var filter = HeadingFilter()
    #expect(feed(&filter, [90, 90.5, 90.9, 89.1, 91, 90.1, 89.9]) == [90, nil, nil, nil, 91, nil, 89.9])
    #expect(filter.published == 89.9)
  }

  @Test("A move of a degree in tenths is published, though the difference comes out a hair below 1")
  func tenthsThatAddUpToADegree() {
    // 4.1 - 3.1 is 0.9999999999999996 in binary floating point.
    #expect(4.1 - 3.1 < 1)
    var filter = HeadingFilter()
    #expect(feed(&filter, [3.1, 4.1]) == [3.1, 4.1])
    var down = HeadingFilter()
    #expect(feed(&down, [0.3, 359.3]) == [0.3, 359.3])
  }

  @Test("Moves are measured around the circle: 359.5 to 0.2 is 0.7 degrees, to 0.6 is 1.1")
  func aroundTheCircle() {
    var filter = HeadingFilter()
    #expect(feed(&filter, [359.5, 0.2, 0.6]) == [359.5, nil, 0.6])
    var back = HeadingFilter()
    #expect(feed(&back, [0.2, 359.5, 359.1]) == [0.2, nil, 359.1])
    var half = HeadingFilter()
    #expect(feed(&half, [10, 190, 10.5]) == [10, 190, 10.5], "half a turn is a move of 180 degrees")
  }

  @Test("A heading is compared after normalization: 450 after 90 is no move")
  func comparedNormalized() {
    var filter = HeadingFilter()
    #expect(feed(&filter, [90, 450, -270, 90.94, 91.04]) == [90, nil, nil, nil, 91])
  }

  @Test("A rejected reading leaves the heading published alone")
  func rejectedKeepsPublished() {
    var filter = HeadingFilter()
    #expect(feed(&filter, [200, .nan, 200.5, 201]) == [200, nil, nil, 201])
  }

  @Test("After a reset the next heading is published, even the same")
  func reset() {
    var filter = HeadingFilter()
    #expect(feed(&filter, [42, 42]) == [42, nil])
    filter.reset()
    #expect(filter.published == nil)
    #expect(feed(&filter, [42]) == [42])
  }
}
