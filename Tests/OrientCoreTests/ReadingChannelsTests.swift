import Testing

@testable import OrientCore

@Suite("Where light, proximity and heading values are in the kernel's IIO names")
struct ReadingChannelsTests {
  @Test(
    "A value's scale is in its own file first, then in the one its channel type shares",
    arguments: [
      ("in_intensity_both", ["in_intensity_both_scale", "in_intensity_scale"]),
      ("in_illuminance0", ["in_illuminance0_scale", "in_illuminance_scale"]),
      ("in_illuminance_clear", ["in_illuminance_clear_scale", "in_illuminance_scale"]),
      ("in_intensity_clear", ["in_intensity_clear_scale", "in_intensity_scale"]),
      ("in_proximity0", ["in_proximity0_scale", "in_proximity_scale"]),
      (
        "in_rot_from_north_magnetic_tilt_comp",
        ["in_rot_from_north_magnetic_tilt_comp_scale", "in_rot_scale"]
      ),
    ])
  func scaleFiles(prefix: String, files: [String]) {
    #expect(ReadingChannels.scaleFiles(prefix) == files)
  }

  @Test("A value whose prefix is its type has one scale file, and a prefix that is not in_ has its own only")
  func scaleFilesUnshared() {
    #expect(ReadingChannels.scaleFiles("in_illuminance") == ["in_illuminance_scale"])
    #expect(ReadingChannels.scaleFiles("in_proximity") == ["in_proximity_scale"])
    #expect(ReadingChannels.scaleFiles("light") == ["light_scale"])
  }

  @Test("Offsets are looked for the same way")
  func offsetFiles() {
    #expect(
      ReadingChannels.offsetFiles("in_intensity_both") == ["in_intensity_both_offset", "in_intensity_offset"])
    #expect(
      ReadingChannels.offsetFiles("in_illuminance0") == ["in_illuminance0_offset", "in_illuminance_offset"])
    #expect(
      ReadingChannels.offsetFiles("in_rot_from_north_magnetic_tilt_comp")
        == ["in_rot_from_north_magnetic_tilt_comp_offset", "in_rot_offset"])
    #expect(ReadingChannels.offsetFiles("in_illuminance") == ["in_illuminance_offset"])
  }

  @Test("Light is polled from processed values first, then raw ones, the HID hub's last")
  func lightOrder() {
    let files = ReadingChannels.polled(.light).map(\.file)
    #expect(files.first == "in_illuminance_input")
    #expect(files.last == "in_intensity_both_raw")
    let firstRaw = files.firstIndex { $0.hasSuffix("_raw") }!
    #expect(files[..<firstRaw].allSatisfy { $0.hasSuffix("_input") })
    #expect(files[firstRaw...].allSatisfy { $0.hasSuffix("_raw") })
    for polled in ReadingChannels.polled(.light) {
      #expect(polled.processed == polled.file.hasSuffix("_input"))
      #expect(polled.file == polled.prefix + (polled.processed ? "_input" : "_raw"))
    }
  }

  @Test("Each reading kind has its poll files and scan channels; the accelerometer has none here")
  func kinds() {
    #expect(ReadingChannels.polled(.proximity).map(\.file) == ["in_proximity_raw", "in_proximity0_raw"])
    #expect(ReadingChannels.polled(.proximity).allSatisfy { !$0.processed })
    #expect(ReadingChannels.polled(.compass).map(\.file) == ["in_rot_from_north_magnetic_tilt_comp_raw"])
    #expect(ReadingChannels.polled(.compass).map(\.prefix) == ["in_rot_from_north_magnetic_tilt_comp"])
    #expect(ReadingChannels.scanned(.light) == ["intensity_both", "illuminance", "illuminance0"])
    #expect(ReadingChannels.scanned(.proximity) == ["proximity", "proximity0"])
    #expect(ReadingChannels.scanned(.compass) == ["rot_from_north_magnetic_tilt_comp"])
    #expect(ReadingChannels.polled(.accelerometer).isEmpty)
    #expect(ReadingChannels.scanned(.accelerometer).isEmpty)
  }
}
