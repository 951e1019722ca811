import Glibc
import Testing

@testable import OrientSystem

@Suite("Reading the DRM devices' connectors")
struct DRMConnectorsTests {
  @Test("A directory that does not exist, or holds no card device, is no device, and says which")
  func noDevice() throws {
    let path = try FileSystem.makeTemporaryDirectory(prefix: "/tmp/orientd-unit.")
    defer { try? FileSystem.removeTree(path) }
    #expect(DRMConnectors.read(directory: path + "/dri") == .noDevice("\(path)/dri does not exist"))
    // Render nodes and the by-path links are not card devices.
    try #require(mkdir(path + "/by-path", 0o700) == 0)
    let render = open(path + "/renderD128", O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
    try #require(render >= 0)
    close(render)
    #expect(DRMConnectors.read(directory: path) == .noDevice("\(path) has no card device"))
  }

  @Test("A card that is not a character device is named as not read, and no request is sent to it")
  func notADevice() throws {
    let path = try FileSystem.makeTemporaryDirectory(prefix: "/tmp/orientd-unit.")
    defer { try? FileSystem.removeTree(path) }
    let card = open(path + "/card0", O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
    try #require(card >= 0)
    close(card)
    // A link in its place is not followed.
    try #require(symlink("/dev/null", path + "/card1") == 0)
    guard case .connectors(let connectors, let problems) = DRMConnectors.read(directory: path) else {
      Issue.record("read as no device")
      return
    }
    #expect(connectors.isEmpty)
    #expect(problems.count == 2)
    #expect(problems.first?.hasPrefix("card0: read \(path)/card0: ") == true, "\(problems)")
    #expect(problems.last?.hasPrefix("card1: open \(path)/card1: ") == true, "\(problems)")
  }

  @Test(
    "Only cardN names are cards",
    arguments: [
      ("card0", true), ("card12", true), ("card", false), ("cardX", false), ("renderD128", false),
      ("card1-eDP-1", false),
    ])
  func cardNames(name: String, isCard: Bool) {
    #expect(DRMConnectors.isCardName(name) == isCard)
  }
}
