import Foundation
import Testing

/// The first line `orientd-testbench switches` prints for a tablet-mode switch alone.
private let tabletSwitch = "switches SW_TABLET_MODE on /dev/input/event5 (Intel Virtual Switches)"

@Suite("Tablet-mode and lid switches read through libevdev on fake evdev devices", .scratch)
struct TabletSwitchTests {
  @Test("A switch in umockdev's own ioctl format reads laptop, then follows its recorded event to tablet")
  func umockdevRecording() throws {
    let umockdev = try #require(
      TestPaths.which("umockdev-run"), "umockdev-run is missing: apt-get install umockdev")
    let fixtures = TestPaths.packageRoot + "/Tests/Fixtures/"
    let input = try LineFeed(in: try Scratch.current().makeDirectory("recorded"))
    let process = try TestProcess(
      [
        umockdev, "--device", fixtures + "input-laptop.umockdev",
        "--ioctl", "/dev/input/event5=" + fixtures + "input-laptop.ioctl",
        "--evemu-events", "/dev/input/event5=" + fixtures + "input-unfold.evemu",
        "--", TestPaths.testbench, "switches",
      ], stdinPath: input.path)
    #expect(
      process.waitForLines(3) == ["tablet no lid none", tabletSwitch, "tablet yes lid none"],
      "\(process.stderr)")
    input.close()
    #expect(process.waitForExit() == 0)
  }

  @Test("The initial state is read: a switch in tablet mode reads tablet")
  func initialTablet() throws {
    let run = try FakeInputRun(devices: ["tablet"])
    #expect(run.waitForLines(2) == ["tablet yes lid none", tabletSwitch], "\(run.process.stderr)")
    #expect(
      run.logs("tablet-mode switch: reading /dev/input/event5 (Intel Virtual Switches): SW_TABLET_MODE 1"))
    #expect(run.stop() == 0)
  }

  @Test("The initial state is read: a switch in laptop mode reads laptop")
  func initialLaptop() throws {
    let run = try FakeInputRun(devices: ["laptop"])
    #expect(run.waitForLines(2) == ["tablet no lid none", tabletSwitch], "\(run.process.stderr)")
    #expect(run.stop() == 0)
  }

  @Test("Events switch between tablet and laptop; an event that changes nothing reports nothing")
  func events() throws {
    let run = try FakeInputRun(devices: ["laptop"])
    #expect(run.waitForLines(2).first == "tablet no lid none", "\(run.process.stderr)")
    run.send("switch laptop tablet 1")
    #expect(run.waitForLines(3).last == "tablet yes lid none")
    run.send("switch laptop tablet 1")
    run.send("switch laptop tablet 0")
    #expect(run.waitForLines(4).last == "tablet no lid none")
    #expect(run.stop() == 0)
    #expect(run.lines == ["tablet no lid none", tabletSwitch, "tablet yes lid none", "tablet no lid none"])
  }

  @Test("After the kernel's buffer overflowed (SYN_DROPPED), the switch's state is read again")
  func droppedEvents() throws {
    let run = try FakeInputRun(devices: ["tablet"])
    #expect(run.waitForLines(2).first == "tablet yes lid none", "\(run.process.stderr)")
    // The change is only in the device's state (EVIOCGSW), not in any event.
    run.send("dropped tablet tablet 0")
    #expect(run.waitForLines(3).last == "tablet no lid none", "\(run.process.stderr)")
    #expect(run.stop() == 0)
  }

  @Test("A lid switch is read beside the tablet-mode switch, and follows its events")
  func lidSwitch() throws {
    let run = try FakeInputRun(devices: ["tablet", "lid"])
    let lines = run.waitForLines(2)
    #expect(lines.first == "tablet yes lid no", "\(run.process.stderr)")
    #expect(lines.last?.hasPrefix("switches ") == true)
    #expect(lines.last?.contains("SW_LID on /dev/input/event1 (Lid Switch)") == true)
    #expect(lines.last?.contains("SW_TABLET_MODE on /dev/input/event5 (Intel Virtual Switches)") == true)
    run.send("switch lid lid 1")
    #expect(run.waitForLines(3).last == "tablet yes lid yes")
    run.send("switch lid lid 0")
    #expect(run.waitForLines(4).last == "tablet yes lid no")
    #expect(run.stop() == 0)
  }

  @Test("A switch device without SW_TABLET_MODE or SW_LID (a headphone jack) is not read")
  func otherSwitchIgnored() throws {
    let alone = try FakeInputRun(devices: ["jack"])
    #expect(alone.waitForLines(2) == ["tablet none lid none", "switches none"], "\(alone.process.stderr)")
    #expect(alone.stop() == 0)
    let beside = try FakeInputRun(devices: ["jack", "tablet"])
    #expect(beside.waitForLines(2) == ["tablet yes lid none", tabletSwitch], "\(beside.process.stderr)")
    #expect(beside.stop() == 0)
  }

  @Test("orientd's own virtual switch is not read back as a hardware switch")
  func ownSwitchIgnored() throws {
    let run = try FakeInputRun(devices: [], uinput: true)
    #expect(run.waitForLines(2) == ["tablet none lid none", "switches none"], "\(run.process.stderr)")
    #expect(run.stop() == 0)
  }

  @Test(
    "A switch plugged in later is read, one unplugged is no longer, and a jack plugged in changes nothing")
  func hotplug() throws {
    let run = try FakeInputRun(devices: ["lid"])
    #expect(
      run.waitForLines(2) == ["tablet none lid no", "switches SW_LID on /dev/input/event1 (Lid Switch)"])
    run.send("add dock")
    #expect(run.waitForLines(3).last == "tablet yes lid no", "\(run.process.stderr)")
    #expect(run.logs("tablet-mode switch: reading /dev/input/event20 (Tablet Dock Switch): SW_TABLET_MODE 1"))
    run.send("input summary")
    #expect(
      run.waitForLines(4).last
        == "switches SW_LID on /dev/input/event1 (Lid Switch); SW_TABLET_MODE on /dev/input/event20 (Tablet Dock Switch)"
    )
    run.send("switch dock tablet 0")
    #expect(run.waitForLines(5).last == "tablet no lid no")
    run.send("unplug dock")
    #expect(run.waitForLines(6).last == "tablet none lid no")
    #expect(run.logs("tablet-mode switch: /dev/input/event20 (Tablet Dock Switch) was removed"))
    run.send("add jack")
    run.send("unplug lid")
    #expect(run.waitForLines(7).last == "tablet none lid none")
    run.send("input summary")
    #expect(run.waitForLines(8).last == "switches none")
    #expect(run.stop() == 0)
  }

  @Test(
    "A switch that goes away (ENODEV), hangs up or fails to read is logged by name and dropped; the other switch goes on",
    arguments: [
      (
        "vanish tablet",
        "warning: tablet-mode switch: /dev/input/event5 (Intel Virtual Switches) is gone; no longer read"
      ),
      (
        "hangup tablet",
        "warning: tablet-mode switch: /dev/input/event5 (Intel Virtual Switches) hung up; no longer read"
      ),
      (
        "fail tablet 5",
        "error: tablet-mode switch: reading the switch device /dev/input/event5 (Intel Virtual Switches) failed: Input/output error; no longer read"
      ),
    ])
  func failingDevice(command: String, logLine: String) throws {
    let run = try FakeInputRun(devices: ["tablet", "lid"])
    #expect(run.waitForLines(2).first == "tablet yes lid no", "\(run.process.stderr)")
    run.send(command)
    #expect(run.waitForLines(3).last == "tablet none lid no", "\(run.process.stderr)")
    #expect(run.logs(logLine), "\(run.process.stderr)")
    // Nothing stalls: the lid still follows its events, and the device is not read again.
    run.send("switch lid lid 1")
    #expect(run.waitForLines(4).last == "tablet none lid yes")
    run.send("input summary")
    #expect(run.waitForLines(5).last == "switches SW_LID on /dev/input/event1 (Lid Switch)")
    #expect(run.stop() == 0)
    #expect(occurrences(of: "tablet-mode switch: ", in: run.process.stderr) == 3, "\(run.process.stderr)")
  }
}

