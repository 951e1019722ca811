#!/usr/bin/python3
"""orientd and Debian's iio-sensor-proxy side by side on the same umockdev sensors, as a D-Bus
client sees them. Two measures:

usage: readings.py light ORIENTD IIO-SENSOR-PROXY BUS-CONFIG [SECONDS]
       readings.py footprint ORIENTD IIO-SENSOR-PROXY BUS-CONFIG [SECONDS]

light: one light sensor (in_illuminance_raw, scale 1, an integration time of 0.8 s, which both
take as their poll interval) and a client per daemon that claims it and timestamps every
PropertiesChanged carrying LightLevel, while this script writes a new value every 100 ms:
  noise  500 lux with uniform noise of +-3 %, for SECONDS (default 60)
  ramp   100 lux rising steadily to 200 lux over SECONDS
  steps  100 and 1000 lux in turn, 20 steps, each held 2 to 3.6 s (so that a step comes at
         any point of a poll interval): the delay from the write to the client's signal of a
         level within 10 % of the new one

footprint: an accelerometer (polled), a light sensor, a proximity sensor and a compass (HID
shaped, its buffer a FIFO that stays silent), and for SECONDS each: no client at all, then a
client claiming all four. Per daemon: memory (VmRSS; Pss and USS from smaps_rollup), CPU time
and wake-ups (voluntary and involuntary context switches, all threads) over the window.

Each daemon gets a private system bus of its own; BUS-CONFIG is the tests' private-bus config,
whose @BUS@ is the socket's path.
"""
import glob
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import gi

gi.require_version("UMockdev", "1.0")
gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib, UMockdev  # noqa: E402

if "libumockdev-preload" not in os.environ.get("LD_PRELOAD", ""):
    environment = dict(os.environ)
    environment["LD_PRELOAD"] = "libumockdev-preload.so.0:" + environment.get("LD_PRELOAD", "")
    os.execve(sys.executable, [sys.executable] + sys.argv, environment)

mode, orientd, proxy, bus_config = sys.argv[1:5]
seconds = float(sys.argv[5]) if len(sys.argv) > 5 else 60.0
NAME, PATH = "net.hadess.SensorProxy", "/net/hadess/SensorProxy"
FLAGS = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION

LIGHT = ("P: /devices/platform/als/iio:device0\nN: iio:device0\nE: DEVNAME=/dev/iio:device0\nE: SUBSYSTEM=iio\n"
         "E: IIO_SENSOR_PROXY_TYPE=iio-poll-als\nA: name=als-bench\\n\nA: in_illuminance_raw=500\\n\n"
         "A: in_illuminance_scale=1\\n\nA: in_illuminance_integration_time=0.8\\n\n")
ACCEL = ("P: /devices/platform/accel/iio:device1\nN: iio:device1\nE: DEVNAME=/dev/iio:device1\nE: SUBSYSTEM=iio\n"
         "E: IIO_SENSOR_PROXY_TYPE=iio-poll-accel\nA: name=accel_3d\\n\nA: in_accel_x_raw=0\\n\n"
         "A: in_accel_y_raw=-256\\n\nA: in_accel_z_raw=0\\n\nA: in_accel_scale=0.038307\\n\n")
PROXIMITY = ("P: /devices/platform/prox/iio:device2\nN: iio:device2\nE: DEVNAME=/dev/iio:device2\nE: SUBSYSTEM=iio\n"
             "E: IIO_SENSOR_PROXY_TYPE=iio-poll-proximity\nE: PROXIMITY_NEAR_LEVEL=128\nA: name=prox-bench\\n\n"
             "A: in_proximity_raw=0\\n\n")
