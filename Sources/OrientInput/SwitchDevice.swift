import CEvdev
import Glibc
import OrientCore
import OrientSystem

/// What became of a switch device after its waiting events were read.
enum SwitchDrain: Equatable, Sendable {
  /// Everything waiting was read; `changed` says whether a switch moved.
  case read(changed: Bool)
  /// The device is gone (removed, or its node hung up).
  case gone
  /// Reading failed with something other than the device going away: drop the device.
  case failed(InputError)
}

/// An evdev device with some of the switches orientd reads (`SW_TABLET_MODE`, `SW_LID`,
/// `SW_FRONT_PROXIMITY`), open and read through libevdev.
///
/// The node is opened read-only and non-blocking; the owner watches `descriptor` for
/// readability on its loop and calls `drain` when it is ready. libevdev keeps the switches'
/// state, including after the kernel's buffer overflowed (SYN_DROPPED: libevdev reads the
/// state again, which `drain` lets it finish).
final class SwitchDevice {
  /// The node, e.g. `/dev/input/event5`.
  let devnode: String
  /// The sysfs path, which hot-plug removals name.
  let syspath: String
  /// The device's name as the kernel reports it, control characters escaped.
  let name: String
  /// The switches of interest the device has, in the order they were asked for.
  let switches: [InputSwitch]
  private let file: FileDescriptor
  private let evdev: OpaquePointer
  /// Events read at most per `drain`; the rest wait for the next wake-up, so one chatty
  /// device cannot hold the loop.
  private static let eventsPerDrain = 256

  /// Opens the node of `candidate` and reads its switches. Nil when the device has none of
  /// `wanted` (udev's switch tag covers every switch); throws when it cannot be opened or is
  /// no evdev device.
  static func open(_ candidate: SwitchCandidate, wanted: [InputSwitch]) throws(InputError) -> SwitchDevice? {
    let file: FileDescriptor
    do {
      file = try FileDescriptor.open(candidate.devnode, .readOnly, options: [.nonBlocking])
    } catch {
      throw InputError(
        "cannot open the switch device \(candidate.devnode): \(error.code)", code: error.code)
    }
    var created: OpaquePointer?
    let result = libevdev_new_from_fd(file.rawValue, &created)
    guard result >= 0, let evdev = created else {
      throw InputError(
        "cannot read the input device \(candidate.devnode) with libevdev: \(Errno(rawValue: -result))",
        code: Errno(rawValue: -result))
    }
    let switches = wanted.filter {
      libevdev_has_event_code(evdev, UInt32(EV_SW), $0.code) == 1
    }
    guard !switches.isEmpty else {
      libevdev_free(evdev)
      return nil
    }
    return SwitchDevice(candidate, file: file, evdev: evdev, switches: switches)
  }

  private init(
    _ candidate: SwitchCandidate, file: consuming FileDescriptor, evdev: OpaquePointer,
    switches: [InputSwitch]
  ) {
    devnode = candidate.devnode
    syspath = candidate.syspath
    self.file = file
    self.evdev = evdev
    self.switches = switches
    name = libevdev_get_name(evdev).map { String(cString: $0).escapingControlCharacters } ?? ""
  }

  deinit { libevdev_free(evdev) }

  /// The descriptor to watch for readability; it stays open as long as the device object.
  var descriptor: Int32 { file.rawValue }

  /// The device's node and name for log lines, e.g. `/dev/input/event5 (Intel HID switches)`.
  var label: String { name.isEmpty ? devnode : "\(devnode) (\(name))" }

  /// The state of `input` as libevdev knows it (initially read from the kernel, then kept
  /// up to date by `drain`); nil when the device has no such switch.
  func state(_ input: InputSwitch) -> Bool? {
    guard switches.contains(input) else { return nil }
    return libevdev_get_event_value(evdev, UInt32(EV_SW), input.code) != 0
  }

  /// Reads the events waiting, until the device would block or `eventsPerDrain` were read.
  func drain() -> SwitchDrain {
    let before = switches.map { state($0) }
    var event = input_event()
    var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
    for _ in 0..<Self.eventsPerDrain {
      let result = libevdev_next_event(evdev, flags, &event)
      if result == LIBEVDEV_READ_STATUS_SUCCESS.rawValue {
        continue
      } else if result == LIBEVDEV_READ_STATUS_SYNC.rawValue {
        // SYN_DROPPED: the kernel's buffer overflowed. libevdev has read the device's state
        // again and hands out the differences as sync events; read them all.
        flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
      } else if result == -EAGAIN {
        // In sync mode, EAGAIN ends the sync events; otherwise nothing more is waiting.
        if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
          flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
          continue
        }
        break
      } else if result == -ENODEV {
        return .gone
      } else {
        return .failed(
          InputError(
            "reading the switch device \(label) failed: \(Errno(rawValue: -result))",
            code: Errno(rawValue: -result)))
      }
    }
    return .read(changed: switches.map { state($0) } != before)
  }
}
