import Testing

@testable import OrientCore

/// Milliseconds as a sample time.
private func at(_ milliseconds: Int64) -> SampleTime { SampleTime(milliseconds: milliseconds) }

/// Gravity turned `degrees` from upright towards left-up.
private func turned(_ degrees: Double) -> Vector3 { uprightTilt(degrees: degrees) }

/// One poll's reading handed to `pace`; what it says to do next.
private func advance(
  _ pace: inout PollPace, after gravity: Vector3?, at time: SampleTime, settlesAt: SampleTime?
) -> PollPace.Next {
  pace.next(after: gravity, at: time, settlesAt: settlesAt)
}

@Suite("The pace of polling: rare at rest, at the interval in hand, fast while moving or deciding")
struct PollPaceTests {
  private let defaults = PollPace(interval: .milliseconds(200), restingInterval: .milliseconds(1000))

  /// A pace started at 0 that has seen the device still at every interval until `until`.
  private func still(until end: Int64, pace start: PollPace? = nil) -> (PollPace, PollPace.Next) {
    var pace = start ?? defaults
    pace.start(at: at(0))
    var next = PollPace.Next.every(pace.interval)
    var time: Int64 = 0
    while time <= end {
      next = pace.next(after: turned(0), at: at(time), settlesAt: nil)
      time += 200
    }
    return (pace, next)
  }

  @Test("Sampling starts at the interval: something just asked for samples")
  func startsHandled() {
    var pace = defaults
    pace.start(at: at(0))
    #expect(advance(&pace, after: turned(0), at: at(0), settlesAt: nil) == .every(.milliseconds(200)))
    #expect(advance(&pace, after: turned(0), at: at(9_800), settlesAt: nil) == .every(.milliseconds(200)))
  }

  @Test("A device still for 10 s is polled at the resting interval, one wake-up a second")
  func restsAfterTenSeconds() {
    let (_, next) = still(until: 10_000)
    #expect(next == .every(.milliseconds(1000)))
    let (_, before) = still(until: 9_800)
    #expect(before == .every(.milliseconds(200)))
  }

  @Test("The device rests once it has not moved for 10 s since sampling started or it last moved")
  func rests() {
    var (pace, _) = still(until: 9_800)
    #expect(!pace.rests(at: at(9_999)))
    #expect(pace.rests(at: at(10_000)))
    _ = advance(&pace, after: turned(30), at: at(10_200), settlesAt: nil)
    #expect(!pace.rests(at: at(20_199)))
    #expect(pace.rests(at: at(20_200)))
  }

