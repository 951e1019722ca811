import Foundation
import Testing

/// orientd on a fake accelerometer reading `raw`, with a tablet-mode switch that says laptop.
private func laptopDaemon(raw: (Int, Int, Int)) throws -> (FakeInputRun, String) {
  let directory = try Scratch.current().makeDirectory("daemon")
  let socket = directory + "/s"
  let run = try FakeInputRun(
    devices: ["laptop"], others: [.accelerometer(raw: raw)],
    program: [
      TestPaths.orientd, "--mode", "poll", "--interval", "100", "--verbose", "--socket", socket, "--state",
      directory + "/state",
    ])
  return (run, socket)
}

private func orientctl(_ socket: String, _ arguments: String...) throws -> (status: Int32, stdout: String) {
  let result = try runToCompletion([TestPaths.orientctl, "--socket", socket] + arguments)
  return (result.status, result.stdout)
}

/// The `info` reply's lines, over the socket.
private func info(_ socket: String) throws -> String {
  let client = try TestClient(path: socket)
  client.send("info\n")
  return client.linesBeforePong().joined(separator: "\n")
}

@Suite("The mount matrix checked against laptop use, on a fake sensor and switch", .scratch)
struct MountMatrixCheckProcessTests {
  @Test(
    "A display that reads left-up while the switch says laptop is reported once in the log, info and doctor with the hwdb entry, and nothing is applied"
  )
  func leftUpInLaptopUse() throws {
    let (run, socket) = try laptopDaemon(raw: (256, 0, 0))
    #expect(
      run.logs("the display sensor reads left-up while the machine is a laptop in use"),
      "\(run.process.stderr)")
    #expect(run.logs("ACCEL_MOUNT_MATRIX=0, 1, 0; -1, 0, 0; 0, 0, 1"))
    let info = try info(socket)
    #expect(info.contains("matrix-check wrong: the display read left-up in laptop use"), "\(info)")
    #expect(info.contains("matrix-fix ACCEL_MOUNT_MATRIX=0, 1, 0; -1, 0, 0; 0, 0, 1"), "\(info)")
    #expect(info.contains("matrix-fix-key sensor:modalias:"), "\(info)")
    // Not applied: the sensor still reads left-up through the matrix it had.
    #expect(info.contains("matrix-source identity"), "\(info)")
    #expect(try orientctl(socket, "get", "device").stdout == "left-up\n")
    let doctor = try orientctl(socket, "doctor").stdout
    #expect(doctor.contains("WARNING: checked against laptop use: wrong"), "\(doctor)")
    #expect(doctor.contains(" ACCEL_MOUNT_MATRIX=0, 1, 0; -1, 0, 0; 0, 0, 1"), "\(doctor)")
    // Once the check is done, laptop mode needs no samples: sampling stops.
    #expect(run.logs("nothing needs samples: sampling stopped"), "\(run.process.stderr)")
    #expect(run.stop() == 0)
  }

  @Test("A display that reads upright in laptop use agrees, and says nothing is wrong")
  func uprightAgrees() throws {
    let (run, socket) = try laptopDaemon(raw: (0, -256, 0))
    #expect(
      run.logs("the display reads upright in laptop use: its mount matrix agrees"), "\(run.process.stderr)")
    let info = try info(socket)
    #expect(info.contains("matrix-check agrees"), "\(info)")
    #expect(!run.process.stderr.contains("looks a quarter turn off"))
    #expect(run.stop() == 0)
  }
}
