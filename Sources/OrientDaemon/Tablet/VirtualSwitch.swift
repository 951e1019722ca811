import OrientInput
import OrientSystem

/// The daemon's virtual tablet-mode switch (uinput): created once, written only when the
/// mode changes.
public final class VirtualSwitch {
  private let device: VirtualTabletSwitch
  /// What the device reports now; a new uinput switch starts at 0, laptop mode.
  private var tablet = false
  private var failing = false

  /// Creates the uinput device; without /dev/uinput (or permission), logs why once and
  /// returns nil, and orientd goes on without it.
  public init?() {
    do {
      device = try VirtualTabletSwitch()
    } catch {
      Log.warning("\(error); going on without it")
      return nil
    }
    Log.info("virtual tablet-mode switch created" + (device.devnode.map { " at \($0)" } ?? ""))
  }

  /// Reports tablet (true) or laptop mode, if that is a change.
  public func set(tablet: Bool) {
    guard tablet != self.tablet else { return }
    do {
      try device.set(tablet: tablet)
      self.tablet = tablet
      failing = false
    } catch {
      // Logged once per run of failures; the next change tries again.
      if !failing { Log.warning("\(error)") }
      failing = true
    }
  }
}
