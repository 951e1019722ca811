import CLinux
import Glibc

/// The display connectors of the DRM devices in a directory, with each one's `panel
/// orientation`, read through the kernel's mode-setting requests (GETRESOURCES, GETCONNECTOR,
/// OBJ_GETPROPERTIES, GETPROPERTY), as libdrm's drmModeGetResources, drmModeGetConnectorCurrent
/// and drmModeObjectGetProperties would.
///
/// A handful of requests per connector, each answered from what the kernel holds: no connector
/// is probed (asking for its modes with room for one makes GETCONNECTOR report the modes it has
/// instead of probing the display, as drmModeGetConnectorCurrent does). Each device is held open
/// only while it is read: a process that opens a DRM device while no process is its master
/// becomes master until it closes it (drm_master_open in drivers/gpu/drm/drm_auth.c), and a
/// compositor asking for master in that moment would be refused.
package enum DRMConnectors {
  /// One connector as read.
  package struct Connector: Equatable, Sendable {
    /// The device, e.g. `card0`.
    package var card: String
    /// `DRM_MODE_CONNECTOR_*`.
    package var type: UInt32
    /// Its number among the connectors of its type, from 1.
    package var typeIndex: UInt32
    /// The name of its `panel orientation` value; nil when it has no such property.
    package var panelOrientation: String?
  }

  /// What a look found.
  package enum Reading: Equatable, Sendable {
    /// The connectors of the devices read, and a line for each device that could not be.
    case connectors([Connector], problems: [String])
    /// No device to read, and why.
    case noDevice(String)
  }

  /// The property the kernel gives a panel whose mount it knows.
  static let panelOrientationProperty = "panel orientation"

  /// The most connectors and properties read of one device or connector: far above any
  /// machine's, and a bound on what a device could make orientd allocate.
  static let limit: UInt32 = 256

  /// Reads every `cardN` device in `directory` (`/dev/dri`).
  package static func read(directory: String = "/dev/dri") -> Reading {
    let names: [String]
    do {
      names = try FileSystem.entries(of: directory)
    } catch {
      return .noDevice(error.code == .noSuchFile ? "\(directory) does not exist" : error.description)
    }
    let cards = names.filter(isCardName).sorted { cardNumber($0) < cardNumber($1) }
    guard !cards.isEmpty else { return .noDevice("\(directory) has no card device") }
    var connectors: [Connector] = []
    var problems: [String] = []
    for card in cards {
      do {
        connectors += try read(card: card, path: directory + "/" + card)
      } catch {
        problems.append("\(card): \(error)")
      }
    }
    return .connectors(connectors, problems: problems)
  }

  /// `card` followed by digits only (not the render nodes, which refuse these requests).
  static func isCardName(_ name: String) -> Bool {
    name.hasPrefix("card") && name.count > 4 && name.dropFirst(4).allSatisfy(\.isASCII)
      && name.dropFirst(4).allSatisfy(\.isNumber)
  }

  private static func cardNumber(_ name: String) -> Int { Int(name.dropFirst(4)) ?? .max }

  /// One device's connectors.
  private static func read(card: String, path: String) throws(SystemError) -> [Connector] {
    // Read-only, not following a link, non-blocking: nothing here waits on the device.
    let device = try FileDescriptor.open(path, .readOnly, options: [.noFollow, .nonBlocking])
    guard try device.status().kind == .characterDevice else {
      throw SystemError("read \(path)", code: Errno(rawValue: ENODEV))
    }
    var resources = clinux_drm_card_res()
    try request(device, clinux_drm_getresources, &resources, "DRM_IOCTL_MODE_GETRESOURCES \(path)")
    let count = min(resources.count_connectors, limit)
    guard count > 0 else { return [] }
    // The second request fills only the connector ids: the other counts go to zero.
    var ids = [UInt32](repeating: 0, count: Int(count))
    try ids.withUnsafeMutableBufferPointer { buffer throws(SystemError) in
      var fill = clinux_drm_card_res()
      fill.count_connectors = count
      fill.connector_id_ptr = UInt64(UInt(bitPattern: buffer.baseAddress))
      try request(device, clinux_drm_getresources, &fill, "DRM_IOCTL_MODE_GETRESOURCES \(path)")
    }
    var connectors: [Connector] = []
    for id in ids where id != 0 {
      connectors.append(try connector(id, of: device, card: card, path: path))
    }
    return connectors
  }

  /// One connector's type and `panel orientation`.
  private static func connector(_ id: UInt32, of device: borrowing FileDescriptor, card: String, path: String)
    throws(SystemError) -> Connector
  {
    var mode = clinux_drm_mode_info()
    var info = clinux_drm_get_connector()
    try withUnsafeMutablePointer(to: &mode) { pointer throws(SystemError) in
      info.connector_id = id
      // Room for one mode: the kernel then reports what it has instead of probing.
      info.count_modes = 1
      info.modes_ptr = UInt64(UInt(bitPattern: pointer))
      try request(device, clinux_drm_getconnector, &info, "DRM_IOCTL_MODE_GETCONNECTOR \(path) \(id)")
    }
    var connector = Connector(card: card, type: info.connector_type, typeIndex: info.connector_type_id)
    connector.panelOrientation = try panelOrientation(of: id, device: device, path: path)
    return connector
  }

  /// The name of the connector's `panel orientation` value, or nil.
  private static func panelOrientation(of id: UInt32, device: borrowing FileDescriptor, path: String)
    throws(SystemError) -> String?
  {
    let what = "DRM_IOCTL_MODE_OBJ_GETPROPERTIES \(path) \(id)"
    var list = clinux_drm_obj_get_properties()
    list.obj_id = id
    list.obj_type = clinux_drm_object_connector
    try request(device, clinux_drm_obj_getproperties, &list, what)
    let count = min(list.count_props, limit)
    guard count > 0 else { return nil }
    var properties = [UInt32](repeating: 0, count: Int(count))
    var values = [UInt64](repeating: 0, count: Int(count))
    try properties.withUnsafeMutableBufferPointer { ids throws(SystemError) in
      try values.withUnsafeMutableBufferPointer { numbers throws(SystemError) in
        var fill = clinux_drm_obj_get_properties()
        fill.obj_id = id
        fill.obj_type = clinux_drm_object_connector
        fill.count_props = count
        fill.props_ptr = UInt64(UInt(bitPattern: ids.baseAddress))
        fill.prop_values_ptr = UInt64(UInt(bitPattern: numbers.baseAddress))
        try request(device, clinux_drm_obj_getproperties, &fill, what)
      }
    }
    for (property, value) in zip(properties, values) {
      var described = clinux_drm_get_property()
      described.prop_id = property
      try request(
        device, clinux_drm_getproperty, &described, "DRM_IOCTL_MODE_GETPROPERTY \(path) \(property)")
      guard text(described.name) == panelOrientationProperty,
        described.flags & clinux_drm_mode_prop_enum != 0
      else { continue }
      return try enumName(
        property, value: value, count: described.count_enum_blobs, device: device, path: path)
    }
    return nil
  }

  /// The name an enum property gives `value`.
  private static func enumName(
    _ property: UInt32, value: UInt64, count: UInt32, device: borrowing FileDescriptor, path: String
  ) throws(SystemError) -> String? {
    let count = min(count, limit)
    guard count > 0 else { return nil }
    var entries = [clinux_drm_property_enum](repeating: clinux_drm_property_enum(), count: Int(count))
    try entries.withUnsafeMutableBufferPointer { buffer throws(SystemError) in
      var fill = clinux_drm_get_property()
      fill.prop_id = property
      fill.count_enum_blobs = count
      fill.enum_blob_ptr = UInt64(UInt(bitPattern: buffer.baseAddress))
      try request(device, clinux_drm_getproperty, &fill, "DRM_IOCTL_MODE_GETPROPERTY \(path) \(property)")
    }
    return entries.first { $0.value == value }.map { text($0.name) }
  }

  /// One request on the device.
  private static func request<Argument: BitwiseCopyable>(
    _ device: borrowing FileDescriptor, _ number: UInt, _ argument: inout Argument,
    _ what: @autoclosure () -> String
  ) throws(SystemError) {
    let raw = device.rawValue
    _ = try withUnsafeMutablePointer(to: &argument) { pointer throws(SystemError) in
      try systemCall(what()) { ioctl(raw, number, pointer) }
    }
  }

  /// A fixed-size, zero-padded name as text.
  private static func text<Name>(_ name: Name) -> String {
    withUnsafeBytes(of: name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
  }
}
