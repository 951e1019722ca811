import Testing

@testable import OrientIIO

@Suite("Reading iiod's answers as libiio 0.24 does")
struct IIODProtocolTests {
  @Test(
    "An ip: URI names the host and port libiio connects to",
    arguments: [
      ("192.168.1.67", "192.168.1.67", 30431), ("127.0.0.1:40000", "127.0.0.1", 40000),
      ("localhost:0x7700", "localhost", 0x7700), ("host:010", "host", 8), ("host:99abc", "host", 99),
      ("2001:db8::200e", "2001:db8::200e", 30431), ("[2001:db8::200e]:50000", "2001:db8::200e", 50000),
      ("[::1]:5", "::1", 5),
    ])
  func addresses(rest: String, host: String, port: Int) {
    let address = IIODProtocol.address(networkURI: rest)
    #expect(address?.host == host)
    #expect(address.map { Int($0.port) } == port)
  }

  @Test(
    "URIs libiio refuses, or resolves by DNS-SD, have no address to check",
    arguments: ["", ":30431", "host:", "host:x", "host:65536", "host:-1"])
  func noAddress(rest: String) {
    #expect(IIODProtocol.address(networkURI: rest) == nil)
  }

  @Test(
    "A length line reads as strtol then a cast to int",
    arguments: [
      ("1234", 1234), ("\n\n  +42 bytes", 42), ("-22", -22), ("2147483647", Int(Int32.max)),
      ("2147483648", Int(Int32.min)), ("4294967296", 0), ("6442450945", Int(Int32.min) + 1),
      ("-9223372036854775808", 0),
    ])
  func lengths(line: String, value: Int) {
    #expect(IIODProtocol.integer(inLine: Array(line.utf8)).map(Int.init) == value)
  }

  @Test(
    "A line without digits, or past a long, has no length",
    arguments: ["", "\n", "abc", "- 1", "9223372036854775808"])
  func noLength(line: String) {
    #expect(IIODProtocol.integer(inLine: Array(line.utf8)) == nil)
  }
}