  @Test("A sensor's noise is no movement: the device still rests")
  func noiseIsStill() {
    var (pace, _) = still(until: 10_000)
    let noisy = [Vector3(0.01, -0.995, 0.02), Vector3(-0.02, -1.01, 0), Vector3(0.015, -0.99, -0.01)]
    for (index, reading) in noisy.enumerated() {
      #expect(
        advance(&pace, after: reading, at: at(11_000 + 1000 * Int64(index)), settlesAt: nil)
          == .every(.seconds(1)))
    }
  }

  @Test("A turn seen at a resting poll is followed every 20 ms while it moves, then at the interval")
  func followsATurn() {
    var (pace, _) = still(until: 10_000)
    // The next resting poll finds the device 20 degrees into a turn.
    #expect(advance(&pace, after: turned(20), at: at(11_000), settlesAt: nil) == .every(.milliseconds(20)))
    var time: Int64 = 11_000
    for degrees in stride(from: 24.0, through: 90, by: 4) {
      time += 20
      #expect(
        advance(&pace, after: turned(degrees), at: at(time), settlesAt: nil) == .every(.milliseconds(20)))
    }
    // At rest again: 20 ms polls until 60 ms have passed without movement.
    time += 20
    #expect(advance(&pace, after: turned(90), at: at(time), settlesAt: nil) == .every(.milliseconds(20)))
    time += 20
    #expect(advance(&pace, after: turned(90), at: at(time), settlesAt: nil) == .every(.milliseconds(20)))
    time += 20
    #expect(advance(&pace, after: turned(90), at: at(time), settlesAt: nil) == .every(.milliseconds(200)))
  }

  @Test("A slow turn whose samples leave the anchor every other poll is followed all along")
  func slowTurn() {
    var (pace, _) = still(until: 10_000)
    var time: Int64 = 11_000
    #expect(advance(&pace, after: turned(10), at: at(time), settlesAt: nil) == .every(.milliseconds(20)))
    // 1.8 degrees a poll (90 degrees in a second): about 0.03 g, under the tolerance alone.
    for step in 1...20 {
      time += 20
      let next = pace.next(after: turned(10 + 1.8 * Double(step)), at: at(time), settlesAt: nil)
      #expect(next == .every(.milliseconds(20)), "poll \(step)")
    }
  }

  @Test("After a move the device counts as handled for 10 s, then rests again")
  func handledThenResting() {
    var (pace, _) = still(until: 10_000)
    _ = pace.next(after: turned(90), at: at(11_000), settlesAt: nil)
    var time: Int64 = 11_000
    var last = PollPace.Next.every(.zero)
    while time < 20_900 {
      time += 20
      last = pace.next(after: turned(90), at: at(time), settlesAt: nil)
    }
    #expect(last == .every(.milliseconds(200)))
    #expect(advance(&pace, after: turned(90), at: at(21_000), settlesAt: nil) == .every(.seconds(1)))
  }

  @Test("A device that keeps moving with nothing pending is polled fast for at most a second")
  func burstIsBounded() {
    var (pace, _) = still(until: 10_000)
    var time: Int64 = 11_000
    var nexts: [PollPace.Next] = []
    for step in 0..<80 {
      // Carried about: swaying 8 degrees either way, never near another orientation.
      nexts.append(pace.next(after: turned(step % 2 == 0 ? 8 : -8), at: at(time), settlesAt: nil))
      time += 20
    }
    #expect(nexts.prefix(50).allSatisfy { $0 == .every(.milliseconds(20)) })
    #expect(nexts.suffix(20).allSatisfy { $0 == .every(.milliseconds(200)) })
  }

  @Test("A change pending: every 20 ms, or at its settle time when that comes sooner, never a negative wait")
  func pending() {
    var pace = defaults
    pace.start(at: at(0))
    #expect(advance(&pace, after: turned(70), at: at(1000), settlesAt: at(1200)) == .after(.milliseconds(20)))
    #expect(advance(&pace, after: turned(70), at: at(1190), settlesAt: at(1200)) == .after(.milliseconds(10)))
    #expect(advance(&pace, after: turned(70), at: at(1201), settlesAt: at(1200)) == .after(.zero))
    // Nothing read (a failed poll) still waits for the settle time.
    #expect(advance(&pace, after: nil, at: at(1195), settlesAt: at(1200)) == .after(.milliseconds(5)))
  }

  @Test("A change pending is decided at the fast pace even after a long burst")
  func pendingBeatsBurstLimit() {
    var (pace, _) = still(until: 10_000)
    var time: Int64 = 11_000
    for step in 0..<60 {
      _ = pace.next(after: turned(step % 2 == 0 ? 8 : -8), at: at(time), settlesAt: nil)
      time += 20
    }
    #expect(
      advance(&pace, after: turned(70), at: at(time), settlesAt: at(time + 200)) == .after(.milliseconds(20)))
  }

  @Test(
    "A resting interval shorter than the interval is the interval; an interval under 20 ms is never slowed")
  func bounds() {
    let pace = PollPace(interval: .milliseconds(500), restingInterval: .milliseconds(100))
    #expect(pace.restingInterval == .milliseconds(500))
    let fast = PollPace(interval: .milliseconds(10), restingInterval: .milliseconds(10))
    #expect(fast.movingPeriod == .milliseconds(10))
    var started = fast
    started.start(at: at(0))
    #expect(advance(&started, after: turned(0), at: at(0), settlesAt: at(300)) == .after(.milliseconds(10)))
  }

  @Test("With the resting interval equal to the interval, polling never slows down (today's 200 ms pace)")
  func restingAtInterval() {
    let (_, next) = still(
      until: 30_000, pace: PollPace(interval: .milliseconds(200), restingInterval: .milliseconds(200)))
    #expect(next == .every(.milliseconds(200)))
  }

  @Test(
    "Told to rest at the interval (a hinge needs both sensors current), a resting device is polled at the interval"
  )
  func restAtInterval() {
    var (pace, _) = still(until: 10_000)
    #expect(advance(&pace, after: turned(0), at: at(11_000), settlesAt: nil) == .every(.seconds(1)))
    pace.rest(every: .milliseconds(200))
    #expect(advance(&pace, after: turned(0), at: at(12_000), settlesAt: nil) == .every(.milliseconds(200)))
  }

  @Test("Starting again forgets the motion seen before: the first sample after is no movement")
  func startForgets() {
    var (pace, _) = still(until: 10_000)
    pace.start(at: at(60_000))
    #expect(advance(&pace, after: turned(90), at: at(60_000), settlesAt: nil) == .every(.milliseconds(200)))
    #expect(advance(&pace, after: turned(90), at: at(70_000), settlesAt: nil) == .every(.seconds(1)))
  }
}

