import CIIO
import CUdev
import OrientCore
import OrientSystem

/// Finds the devices that may carry readings (light, proximity, heading, a hinge): IIO devices with
/// the channels `ReadingChannels` names, and hwmon devices with Apple's `light` file. What it
/// finds are facts; `SensorInventory` decides what they are.
package enum ReadingDiscovery {
  /// One IIO device's facts, with the device to open.
  package struct Found {
    package var facts: SensorDeviceFacts
    package var device: IIODevice?
  }

  /// The IIO devices of `context` that have a reading's attribute or scan element, in libiio's
  /// order, with what `udev` says of them (local contexts only).
  package static func iioDevices(in context: IIOContext, udev: UdevProperties?) -> [Found] {
    let devices = context.devices
    let triggers = Set(devices.filter(\.isTrigger).map(\.name))
    // The magnetometer's own channels too, to say why one without a heading is no compass.
    let files = Set(
      SensorKind.valueKinds.flatMap { ReadingChannels.polled($0).map(\.file) } + ["in_magn_x_raw"])
    let scans = Set(SensorKind.valueKinds.flatMap(ReadingChannels.scanned) + ["magn_x"])
    return devices.compactMap { device in
      guard !device.isTrigger else { return nil }
      var facts = SensorDeviceFacts(source: .iio(id: device.id, name: device.name))
      facts.files = Set(device.attributeFiles.filter(files.contains))
      facts.scanElements = Set(device.scanElementIDs.filter(scans.contains))
      guard !facts.files.isEmpty || !facts.scanElements.isEmpty else { return nil }
      if let own = device.ownTriggerName, triggers.contains(own) { facts.ownTrigger = own }
      if facts.files.contains(where: { $0.hasPrefix("in_proximity") })
        || facts.scanElements.contains(where: { $0.hasPrefix("proximity") })
      {
        facts.nearLevelProperty = udev?.value("PROXIMITY_NEAR_LEVEL", ofIIODevice: device.id)
        if case .text(let text) = device.read("in_proximity_nearlevel") { facts.nearLevelAttribute = text }
      }
      // A label is a file of its own: reading it asks nothing of the sensor.
      if device.name == ReadingChannels.hingeDeviceName,
        case .text(let text) = device.read(ReadingChannels.hingeLabelFile)
      {
        facts.angleLabel = text
      }
      return Found(facts: facts, device: device)
    }
  }

  /// The hwmon devices with a `light` file (Apple's SMC), through udev: the file sits in the
  /// hwmon device's directory or in its parent's (`applesmc.768/light`).
  package static func hwmonLightSensors() -> [SensorDeviceFacts] {
    guard let udev = udev_new() else { return [] }
    defer { udev_unref(udev) }
    guard let enumerate = udev_enumerate_new(udev) else { return [] }
    defer { udev_enumerate_unref(enumerate) }
    udev_enumerate_add_match_subsystem(enumerate, "hwmon")
    guard udev_enumerate_scan_devices(enumerate) >= 0 else { return [] }
    var found: [SensorDeviceFacts] = []
    var entry = udev_enumerate_get_list_entry(enumerate)
    while let current = entry {
      defer { entry = udev_list_entry_get_next(current) }
      guard let path = udev_list_entry_get_name(current).map({ String(cString: $0) }),
        let device = udev_device_new_from_syspath(udev, path)
      else { continue }
      defer { udev_device_unref(device) }
      // The parent's own, for a driver that registers hwmon on its platform device (applesmc).
      let parent = udev_device_get_parent(device).flatMap { udev_device_get_syspath($0) }.map {
        String(cString: $0)
      }
      guard
        let file = ([path] + (parent.map { [$0] } ?? [])).map({ $0 + "/light" }).first(
          where: FileSystem.exists)
      else { continue }
      // The name only labels the sensor: one that cannot be read is shown as none.
      let name =
        (try? FileSystem.readText(path + "/name", limit: 256)).map { String($0.trimmingSpaces) } ?? ""
      found.append(SensorDeviceFacts(source: .hwmon(lightFile: file, name: name.escapingControlCharacters)))
    }
    return found
  }
}

extension IIODevice {
  /// The input channels that are scan elements, each by the name its files carry between
  /// `in_` and `_en` (`intensity_both` for `in_intensity_both_en`).
  var scanElementIDs: [String] { scanElements.map(\.name) }

  /// The input scan element whose files are named `in_<name>_en`, `in_<name>_type`, ...
  func scanElement(_ name: String) -> OpaquePointer? { scanElements.first { $0.name == name }?.channel }

  /// The input channels that are scan elements, with their files' names: libiio's channel id,
  /// and the extended name libiio split off it, if any. That is not always the id alone:
  /// libiio 0.24 reads hid-sensor-magn-3d's `in_rot_from_north_magnetic_tilt_comp_en` as the
  /// channel `rot_from_north_magnetic` named `tilt_comp` (seen with Debian 12's libiio and
  /// kernel), so the compass's scan element was never found by its id and the compass was
  /// always polled.
  private var scanElements: [(name: String, channel: OpaquePointer)] {
    (0..<iio_device_get_channels_count(pointer)).compactMap { index in
      guard let channel = iio_device_get_channel(pointer, index), iio_channel_is_scan_element(channel),
        !iio_channel_is_output(channel), let id = iio_channel_get_id(channel)
      else { return nil }
      var name = String(cString: id)
      if let extended = iio_channel_get_name(channel) { name += "_" + String(cString: extended) }
      return (name, channel)
    }
  }
}