@Suite("The virtual tablet-mode switch (uinput)", .scratch)
struct VirtualTabletSwitchTests {
  @Test("Without /dev/uinput it logs once why, and the program goes on")
  func withoutUinput() throws {
    let unshare = try #require(TestPaths.which("unshare"), "unshare is missing (util-linux)")
    let scratch = try Scratch.current()
    let input = try LineFeed(in: try scratch.makeDirectory("virtual"))
    // A /dev of its own with no uinput in it, whatever this machine has: a tmpfs, and only
    // the host's null, zero and urandom bound into it (mount namespace, gone with the process).
    let saved = try scratch.makeDirectory("dev")
    let script = """
      mount --bind /dev "$0" && mount -t tmpfs none /dev &&
      for node in null zero urandom; do touch /dev/$node && mount --bind "$0/$node" /dev/$node || exit 1; done &&
      exec "$@"
      """
    let process = try TestProcess(
      [
        unshare, "--mount", "--propagation", "private", "/bin/sh", "-c", script, saved, TestPaths.testbench,
        "virtual-switch",
      ],
      stdinPath: input.path)
    #expect(process.waitForLines(1) == ["virtual switch none"], "\(process.stderr)")
    for mode in ["tablet", "laptop", "tablet"] { input.send(mode) }
    #expect(process.waitForLines(4).suffix(3) == ["set tablet", "set laptop", "set tablet"])
    input.close()
    #expect(process.waitForExit() == 0)
    let warning =
      "warning: cannot create a virtual tablet-mode switch: /dev/uinput does not exist (is the uinput module loaded?); going on without it"
    #expect(occurrences(of: warning, in: process.stderr) == 1, "\(process.stderr)")
    #expect(occurrences(of: "\n", in: process.stderr) == 1, "\(process.stderr)")
  }

