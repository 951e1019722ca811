import Testing

@testable import OrientCore

private func at(_ seconds: Int64) -> SampleTime { SampleTime(milliseconds: seconds * 1000) }

@Suite("Checking the mount matrix against a laptop in use")
struct MountMatrixCheckTests {
  @Test(
    "A display that reads left-up for 10 s of laptop use is found wrong, once, with the turn that fixes it")
  func leftUpIsWrong() {
    var check = MountMatrixCheck()
    #expect(check.observe(device: .leftUp, laptopInUse: true, at: at(1)) == .checkAt(at(11)))
    #expect(check.observe(device: .leftUp, laptopInUse: true, at: at(10)) == .checkAt(at(11)))
    let turn = MountMatrixCheck.turn(from: .leftUp)
    #expect(
      check.observe(device: .leftUp, laptopInUse: true, at: at(11))
        == .found(.wrong(reads: .leftUp, turn: turn)))
    // Said once.
    #expect(check.observe(device: .leftUp, laptopInUse: true, at: at(30)) == .idle)
    // The turn takes what the display reads to normal.
    #expect(approximatelyEqual(turn * DeviceOrientation.leftUp.gravity, DeviceOrientation.normal.gravity))
  }

  @Test(
    "Each turn takes its orientation's gravity to normal's and is a rotation",
    arguments: [
      DeviceOrientation.leftUp, .rightUp, .bottomUp, .normal,
    ])
  func turns(reads: DeviceOrientation) {
    let turn = MountMatrixCheck.turn(from: reads)
    #expect(approximatelyEqual(turn * reads.gravity, DeviceOrientation.normal.gravity))
    #expect(approximatelyEqual(turn * Vector3(0, 0, 1), Vector3(0, 0, 1)))
  }

  @Test("Upright in laptop use agrees; a later wrong reading is still found")
  func agrees() {
    var check = MountMatrixCheck()
    _ = check.observe(device: .normal, laptopInUse: true, at: at(0))
    #expect(check.observe(device: .normal, laptopInUse: true, at: at(10)) == .found(.agrees))
    _ = check.observe(device: .bottomUp, laptopInUse: true, at: at(12))
    #expect(
      check.observe(device: .bottomUp, laptopInUse: true, at: at(22))
        == .found(.wrong(reads: .bottomUp, turn: MountMatrixCheck.turn(from: .bottomUp))))
  }

  @Test(
    "Leaving laptop use, changing orientation or lying flat starts the 10 s again; nothing is found meanwhile"
  )
  func interruptions() {
    var check = MountMatrixCheck()
    _ = check.observe(device: .leftUp, laptopInUse: true, at: at(0))
    #expect(check.observe(device: .leftUp, laptopInUse: false, at: at(5)) == .idle)
    #expect(check.observe(device: .leftUp, laptopInUse: true, at: at(6)) == .checkAt(at(16)))
    #expect(check.observe(device: .rightUp, laptopInUse: true, at: at(8)) == .checkAt(at(18)))
    #expect(check.observe(device: .faceUp, laptopInUse: true, at: at(9)) == .idle)
    #expect(check.observe(device: nil, laptopInUse: true, at: at(30)) == .idle)
    #expect(check.finding == nil)
  }
}
