import OrientCore
import OrientSystem

/// The machine's DMI modalias (`dmi:bvn...:svnLENOVO:pn80XE:...`), if the kernel exports it,
/// with control characters escaped: its fields are firmware strings, shown by `info`. A file
/// that cannot be read is as good as none: the modalias only narrows hwdb matches.
package func dmiModalias() -> String? {
  guard let text = try? FileSystem.readText("/sys/class/dmi/id/modalias") else { return nil }
  let value = String(text.trimmingSpaces).escapingControlCharacters
  return value.isEmpty ? nil : value
}
