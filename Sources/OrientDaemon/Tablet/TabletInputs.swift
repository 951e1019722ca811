import OrientCore
import OrientInput
import OrientSystem

/// The mode's inputs and outputs on the main loop beside the sensors: the hardware
/// tablet-mode and lid switches, read through OrientInput's watcher, and the virtual
/// tablet-mode switch that shows a mode given by a hinge to libinput and the desktop.
final class TabletInputs {
  /// Whether a mode from the hinge is shown as a virtual switch (`--tablet-switch`).
  private let showsHingeMode: Bool
  private var switches: TabletSwitchWatcher?
  /// Made the first time it is needed, and tried only then (it logs once on failure).
  private var virtualSwitch: VirtualTabletSwitch?
  private var virtualSwitchTried = false

  /// Inputs that show a hinge-given mode as a virtual switch when `showsHingeMode`.
  init(showsHingeMode: Bool) { self.showsHingeMode = showsHingeMode }

  /// Finds the machine's switches and follows them on `loop`; `changed` gets what they say,
  /// once at start and at every change.
  func watchSwitches(on loop: EventLoop, changed: @escaping (SwitchReadings) -> Void) {
    let watcher = TabletSwitchWatcher(loop: loop, onChange: changed)
    switches = watcher
    watcher.start()
  }

  /// The switches read, for `info`.
  var summary: String { switches?.summary ?? "none" }

  /// Shows `mode` on the virtual switch when a hinge (the hinge sensor, or two
  /// accelerometers) gives it and no hardware switch does (the two would disagree, and
  /// libinput would see both).
  func show(_ mode: TabletModeState) {
    guard showsHingeMode, mode.switchSaysTablet == nil else { return }
    let hinge = mode.hingeSensor.available ? mode.hingeSensor : mode.hinge
    guard hinge.available else { return }
    if !virtualSwitchTried {
      virtualSwitchTried = true
      virtualSwitch = VirtualTabletSwitch()
    }
    if hinge.mode != .unknown { virtualSwitch?.set(tablet: hinge.mode == .tablet) }
  }

  /// Stops reading the switches and removes the virtual one.
  func stop() {
    switches?.stop()
    switches = nil
    virtualSwitch = nil
  }
}
