#!/usr/bin/python3
"""A umockdev testbed of evdev switch devices, driven by commands on stdin.

usage: input-testbed.py FIXTURES [--device NAME]... [--describe FILE]...
                        [--uinput | --uinput-nameless] -- PROGRAM ARGUMENTS...

Each device NAME is input-NAME.umockdev (its sysfs and udev description) with
input-NAME.ioctl (its evdev ioctls, in umockdev's ioctl file format) in FIXTURES. The ioctls
are answered here rather than by umockdev's own ioctl tree, so that the switches' state
(EVIOCGSW) follows the events sent and reads can be made to fail. PROGRAM runs with
libumockdev-preload in the testbed; its stdin is a pipe, closed (and PROGRAM sent SIGTERM)
by `stop` or at the end of this script's stdin. --describe adds other devices (an
accelerometer) from a umockdev description FILE. Before PROGRAM starts, the testbed's root
is said on stderr as "testbed: root DIR", then PROGRAM's pid as "testbed: started PID".
Every command is acknowledged on stderr with "testbed: done COMMAND".

Commands:
  switch NAME CODE VALUE   an EV_SW event and SYN_REPORT (CODE: tablet, lid or proximity)
  dropped NAME CODE VALUE  the switch changes while the kernel's buffer overflows:
                           SYN_DROPPED, then the new state is only in EVIOCGSW
  add NAME                 the device appears (sysfs, node, udev "add" event)
  unplug NAME              udev "remove" event, then the device's files go
  vanish NAME              reads fail with ENODEV, as the kernel's after a removal
  fail NAME ERRNO          reads fail with ERRNO (a number)
  hangup NAME              the node's other end closes (reads give EIO, poll POLLHUP)
  input TEXT               writes the line TEXT to PROGRAM's stdin
  stop                     closes PROGRAM's stdin and sends it SIGTERM; the script exits
                           with PROGRAM's status
With --uinput, /dev/uinput is faked: the events written to it are printed on stderr as
"uinput: event TYPE CODE VALUE" lines, and its ioctls as "uinput: ioctl NAME [ARGUMENT]".
With --uinput-nameless, it does not know UI_GET_SYSNAME (as kernels before 3.15).
"""

import ctypes
import errno
import os
import shutil
import signal
import struct
import subprocess
import sys
import threading

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

EV_SYN, EV_SW = 0x00, 0x05
SYN_REPORT, SYN_DROPPED = 0, 3
CODES = {"tablet": 0x01, "lid": 0x00, "proximity": 0x0b}
EVENT = struct.Struct("llHHi")  # struct input_event on 64-bit Linux

# ioctl numbers: evdev's 'E' requests by their number (_IOC_NR).
NAMED = {"EVIOCGVERSION": 0x01, "EVIOCGID": 0x02, "EVIOCGREP": 0x03, "EVIOCGNAME": 0x06,
         "EVIOCGPHYS": 0x07, "EVIOCGUNIQ": 0x08, "EVIOCGPROP": 0x09, "EVIOCGKEY": 0x18,
         "EVIOCGLED": 0x19, "EVIOCGSND": 0x1A, "EVIOCGSW": 0x1B}
EVIOCGBIT_BASE = 0x20


