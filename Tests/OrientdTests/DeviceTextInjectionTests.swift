import Foundation
import Testing

@Suite("Line breaks in what a local device reports", .scratch)
struct DeviceTextInjectionTests {
  @Test("A driver name, label and mount matrix with newlines forge no --list, info or log line")
  func localDevice() throws {
    // umockdev reads `\n` in a value as a newline: the files hold real line breaks.
    let device = FakeDevice.accelerometer(name: "accel_3d\\ninfo forged yes")
      .with(attribute: "label", "accel-display\\norientd: info: orientation left-up")
      .with(attribute: "in_accel_mount_matrix", "1, 0, 0; 0, 1, 0; 0, 0, 1\\norientd: warning: forged")
    let list = try runWithFakeDevices([device], ["--list"])
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.contains("iio:device0  accel_3d\\ninfo forged yes"))
    #expect(list.stdout.contains("label accel-display\\norientd: info: orientation left-up"))
    let forged = ["info forged", "orientd: info: orientation left-up", "orientd: warning: forged"]
    let listed = (list.stdout + list.stderr).split(separator: "\n")
    #expect(!listed.contains { line in forged.contains { line.hasPrefix($0) } }, "\(listed)")

    let (run, socket) = try servingFakeSensor([device], extra: ["--settle", "0"])
    let client = try TestClient(path: socket)
    client.send("info\n")
    let info = client.linesBeforePong()
    #expect(info.contains("info sensor iio:device0 (accel_3d\\ninfo forged yes)"))
    let log = run.process.stderr.split(separator: "\n")
    #expect(!(info + log.map(String.init)).contains { line in forged.contains { line.hasPrefix($0) } })
    #expect(run.stop() == 0)
  }
}
