import OrientCore
import Testing

@Suite("Splitting client input into lines")
struct LineSplitterTests {
  func feed(_ splitter: inout LineSplitter, _ text: String) -> [SplitLine] {
    Array(text.utf8).withUnsafeBytes { splitter.append($0) }
  }

  @Test("Lines split on LF, a CR before it is dropped, and a partial line waits")
  func splits() {
    var splitter = LineSplitter(limit: 16)
    #expect(feed(&splitter, "get\r\nping\nlo") == [.line(Array("get".utf8)), .line(Array("ping".utf8))])
    // The partial "lo" is kept and completed by the next bytes.
    #expect(feed(&splitter, "ck\n") == [.line(Array("lock".utf8))])
    #expect(feed(&splitter, "\n") == [.line([])], "nothing of the last line is left over")
  }

  @Test("A line longer than the limit is refused, whether or not its LF has come")
  func tooLong() {
    var open = LineSplitter(limit: 8)
    #expect(feed(&open, "123456789012") == [.tooLong])
    var closed = LineSplitter(limit: 8)
    #expect(feed(&closed, "ok\n123456789\n") == [.line(Array("ok".utf8)), .tooLong])
    var exact = LineSplitter(limit: 8)
    #expect(feed(&exact, "12345678\r\n") == [.line(Array("12345678".utf8))])
  }
}