private func watchAdd(_ watch: inout MotionWatch, _ gravity: Vector3, at time: SampleTime) -> Bool {
  watch.add(gravity, at: time)
}

@Suite("Watching whether the gravity vector moves")
struct MotionWatchTests {
  @Test("The first sample is no movement; one 3 degrees or more from the anchor is")
  func movesFromAnchor() {
    var watch = MotionWatch()
    #expect(!watchAdd(&watch, turned(0), at: at(0)))
    #expect(watch.stillSince == at(0))
    #expect(watch.movedAt == nil)
    #expect(!watchAdd(&watch, turned(2), at: at(20)))
    #expect(watchAdd(&watch, turned(3.5), at: at(40)))
    #expect(watch.stillSince == at(40))
    #expect(watch.movedAt == at(40))
  }

  @Test("Small steps that add up move: the anchor stays where the stillness began")
  func driftMoves() {
    var watch = MotionWatch()
    watch.add(turned(0), at: at(0))
    #expect(!watchAdd(&watch, turned(1.5), at: at(100)))
    #expect(!watchAdd(&watch, turned(2.5), at: at(200)))
    #expect(watchAdd(&watch, turned(3.5), at: at(300)))
  }

  @Test("The tolerance is relative: a sensor reading 26 g for 1 g moves as one reading 1 g does")
  func relativeTolerance() {
    var watch = MotionWatch()
    let scaled = { (v: Vector3) in Vector3(v.x * 26, v.y * 26, v.z * 26) }
    watch.add(scaled(turned(0)), at: at(0))
    #expect(!watchAdd(&watch, scaled(turned(2)), at: at(20)))
    #expect(watchAdd(&watch, scaled(turned(4)), at: at(40)))
  }

  @Test("A reading that is not a number moves")
  func notANumber() {
    var watch = MotionWatch()
    watch.add(turned(0), at: at(0))
    #expect(watchAdd(&watch, Vector3(.nan, -1, 0), at: at(20)))
  }

  @Test("Reset forgets the anchor and the last move")
  func reset() {
    var watch = MotionWatch()
    watch.add(turned(0), at: at(0))
    watch.add(turned(30), at: at(20))
    watch.reset()
    #expect(watch.stillSince == nil)
    #expect(watch.movedAt == nil)
    #expect(!watchAdd(&watch, turned(90), at: at(40)))
  }
}