COMPASS = ("P: /devices/platform/magn/iio:device3\nN: iio:device3\nE: DEVNAME=/dev/iio:device3\nE: SUBSYSTEM=iio\n"
           "E: IIO_SENSOR_PROXY_TYPE=iio-buffer-compass\nA: name=magn_3d\\n\n"
           "A: in_rot_from_north_magnetic_tilt_comp_raw=90\\n\nA: in_rot_scale=1\\n\n"
           "A: scan_elements/in_rot_from_north_magnetic_tilt_comp_en=0\\n\n"
           "A: scan_elements/in_rot_from_north_magnetic_tilt_comp_index=0\\n\n"
           "A: scan_elements/in_rot_from_north_magnetic_tilt_comp_type=le:s16/32>>0\\n\n"
           "A: buffer/enable=0\\n\nA: buffer/length=2\\n\nA: buffer/watermark=1\\n\n"
           "A: trigger/current_trigger=magn_3d-dev3\\n\n\n"
           "P: /devices/platform/triggers/trigger0\nE: SUBSYSTEM=iio\nA: name=magn_3d-dev3\\n\n")

testbed = UMockdev.Testbed.new()
testbed.add_from_string(LIGHT + ("\n" + ACCEL + "\n" + PROXIMITY + "\n" + COMPASS if mode == "footprint" else ""))
root = testbed.get_root_dir()
work = tempfile.mkdtemp(prefix="orientd-readings.")
if mode == "footprint":
    # The compass's node is a FIFO nobody writes: a buffer that stays silent.
    node = root + "/dev/iio:device3"
    os.unlink(node)
    os.mkfifo(node)
    keep_open = os.open(node, os.O_RDWR)


def set_level(lux):
    fresh = os.path.join(root, "level.new")
    with open(fresh, "w") as f:
        f.write("%d\n" % round(lux))
    os.rename(fresh, root + "/sys/devices/platform/als/iio:device0/in_illuminance_raw")


def start_bus(name):
    socket = os.path.join(work, name)
    with open(bus_config) as f:
        text = f.read().replace("@BUS@", socket)
    with open(socket + ".conf", "w") as f:
        f.write(text)
    process = subprocess.Popen(["dbus-daemon", "--config-file=" + socket + ".conf", "--nofork", "--nosyslog"],
                               stderr=subprocess.DEVNULL)
    while not os.path.exists(socket):
        time.sleep(0.01)
    return process, "unix:path=" + socket


class Client:
    """A client on one daemon's bus: claims sensors, timestamps each LightLevel signalled."""

    def __init__(self, address):
        self.levels = []
        self.connection = Gio.DBusConnection.new_for_address_sync(address, FLAGS, None, None)
        self.connection.signal_subscribe(NAME, "org.freedesktop.DBus.Properties", "PropertiesChanged", PATH, None,
                                         Gio.DBusSignalFlags.NONE, self.changed)

    def changed(self, connection, sender, path, interface, member, parameters):
        changed = parameters.unpack()[1]
        if "LightLevel" in changed:
            self.levels.append((time.monotonic(), changed["LightLevel"]))

    def claim(self, sensor):
        compass = sensor == "Compass"
        self.connection.call_sync(NAME, PATH + ("/Compass" if compass else ""), NAME + (".Compass" if compass else ""),
                                  "Claim" + sensor, None, None, Gio.DBusCallFlags.NONE, 5000, None)

    def close(self):
        self.connection.close_sync(None)


def wait_for_name(address):
    connection = Gio.DBusConnection.new_for_address_sync(address, FLAGS, None, None)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        owner = connection.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                     "NameHasOwner", GLib.Variant("(s)", (NAME,)), None, Gio.DBusCallFlags.NONE,
                                     5000, None)
        if owner.unpack()[0]:
            return
        time.sleep(0.05)
    raise SystemExit("readings: %s did not own %s" % (address, NAME))