  @Test("libevdev's messages are log lines, and a switch uinput made but cannot name is logged once and left")
  func namelessUinput() throws {
    let run = try FakeInputRun(
      devices: [], uinput: true, nameless: true, program: [TestPaths.testbench, "virtual-switch"])
    #expect(run.waitForLines(1) == ["virtual switch none"], "\(run.process.stderr)")
    run.send("input tablet")
    #expect(run.waitForLines(2).last == "set tablet")
    #expect(run.stop() == 0)
    let log = run.process.stderr.split(separator: "\n").filter { $0.hasPrefix("orientd-testbench: ") }
    #expect(
      log == [
        "orientd-testbench: error: libevdev: unable to fetch syspath or device node.",
        "orientd-testbench: warning: cannot create a virtual tablet-mode switch: the device /dev/uinput made cannot be found in /sys/devices/virtual/input; going on without it",
      ], "\(run.process.stderr)")
    #expect(!run.process.stderr.contains("event 5 1"), "nothing may be written to a switch that failed")
  }

  @Test(
    "On a uinput that answers as the kernel's, the switch is made with SW_TABLET_MODE only and writes each change once, then SYN_REPORT"
  )
  func eventStream() throws {
    let run = try FakeInputRun(devices: [], uinput: true, program: [TestPaths.testbench, "virtual-switch"])
    #expect(run.waitForLines(1) == ["virtual switch created"], "\(run.process.stderr)")
    // Already laptop (a new switch reads 0): nothing is written.
    for mode in ["laptop", "tablet", "tablet", "laptop"] { run.send("input \(mode)") }
    #expect(run.waitForLines(5).suffix(4) == ["set laptop", "set tablet", "set tablet", "set laptop"])
    #expect(run.stop() == 0)
    let told = run.process.stderr.split(separator: "\n").filter { $0.hasPrefix("uinput: ") }.map {
      String($0.dropFirst("uinput: ".count))
    }
    #expect(
      told == [
        "ioctl UI_GET_VERSION", "ioctl UI_SET_EVBIT 0", "ioctl UI_SET_EVBIT 5", "ioctl UI_SET_SWBIT 1",
        "ioctl UI_DEV_SETUP name 'orientd tablet-mode switch'", "ioctl UI_DEV_CREATE", "ioctl UI_GET_SYSNAME",
        // EV_SW SW_TABLET_MODE 1, SYN_REPORT; EV_SW SW_TABLET_MODE 0, SYN_REPORT.
        "event 5 1 1", "event 0 0 0", "event 5 1 0", "event 0 0 0",
        "ioctl UI_DEV_DESTROY",
      ], "\(run.process.stderr)")
  }
}

@Suite("orientd's mode from a tablet-mode switch", .scratch)
struct SwitchModeTests {
  @Test("orientd publishes the switch's mode, follows its events, and says unknown when the switch vanishes")
  func modeFollowsSwitch() throws {
    let directory = try Scratch.current().makeDirectory("daemon")
    let socket = directory + "/s"
    let run = try FakeInputRun(
      devices: ["laptop"], others: [.accelerometer(raw: (0, -256, 0))],
      program: [
        TestPaths.orientd, "--interval", "10", "--settle", "50", "--socket", socket, "--state",
        directory + "/state",
      ])
    try #require(
      run.logs("tablet-mode switch: reading /dev/input/event5 (Intel Virtual Switches): SW_TABLET_MODE 0"),
      "\(run.process.stderr)")
    #expect(run.logs("info: orientation normal"), "\(run.process.stderr)")
    // The device is classified before the mode turns: in tablet mode the screen then follows
    // it, where an undefined device would make the orientation undefined.
    #expect(run.logs("info: device normal"), "\(run.process.stderr)")
    let get = try runToCompletion([TestPaths.orientctl, "--socket", socket, "get"])
    #expect(get.stdout.contains("mode laptop"), "\(get)")

    let subscriber = try TestClient(path: socket)
    #expect(subscriber.readLines(through: "mode laptop").last == "mode laptop")
    _ = subscriber.linesBeforePong()
    subscriber.send("info\n")
    let info = subscriber.readLines(through: "ok")
    #expect(
      info.contains("info switches SW_TABLET_MODE on /dev/input/event5 (Intel Virtual Switches)"), "\(info)")
    #expect(info.contains { $0.hasPrefix("info tablet-mode laptop (") }, "\(info)")
    run.send("switch laptop tablet 1")
    #expect(subscriber.readLine() == "mode tablet")
    #expect(
      try runToCompletion([TestPaths.orientctl, "--socket", socket, "get", "mode"]).stdout == "tablet\n")
    run.send("switch laptop tablet 0")
    #expect(subscriber.readLine() == "mode laptop")

    run.send("vanish laptop")
    #expect(subscriber.readLine() == "mode unknown")
    #expect(
      run.logs(
        "warning: tablet-mode switch: /dev/input/event5 (Intel Virtual Switches) is gone; no longer read"))
    // orientd goes on serving.
    #expect(
      try runToCompletion([TestPaths.orientctl, "--socket", socket, "get", "mode"]).stdout == "unknown\n")
    #expect(run.stop() == 0)
  }
}
