import OrientCore
import Testing

@Suite("Counting the socket clients that need device changes or samples")
struct SubscriberCountsTests {
  let device = ClientNeeds(deviceChanges: true, samples: false)
  let samples = ClientNeeds(deviceChanges: false, samples: true)
  let both = ClientNeeds(deviceChanges: true, samples: true)

  /// Applies each client's change in turn and returns what each one reported.
  func reports(_ changes: [(ClientNeeds, ClientNeeds)], to counts: inout SubscriberCounts) -> [Bool] {
    changes.map { counts.update(from: $0.0, to: $0.1) }
  }

  @Test("Only the first device subscriber and the last to leave are reported")
  func deviceSubscribers() {
    var counts = SubscriberCounts()
    let arriving = reports([(.nothing, device), (.nothing, device)], to: &counts)
    #expect(arriving == [true, false])
    #expect(counts.deviceSubscribers == 2 && counts.wantsDevice && !counts.wantsSamples)
    let first = reports([(device, .nothing)], to: &counts)
    #expect(first == [false])
    #expect(counts.wantsDevice)
    let last = reports([(device, .nothing)], to: &counts)
    #expect(last == [true])
    #expect(!counts.wantsDevice)
  }

  @Test("Only the first sample subscriber and the last to stop are reported")
  func sampleSubscribers() {
    var counts = SubscriberCounts()
    let started = reports([(.nothing, samples), (.nothing, samples)], to: &counts)
    #expect(started == [true, false])
    #expect(counts.wantsSamples && !counts.wantsDevice)
    let stopped = reports([(samples, .nothing), (samples, .nothing)], to: &counts)
    #expect(stopped == [false, true])
    #expect(!counts.wantsSamples)
  }

  @Test("A client trading one need for another is reported when either total starts or stops")
  func trading() {
    var counts = SubscriberCounts()
    let traded = reports([(.nothing, device), (device, samples)], to: &counts)
    #expect(traded == [true, true], "devices stop, samples start")
    #expect(counts.deviceSubscribers == 0 && counts.sampleSubscribers == 1)
    let unchanged = reports([(samples, samples)], to: &counts)
    #expect(unchanged == [false])
    let second = reports([(.nothing, both), (both, device)], to: &counts)
    #expect(second == [true, false], "the first client still streams: samples stay wanted")
    #expect(counts.wantsSamples && counts.wantsDevice)
  }

  @Test("A client leaving with both needs is one report, after which nothing is wanted")
  func leavingWithBoth() {
    var counts = SubscriberCounts()
    let arrivedAndLeft = reports([(.nothing, both), (both, .nothing)], to: &counts)
    #expect(arrivedAndLeft == [true, true])
    #expect(counts == SubscriberCounts())
  }
}