loop = GLib.MainLoop()
threading.Thread(target=loop.run, daemon=True).start()
environment = dict(os.environ, UMOCKDEV_DIR=root)
processes = []
addresses = {}
pids = {}
for name, command in [("orientd", [orientd, "--dbus", "system", "--socket", os.path.join(work, "orientd.sock"),
                                   "--state", os.path.join(work, "state")]),
                      ("iio-sensor-proxy", [proxy])]:
    bus, address = start_bus("bus-" + name)
    processes.append(bus)
    daemon = subprocess.Popen(command, env=dict(environment, DBUS_SYSTEM_BUS_ADDRESS=address),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    processes.append(daemon)
    wait_for_name(address)
    addresses[name] = address
    pids[name] = daemon.pid


def finish():
    for process in reversed(processes):
        process.terminate()
        process.wait()
    loop.quit()
    shutil.rmtree(work, ignore_errors=True)


def write_every(values, interval=0.1):
    """Writes `values`, one every `interval`; returns when it began and ended."""
    start = time.monotonic()
    for index, value in enumerate(values):
        set_level(value)
        time.sleep(max(0, start + (index + 1) * interval - time.monotonic()))
    return start, time.monotonic()


def light():
    clients = {name: Client(address) for name, address in addresses.items()}
    for client in clients.values():
        client.claim("Light")
    count = int(seconds / 0.1)
    random.seed(7)
    set_level(500)
    time.sleep(3)
    noise = write_every([500 * (1 + random.uniform(-0.03, 0.03)) for _ in range(count)])
    ramp = write_every([100 + 100 * index / count for index in range(count)])
    steps = []
    for step in range(20):
        target = 1000 if step % 2 == 0 else 100
        steps.append((time.monotonic(), target))
        write_every([target] * random.randint(20, 36))
    time.sleep(1)
    print("light: one fake sensor, both polling it every 0.8 s, %d s per phase, a new value every 100 ms" % seconds)
    for name, client in clients.items():
        def signals(start, end):
            return [level for (at, level) in client.levels if start <= at < end]
        delays = []
        for written, target in steps:
            after = [at for (at, level) in client.levels if at >= written and abs(level - target) <= 0.1 * target]
            delays.append((after[0] - written) * 1000 if after else float("inf"))
        delays.sort()
        print("%s: noise (500 lux +-3 %%) %d PropertiesChanged with LightLevel; ramp (100 to 200 lux) %d; "
              "step (100 <-> 1000 lux) to the client: median %.0f ms, slowest %.0f ms over %d steps"
              % (name, len(signals(*noise)), len(signals(*ramp)), delays[len(delays) // 2], delays[-1], len(delays)))


def usage(pid):
    """CPU nanoseconds and context switches of each thread of `pid`, by thread id."""
    threads = {}
    for task in glob.glob("/proc/%d/task/*" % pid):
        try:
            with open(task + "/schedstat") as f:
                cpu = int(f.read().split()[0])
            with open(task + "/status") as f:
                switches = sum(int(line.split()[1]) for line in f
                               if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")))
        except OSError:
            continue
        threads[os.path.basename(task)] = (cpu, switches)
    return threads


def spent(before, after):
    """What the threads spent between the two `usage`s: a thread that started meanwhile counts
    whole; one that ended meanwhile is not seen (GLib's pool threads end when idle)."""
    cpu = sum(c - before.get(tid, (0, 0))[0] for tid, (c, _) in after.items())
    switches = sum(s - before.get(tid, (0, 0))[1] for tid, (_, s) in after.items())
    return cpu, switches


def memory(pid):
    """VmRSS, Pss and USS (private clean + dirty) in kB."""
    fields = {}
    with open("/proc/%d/smaps_rollup" % pid) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and parts[1].isdigit():
                fields[parts[0].rstrip(":")] = int(parts[1])
    return fields.get("Rss", 0), fields.get("Pss", 0), fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0)


def footprint():
    print("footprint: an accelerometer, a light sensor, a proximity sensor and a compass; %d s a window" % seconds)
    clients = {}
    for window in ["no client", "a client claiming all four"]:
        if clients:
            pass
        elif window != "no client":
            clients = {name: Client(address) for name, address in addresses.items()}
            for client in clients.values():
                for sensor in ["Accelerometer", "Light", "Proximity", "Compass"]:
                    client.claim(sensor)
            time.sleep(2)
        before = {name: usage(pid) for name, pid in pids.items()}
        time.sleep(seconds)
        for name, pid in pids.items():
            cpu, switches = spent(before[name], usage(pid))
            rss, pss, uss = memory(pid)
            print("%s, %s: CPU %.1f ms, %d wake-ups (%.2f a second); VmRSS %d kB, Pss %d kB, USS %d kB"
                  % (name, window, cpu / 1e6, switches, switches / seconds, rss, pss, uss))


try:
    {"light": light, "footprint": footprint}[mode]()
finally:
    finish()