def say(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def request_parts(request):
    return (request >> 30) & 3, (request >> 8) & 0xFF, request & 0xFF, (request >> 16) & 0x3FFF


class Device:
    def __init__(self, fixtures, name):
        self.name = name
        with open(os.path.join(fixtures, "input-%s.umockdev" % name)) as f:
            self.description = f.read()
        self.syspath = self.description.split("\n", 1)[0][3:].strip()
        node = next(line[3:].strip() for line in self.description.splitlines() if line.startswith("N: "))
        self.devnode = "/dev/" + node
        self.answers = {}
        self.switches = bytearray(8)
        with open(os.path.join(fixtures, "input-%s.ioctl" % name)) as f:
            for line in f:
                line = line.strip()
                if not line or line.startswith("#") or line.startswith("@"):
                    continue
                call, ret, data = (line.split(" ") + [""])[:3]
                base = call.split("(")[0]
                argument = int(call.split("(")[1].rstrip(")")) if "(" in call else 0
                number = EVIOCGBIT_BASE + argument if base == "EVIOCGBIT" else NAMED[base]
                self.answers[number] = (int(ret), bytes.fromhex(data))
        if NAMED["EVIOCGSW"] in self.answers:
            self.switches[:] = self.answers[NAMED["EVIOCGSW"]][1].ljust(8, b"\0")[:8]
        self.read_error = 0
        self.lock = threading.Lock()

    def set_switch(self, code, value):
        with self.lock:
            if value:
                self.switches[code // 8] |= 1 << (code % 8)
            else:
                self.switches[code // 8] &= ~(1 << (code % 8))

    def handle_ioctl(self, handler, client):
        direction, kind, number, size = request_parts(client.get_request())
        if kind != ord("E") or direction != 2:
            return False
        if number == NAMED["EVIOCGSW"]:
            with self.lock:
                ret, data = size, bytes(self.switches)
        elif number in self.answers:
            ret, data = self.answers[number]
        else:
            # What the kernel answers for a missing name (EVIOCGPHYS, EVIOCGUNIQ) or type.
            client.complete(-1, errno.ENOENT)
            return True
        data = data[:size].ljust(size, b"\0")
        if number >= EVIOCGBIT_BASE or number in (NAMED["EVIOCGNAME"], NAMED["EVIOCGPHYS"], NAMED["EVIOCGUNIQ"],
                                                   NAMED["EVIOCGPROP"], NAMED["EVIOCGKEY"], NAMED["EVIOCGLED"],
                                                   NAMED["EVIOCGSND"], NAMED["EVIOCGSW"]):
            ret = min(ret, size) if number == NAMED["EVIOCGNAME"] else size
        client.get_arg().resolve(0, size).update(0, data)
        client.complete(ret, 0)
        return True

    def handle_read(self, handler, client):
        with self.lock:
            failure = self.read_error
        if failure:
            client.complete(-1, failure)
            return True
        return False


class FakeUinput:
    """/dev/uinput answering libevdev as the kernel's uinput driver (version 5) does, and
    printing what it is told on stderr: "uinput: ioctl NAME [ARGUMENT]" and one
    "uinput: event TYPE CODE VALUE" line per input_event written. The device it creates is
    the fixture `device` (whose sysfs name is what UI_GET_SYSNAME answers); written events
    reach that device's readers."""

    NAMES = {0x01: "UI_DEV_CREATE", 0x02: "UI_DEV_DESTROY", 0x03: "UI_DEV_SETUP", 0x04: "UI_ABS_SETUP",
             0x2C: "UI_GET_SYSNAME", 0x2D: "UI_GET_VERSION", 0x64: "UI_SET_EVBIT", 0x65: "UI_SET_KEYBIT",
             0x66: "UI_SET_RELBIT", 0x67: "UI_SET_ABSBIT", 0x68: "UI_SET_MSCBIT", 0x69: "UI_SET_LEDBIT",
             0x6A: "UI_SET_SNDBIT", 0x6B: "UI_SET_FFBIT", 0x6D: "UI_SET_SWBIT", 0x6E: "UI_SET_PROPBIT"}

    def __init__(self, testbed, device, nameless):
        self.testbed = testbed
        self.device = device
        self.nameless = nameless

    def handle_ioctl(self, handler, client):
        direction, kind, number, size = request_parts(client.get_request())
        if kind != ord("U"):
            return False
        name = self.NAMES.get(number, "0x%X" % number)
        arg = client.get_arg()
        if name == "UI_GET_VERSION":
            arg.resolve(0, 4).update(0, struct.pack("I", 5))
            say("uinput: ioctl %s" % name)
        elif name == "UI_GET_SYSNAME" and self.nameless:
            # As kernels before 3.15 answer; libevdev then looks for the device in sysfs.
            say("uinput: ioctl %s" % name)
            client.complete(-1, errno.ENOTTY)
            return True
        elif name == "UI_GET_SYSNAME":
            sysname = self.device.syspath.split("/")[-2].encode() + b"\0"
            arg.resolve(0, size).update(0, sysname[:size].ljust(size, b"\0"))
            say("uinput: ioctl %s" % name)
        elif name == "UI_DEV_SETUP":
            setup = bytes(arg.resolve(0, size).retrieve())
            bustype, vendor, product, version = struct.unpack("HHHH", setup[:8])
            title = setup[8:88].split(b"\0")[0].decode()
            say("uinput: ioctl UI_DEV_SETUP name '%s'" % title)
        elif name.startswith("UI_SET_"):
            value = struct.unpack("Q", bytes(arg.retrieve())[:8])[0]
            say("uinput: ioctl %s %d" % (name, value))
        else:
            say("uinput: ioctl %s" % name)
            if name == "UI_DEV_CREATE":
                self.testbed.uevent("/sys" + self.device.syspath, "add")
        client.complete(0, 0)
        return True

    def handle_write(self, handler, client):
        data = bytes(client.get_arg().retrieve())
        whole = len(data) - len(data) % EVENT.size
        for offset in range(0, whole, EVENT.size):
            _, _, kind, code, value = EVENT.unpack(data[offset:offset + EVENT.size])
            say("uinput: event %d %d %d" % (kind, code, value))
            if kind == EV_SW:
                self.device.set_switch(code, value)
        if whole:
            os.write(self.testbed.get_dev_fd(self.device.devnode), data[:whole])
        client.complete(len(data), 0)
        return True


def main():
    # umockdev's uevent sender looks the device up with libudev in this process, which
    # must see the testbed as the program does.
    if "libumockdev-preload" not in os.environ.get("LD_PRELOAD", ""):
        environment = dict(os.environ)
        environment["LD_PRELOAD"] = "libumockdev-preload.so.0:" + environment.get("LD_PRELOAD", "")
        os.execve(sys.executable, [sys.executable] + sys.argv, environment)
    arguments = sys.argv[1:]
    fixtures = arguments.pop(0)
    split = arguments.index("--")
    options, program = arguments[:split], arguments[split + 1:]
    names = [options[i + 1] for i, option in enumerate(options) if option == "--device"]

    testbed = UMockdev.Testbed.new()
    devices = {}
    handlers = []

    def attach(device):
        handler = UMockdev.IoctlBase()
        handler.connect("handle-ioctl", device.handle_ioctl)
        handler.connect("handle-read", device.handle_read)
        # The handler first: adding the device may already announce it, and whoever opens
        # it then must find its ioctls answered.
        os.makedirs(os.path.dirname(testbed.get_root_dir() + "/ioctl" + device.devnode), exist_ok=True)
        testbed.attach_ioctl(device.devnode, handler)
        testbed.add_from_string(device.description)
        handlers.append(handler)

    for name in names:
        devices[name] = Device(fixtures, name)
        attach(devices[name])
    for i, option in enumerate(options):
        if option == "--describe":
            testbed.add_from_file(options[i + 1])
    if "--uinput" in options or "--uinput-nameless" in options:
        # The device uinput makes is there from the start; UI_DEV_CREATE announces it.
        made = devices["virtual"] = Device(fixtures, "virtual")
        attach(made)
        uinput = FakeUinput(testbed, made, "--uinput-nameless" in options)
        handler = UMockdev.IoctlBase()
        handler.connect("handle-ioctl", uinput.handle_ioctl)
        handler.connect("handle-write", uinput.handle_write)
        os.makedirs(testbed.get_root_dir() + "/ioctl/dev", exist_ok=True)
        testbed.attach_ioctl("/dev/uinput", handler)
        testbed.add_from_string("P: /devices/virtual/misc/uinput\nN: uinput\nE: DEVNAME=/dev/uinput\n"
                                "E: SUBSYSTEM=misc\nE: MAJOR=10\nE: MINOR=223\nA: dev=10:223\\n\n")
        handlers.append(handler)

    environment = dict(os.environ)
    environment["UMOCKDEV_DIR"] = testbed.get_root_dir()
    say("testbed: root %s" % testbed.get_root_dir())
    # The program dies with this script: a test that kills the script leaves nothing behind.
    libc = ctypes.CDLL(None, use_errno=True)
    child = subprocess.Popen(program, stdin=subprocess.PIPE, env=environment,
                             preexec_fn=lambda: libc.prctl(1, signal.SIGTERM))
    say("testbed: started %s" % child.pid)

    def send(device, events):
        data = b"".join(EVENT.pack(0, 0, kind, code, value) for kind, code, value in events)
        os.write(testbed.get_dev_fd(device.devnode), data)

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command, device = words[0], devices.get(words[1]) if len(words) > 1 else None
        if command == "stop":
            break
        if command == "input":
            child.stdin.write((line.split(None, 1)[1] if len(words) > 1 else "\n").encode())
            child.stdin.flush()
            say("testbed: done %s" % line.strip())
            continue
        if command == "add":
            device = devices[words[1]] = Device(fixtures, words[1])
            attach(device)
            testbed.uevent("/sys" + device.syspath, "add")
        elif device is None:
            say("testbed: unknown device in '%s'" % line.strip())
            continue
        elif command == "switch":
            code, value = CODES[words[2]], int(words[3])
            device.set_switch(code, value)
            send(device, [(EV_SW, code, value), (EV_SYN, SYN_REPORT, 0)])
        elif command == "dropped":
            code, value = CODES[words[2]], int(words[3])
            device.set_switch(code, value)
            send(device, [(EV_SYN, SYN_DROPPED, 0)])
        elif command == "unplug":
            testbed.uevent("/sys" + device.syspath, "remove")
            testbed.remove_device("/sys" + device.syspath)
        elif command in ("vanish", "fail"):
            with device.lock:
                device.read_error = errno.ENODEV if command == "vanish" else int(words[2])
            # Something to read, so that the reader wakes and meets the error.
            send(device, [(EV_SYN, SYN_REPORT, 0)])
        elif command == "hangup":
            os.close(testbed.get_dev_fd(device.devnode))
        else:
            say("testbed: unknown command '%s'" % line.strip())
            continue
        say("testbed: done %s" % line.strip())

    # The probes end at the end of their stdin, orientd at SIGTERM.
    child.stdin.close()
    child.terminate()
    status = child.wait()
    say("testbed: %s exited with %s" % (program[0], status))
    # The testbed's own cleanup would close the node a hangup already closed: its folder is
    # removed here instead.
    shutil.rmtree(testbed.get_root_dir(), ignore_errors=True)
    os._exit(status if status >= 0 else 128 - status)


main()
