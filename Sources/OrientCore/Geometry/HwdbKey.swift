/// Builds the hwdb match key `60-sensor.hwdb` uses for this sensor on this machine.
package enum HwdbKey {
  /// `sensor:modalias:<parent modalias>*:dmi:*:svn<vendor>:pn<product>:*`, falling back to the
  /// full DMI string when it lacks a vendor or product name.
  package static func make(modalias: String, dmi: String) -> String {
    let fields = dmi.split(separator: ":")
    let vendor = fields.first { $0.hasPrefix("svn") }
    let product = fields.first { $0.hasPrefix("pn") }
    let machine: String
    if let vendor, let product {
      machine = "dmi:*:\(vendor):\(product):*"
    } else {
      machine = dmi.isEmpty ? "dmi:*" : dmi
    }
    let device = modalias.isEmpty ? "*" : modalias + "*"
    return "sensor:modalias:\(device):\(machine)"
  }

  /// The lines for `/etc/udev/hwdb.d/61-sensor-local.hwdb`, the matrix rounded as the
  /// entries of systemd's own 60-sensor.hwdb are written.
  package static func entry(key: String, matrix: Matrix3) -> String {
    "\(key)\n ACCEL_MOUNT_MATRIX=\(MountMatrix.formatRounded(matrix))\n"
  }
}
