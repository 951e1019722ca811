import OrientCore
import Testing

private let facts = CaptureAnnouncement.Facts(
  interval: .milliseconds(200), pollMethod: "open sysfs files", bufferSetup: "scan 6 bytes, trigger none",
  frequencyChanges: ["in_accel_sampling_frequency 5 -> 10 Hz"])

@Suite("What the log and info say of how a sensor is read")
struct CaptureAnnouncementTests {
  @Test("Polling names the interval, the reason, how the attributes are read and the rates raised")
  func polling() {
    let text = CaptureAnnouncement.polling(reason: "--mode poll").text(facts)
    #expect(
      text.logLine
        == "capture mode poll every 200 ms: --mode poll; reading through open sysfs files, "
        + "in_accel_sampling_frequency 5 -> 10 Hz")
    #expect(text.mode == "poll every 200 ms")
    let resting = CaptureAnnouncement.polling(reason: "--mode poll").text(
      CaptureAnnouncement.Facts(interval: .milliseconds(200), restingInterval: .seconds(1)))
    #expect(resting.mode == "poll every 200 ms, every 1000 ms at rest")
    #expect(text.reason == "--mode poll")
  }

  @Test("Without rates raised, nothing trails the line")
  func noRatesRaised() {
    var plain = facts
    plain.frequencyChanges = []
    #expect(
      CaptureAnnouncement.polling(reason: "--mode poll").text(plain).logLine
        == "capture mode poll every 200 ms: --mode poll; reading through open sysfs files")
    #expect(
      CaptureAnnouncement.bufferGiven("--mode buffer").text(plain).reason
        == "--mode buffer; scan 6 bytes, trigger none")
  }

  @Test("A buffer given by the mode or the device says why, with its set-up")
  func bufferGiven() {
    let text = CaptureAnnouncement.bufferGiven("--mode buffer").text(facts)
    #expect(
      text.logLine
        == "capture mode buffer (--mode buffer): scan 6 bytes, trigger none, in_accel_sampling_frequency 5 -> 10 Hz"
    )
    #expect(text.mode == "buffer")
    #expect(
      text.reason == "--mode buffer; scan 6 bytes, trigger none, in_accel_sampling_frequency 5 -> 10 Hz")
  }

  @Test("A buffer on trial is shown as trying, and logged only once it delivers, with the time it took")
  func trialAndDelivery() {
    let trying = CaptureAnnouncement.bufferTrying.text(facts)
    #expect(trying.logLine == nil)
    #expect(trying.mode == "buffer (trying)")
    #expect(trying.reason == "waiting up to 1 s for the first scan")
    let first = CaptureAnnouncement.firstScan(after: .microseconds(312_999)).text(facts)
    #expect(
      first.logLine
        == "capture mode buffer: the first scan came after 312 ms; scan 6 bytes, trigger none, in_accel_sampling_frequency 5 -> 10 Hz"
    )
    #expect(first.reason.hasPrefix("the buffer delivered a scan after 312 ms; scan 6 bytes"))
    let retried = CaptureAnnouncement.bufferTakesOver(after: .milliseconds(40)).text(facts)
    #expect(
      retried.logLine
        == "capture mode buffer: the buffer tried again delivered a scan after 40 ms; polling stopped; "
        + "scan 6 bytes, trigger none, in_accel_sampling_frequency 5 -> 10 Hz")
    #expect(retried.mode == "buffer")
    #expect(retried.reason.hasPrefix("the buffer tried again after polling delivered a scan; scan 6 bytes"))
  }
}
