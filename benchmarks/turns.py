#!/usr/bin/python3
"""iio-sensor-proxy and one or more orientds on the same turns of one umockdev accelerometer.

Run by benchmarks/turns.sh, which builds the binaries and says what every setting does:

usage: turns.py --work DIR --proxy IIO-SENSOR-PROXY --bus-config CONF --device FILE
                --row 'LABEL<TAB>ORIENTD<TAB>ORIENTCTL<TAB>ARGS' [--row ...]

This process owns the testbed, every daemon and subscriber (its children, started from the
main thread with a parent-death signal, so none outlives it), the writes and all the clocks:
each subscriber's output is read by a thread of its own and each chunk stamped with
CLOCK_MONOTONIC as it arrives; each sample written is stamped with the same clock once its
three files are written.
"""
import argparse
import math
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time

import gi

gi.require_version("UMockdev", "1.0")
gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib, UMockdev  # noqa: E402

NAME, PATH = "net.hadess.SensorProxy", "/net/hadess/SensorProxy"
FLAGS = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
TICK = 0.020  # the simulated sensor's period: 50 Hz
ONE_G = 256  # raw counts of 1 g at the device's scale (0.038307 m/s^2 a count)
NORMAL, LEFT_UP = 0.0, 90.0  # the angle of gravity in the screen's plane, from y = -1 g towards x = +1 g
SCENARIOS = ["resting", "turns", "fast", "slow", "stop40", "long", "angles"]
DEFAULT_SCENARIOS = SCENARIOS[:-1]  # angles only when asked for


def realtime():
    """Runs the calling thread (the writer, or a subscriber's reader) at SCHED_FIFO priority 10,
    so that the machine's load delays neither a sample nor a stamp; its children and any thread
    it starts go back to the normal policy (SCHED_RESET_ON_FORK). Returns whether it could."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO | os.SCHED_RESET_ON_FORK, os.sched_param(10))
        return True
    except (OSError, AttributeError):
        return False


def now_ns():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def env_number(name, default, kind=float):
    value = os.environ.get(name, "")
    try:
        return kind(value) if value else default
    except ValueError:
        raise SystemExit("turns: %s=%r is not a number" % (name, value))


def orientation_of(angle):
    return "left-up" if angle >= 45 else "normal"


# --- settings -------------------------------------------------------------------------------

parser = argparse.ArgumentParser()
parser.add_argument("--work", required=True)
parser.add_argument("--proxy", required=True)
parser.add_argument("--bus-config", required=True)
parser.add_argument("--device", required=True)
parser.add_argument("--row", action="append", required=True)
options = parser.parse_args()

only = [name for name in os.environ.get("ONLY", "").replace(" ", ",").split(",") if name]
for name in only:
    if name not in SCENARIOS:
        raise SystemExit("turns: ONLY names %r; the scenarios are %s" % (name, ",".join(SCENARIOS)))
selected = [name for name in SCENARIOS if name in only] if only else DEFAULT_SCENARIOS
resting_seconds = env_number("RESTING", 60.0)
settle_in = env_number("SETTLE_IN", 15.0)
turn_count = env_number("TURNS", 40, int)
fast_count = env_number("FAST_TURNS", turn_count, int)
slow_count = env_number("SLOW_TURNS", turn_count, int)
stop_count = env_number("STOPS", 10, int)
long_count = env_number("LONG_TURNS", 5, int)
long_rest = env_number("LONG_REST", 20.0)
stop_hold = env_number("STOP_HOLD", 1.0)
angle_step = env_number("ANGLE_STEP", 1.0)
angle_hold = env_number("ANGLE_HOLD", 1.6)
noise = env_number("NOISE", 0, int)
seed = env_number("SEED", random.SystemRandom().randrange(1, 1 << 31), int)
writes = os.environ.get("WRITES", "inplace")
profile = os.environ.get("PROFILE", "cosine")
csv_path = os.environ.get("CSV", "")
if writes not in ("inplace", "rename"):
    raise SystemExit("turns: WRITES is inplace or rename, not %r" % writes)
if profile not in ("cosine", "minjerk", "linear"):
    raise SystemExit("turns: PROFILE is cosine, minjerk or linear, not %r" % profile)
work = options.work


def eased(s):
    """The fraction of the turn made at the fraction `s` of its time."""
    if profile == "cosine":
        return (1 - math.cos(math.pi * s)) / 2
    if profile == "minjerk":
        return s * s * s * (10 - 15 * s + 6 * s * s)
    return s


PROFILE_WORDS = {
    "cosine": "cosine ease-in-out (angle = A (1 - cos(pi t/T)) / 2)",
    "minjerk": "minimum jerk (angle = A (10 s^3 - 15 s^4 + 6 s^5), s = t/T)",
    "linear": "constant speed",
}

# --- processes ------------------------------------------------------------------------------

processes = []  # every child, in the order started


def spawn(argv, env, stdout=subprocess.DEVNULL, log=None):
    """Starts a child that gets SIGTERM should this process die without cleaning up
    (setpriv execs the command, so the pid is the command's)."""
    stderr = open(log, "ab") if log else subprocess.DEVNULL
    process = subprocess.Popen(["setpriv", "--pdeathsig", "TERM", "--"] + argv, env=env, stdin=subprocess.DEVNULL,
                               stdout=stdout, stderr=stderr)
    if log:
        stderr.close()
    processes.append(process)
    return process


def finish():
    """Ends every child still running, newest first. A Popen not yet waited for cannot have
    lost its pid to another process, so the pid signalled is the child's own."""
    for process in reversed(processes):
        if process.poll() is None:
            process.terminate()
    deadline = time.monotonic() + 5
    for process in reversed(processes):
        try:
            process.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            if process.poll() is None:
                process.kill()
                process.wait()


def on_signal(number, frame):
    raise SystemExit(128 + number)


for number in (signal.SIGTERM, signal.SIGHUP):
    signal.signal(number, on_signal)


def wait_until(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit("turns: %s did not happen within %d s" % (what, seconds))
        time.sleep(0.02)


def bus_call(connection, destination, path, interface, method, arguments):
    return connection.call_sync(destination, path, interface, method, arguments, None, Gio.DBusCallFlags.NONE, 5000,
                                None).unpack()


def wait_for_accelerometer(address):
    """Until `address` has net.hadess.SensorProxy owned, with an accelerometer."""
    connection = Gio.DBusConnection.new_for_address_sync(address, FLAGS, None, None)

    def ready():
        try:
            if not bus_call(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                            "NameHasOwner", GLib.Variant("(s)", (NAME,)))[0]:
                return False
            return bool(bus_call(connection, NAME, PATH, "org.freedesktop.DBus.Properties", "Get",
                                 GLib.Variant("(ss)", (NAME, "HasAccelerometer")))[0])
        except GLib.Error:
            return False

    wait_until(ready, 60, "an accelerometer on %s" % address)
    connection.close_sync(None)


class Subscriber:
    """A client whose every output line is kept with the CLOCK_MONOTONIC time it arrived."""

    ORIENTCTL = re.compile(r"^orientation (\S+)$")
    MONITOR_SENSOR = re.compile(r"Accelerometer orientation changed: (\S+)")

    def __init__(self, argv, env, pattern, log):
        self.pattern = pattern
        self.lines = []  # (arrival ns, orientation, text): only the lines naming an orientation
        self.lock = threading.Lock()
        self.process = spawn(argv, env, stdout=subprocess.PIPE, log=log)
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        realtime()
        fd = self.process.stdout.fileno()
        pending = b""
        while True:
            chunk = os.read(fd, 65536)
            arrived = now_ns()
            if not chunk:
                return
            pending += chunk
            *complete, pending = pending.split(b"\n")
            for raw in complete:
                text = raw.decode("utf-8", "replace").strip()
                match = self.pattern.search(text)
                if match:
                    with self.lock:
                        self.lines.append((arrived, match.group(1), text))

    def between(self, start, end):
        with self.lock:
            return [line for line in self.lines if start <= line[0] < end]

    def last(self):
        with self.lock:
            return self.lines[-1][1] if self.lines else None


class Usage:
    """CPU time (schedstat, ns) and context switches of every thread of a process. A sampler
    refreshes the last values known of each thread every second, so a thread that ends inside
    a window still counts (up to its last second)."""

    def __init__(self, pid):
        self.pid = pid
        self.known = {}  # tid -> (name, cpu ns, voluntary, involuntary)
        self.lock = threading.Lock()

    def sample(self):
        with self.lock:
            try:
                tids = os.listdir("/proc/%d/task" % self.pid)
            except OSError:
                return dict(self.known)
            for tid in tids:
                base = "/proc/%d/task/%s/" % (self.pid, tid)
                try:
                    with open(base + "comm") as f:
                        name = f.read().strip()
                    with open(base + "schedstat") as f:
                        cpu = int(f.read().split()[0])
                    voluntary = involuntary = 0
                    with open(base + "status") as f:
                        for line in f:
                            if line.startswith("voluntary_ctxt_switches"):
                                voluntary = int(line.split()[1])
                            elif line.startswith("nonvoluntary_ctxt_switches"):
                                involuntary = int(line.split()[1])
                except (OSError, ValueError, IndexError):
                    continue
                self.known[tid] = (name, cpu, voluntary, involuntary)
            return dict(self.known)


def spent(before, after, seconds):
    """What a process's threads spent between two samples: total CPU ms, wake-ups (voluntary +
    involuntary switches) a second, and by thread name wake-ups a second."""
    cpu = 0
    switches = 0
    involuntary = 0
    by_name = {}
    for tid, (name, c, v, n) in after.items():
        _, c0, v0, n0 = before.get(tid, (name, 0, 0, 0))
        cpu += c - c0
        switches += (v - v0) + (n - n0)
        involuntary += n - n0
        by_name[name] = by_name.get(name, 0) + (v - v0) + (n - n0)
    born = len(set(after) - set(before))
    return {"cpu_ms": cpu / 1e6, "wakeups": switches / seconds, "involuntary": involuntary / seconds,
            "threads": {name: count / seconds for name, count in by_name.items()}, "born": born}


class Row:
    """A daemon and its subscriber (and private bus, for iio-sensor-proxy and D-Bus rows)."""

    def __init__(self, label, kind, describe):
        self.label = label
        self.kind = kind  # proxy, socket or dbus
        self.describe = describe
        self.daemon = None
        self.bus = None
        self.subscriber = None
        self.usage = None
        self.bus_usage = None


# --- the testbed ----------------------------------------------------------------------------

os.environ["TMPDIR"] = work  # the testbed's folder lives in the scratch folder
testbed = UMockdev.Testbed.new()
with open(options.device) as f:
    testbed.add_from_string(f.read())
root = testbed.get_root_dir()
sysfs = root + "/sys/devices/platform/accel/iio:device0"
plain_env = {key: value for key, value in os.environ.items() if key not in ("LD_PRELOAD", "TMPDIR")}
preload = "libumockdev-preload.so.0" + (":" + os.environ["LD_PRELOAD"] if os.environ.get("LD_PRELOAD") else "")
testbed_env = dict(plain_env, UMOCKDEV_DIR=root, LD_PRELOAD=preload)


class Accelerometer:
    """The fake sensor's three raw attributes. In place: each value is written over the old
    at offset 0, always 6 bytes ("%5d\\n"), so the file never shrinks or empties and keeps its
    inode, as on sysfs. Renamed: a new file renamed over the old, as umockdev's set_attribute
    does."""

    def __init__(self):
        self.paths = [sysfs + "/in_accel_%s_raw" % axis for axis in "xyz"]
        self.fds = []
        self.set(0, -ONE_G, 0, first=True)
        if writes == "inplace":
            self.fds = [os.open(path, os.O_WRONLY) for path in self.paths]

    def set(self, x, y, z, first=False):
        for index, value in enumerate((x, y, z)):
            data = b"%5d\n" % value
            if first:
                with open(self.paths[index], "wb") as f:
                    f.write(data)
            elif writes == "inplace":
                os.pwrite(self.fds[index], data, 0)
            else:
                fresh = self.paths[index] + ".new"
                with open(fresh, "wb") as f:
                    f.write(data)
                os.rename(fresh, self.paths[index])


accelerometer = Accelerometer()
rows = []

# --- start everything -----------------------------------------------------------------------


def start_bus(name):
    socket = os.path.join(work, name)
    with open(options.bus_config) as f:
        text = f.read().replace("@BUS@", socket)
    with open(socket + ".conf", "w") as f:
        f.write(text)
    process = spawn(["dbus-daemon", "--config-file=" + socket + ".conf", "--nofork", "--nosyslog"], plain_env)
    wait_until(lambda: os.path.exists(socket), 20, "the bus %s" % socket)
    return process, "unix:path=" + socket


def monitor_sensor(row, address, stem):
    env = dict(plain_env, DBUS_SYSTEM_BUS_ADDRESS=address)
    row.subscriber = Subscriber(["stdbuf", "-oL", "monitor-sensor"], env, Subscriber.MONITOR_SENSOR, stem + ".monitor.log")


proxy_version = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "iio-sensor-proxy"], capture_output=True,
                               text=True).stdout.strip() or "version unknown"
proxy = Row("iio-sensor-proxy", "proxy", "%s %s, IIO_SENSOR_PROXY_TYPE=iio-poll-accel; to monitor-sensor (private bus)"
            % (options.proxy, proxy_version))
proxy.bus, address = start_bus("bus0")
proxy.daemon = spawn([options.proxy], dict(testbed_env, DBUS_SYSTEM_BUS_ADDRESS=address), log=os.path.join(work, "proxy.log"))
wait_for_accelerometer(address)
monitor_sensor(proxy, address, os.path.join(work, "proxy"))
rows.append(proxy)

for number, spec in enumerate(options.row, 1):
    label, orientd, orientctl, extra = (spec.split("\t") + ["", "", "", ""])[:4]
    arguments = extra.split()
    stem = os.path.join(work, "row%d" % number)
    command = [orientd, "--socket", stem + ".sock", "--state", stem + ".state"] + arguments
    dbus = any(a == "--dbus" and b == "system" for a, b in zip(arguments, arguments[1:])) or "--dbus=system" in arguments
    row = Row(label, "dbus" if dbus else "socket", "%s %s; to %s"
              % (orientd, extra, "monitor-sensor (private bus)" if dbus else "orientctl monitor"))
    env = dict(testbed_env)
    if dbus:
        row.bus, address = start_bus("bus%d" % number)
        env["DBUS_SYSTEM_BUS_ADDRESS"] = address
    row.daemon = spawn(command, env, log=stem + ".log")
    if dbus:
        wait_for_accelerometer(address)
        monitor_sensor(row, address, stem)
    else:
        wait_until(lambda: os.path.exists(stem + ".sock"), 60, "%s's socket" % label)
        row.subscriber = Subscriber([orientctl, "--socket", stem + ".sock", "monitor"], plain_env, Subscriber.ORIENTCTL,
                                    stem + ".monitor.log")
    rows.append(row)

for row in rows:
    row.usage = Usage(row.daemon.pid)
    if row.bus:
        row.bus_usage = Usage(row.bus.pid)


def sampler():
    while True:
        for row in rows:
            row.usage.sample()
            if row.bus_usage:
                row.bus_usage.sample()
        time.sleep(1)


threading.Thread(target=sampler, daemon=True).start()

for row in rows:
    wait_until(lambda: row.subscriber.last() == "normal", 60, "%s's subscriber hearing normal" % row.label)
    if row.daemon.poll() is not None:
        raise SystemExit("turns: %s ended (%d)" % (row.label, row.daemon.returncode))

# --- the device's motion --------------------------------------------------------------------

rng = random.Random(seed)
noise_rng = random.Random(seed + 1)
angle_now = NORMAL
lateness = []  # how late each sample was written, ms


def write_angle(angle):
    global angle_now
    angle_now = angle
    r = math.radians(angle)
    jitter = (lambda: noise_rng.randint(-noise, noise)) if noise else (lambda: 0)
    accelerometer.set(round(ONE_G * math.sin(r)) + jitter(), round(-ONE_G * math.cos(r)) + jitter(), jitter())
    return now_ns()


def sleep_until(deadline):
    while True:
        left = deadline - now_ns()
        if left <= 0:
            return
        time.sleep(left / 1e9)


def hold(seconds):
    """The device still for `seconds`; with NOISE, a noisy sample every tick meanwhile."""
    start = now_ns()
    end = start + int(seconds * 1e9)
    if not noise:
        sleep_until(end)
        return
    tick = 1
    while True:
        deadline = start + int(tick * TICK * 1e9)
        if deadline >= end:
            break
        sleep_until(deadline)
        lateness.append((now_ns() - deadline) / 1e6)
        write_angle(angle_now)
        tick += 1
    sleep_until(end)


def sweep(target, duration):
    """Turns from the current angle to `target` in `duration` s, a sample a tick along the
    profile. Returns (first sample's time, the time of the first sample at or past 45 degrees
    or None, the last sample's time)."""
    origin = angle_now
    steps = max(1, round(duration / TICK))
    start = now_ns()
    first = passed = last = None
    for step in range(steps + 1):
        deadline = start + int(step * TICK * 1e9)
        sleep_until(deadline)
        lateness.append((now_ns() - deadline) / 1e6)
        angle = origin + (target - origin) * eased(step / steps)
        last = write_angle(angle)
        if first is None:
            first = last
        if passed is None and ((target > origin and angle >= 45) or (target < origin and angle <= 45)):
            passed = last
    return first, passed, last


events = []  # every movement: dict(scenario, kind, index, origin, target, start, passed, end, rest)


def turn(scenario, duration, rest, reported=True, index=0):
    hold(rest)
    origin = angle_now
    target = LEFT_UP if origin == NORMAL else NORMAL
    start, passed, end = sweep(target, duration)
    events.append(dict(scenario=scenario, kind="turn" if reported else "setup", index=index, origin=origin,
                       target=target, start=start, passed=passed, end=end, rest=rest, duration=duration))


def stop_at_40(scenario, rest, index):
    hold(rest)
    origin = angle_now
    towards = 40 if origin == NORMAL else LEFT_UP - 40
    start, _, _ = sweep(towards, 0.5)
    hold(stop_hold)
    _, _, end = sweep(origin, 0.5)
    events.append(dict(scenario=scenario, kind="stop", index=index, origin=origin, target=origin, start=start,
                       passed=None, end=end, rest=rest, duration=1 + stop_hold))


# --- measuring ------------------------------------------------------------------------------


def usage_now():
    return {row.label: (row.usage.sample(), row.bus_usage.sample() if row.bus_usage else None) for row in rows}


def usage_since(before, seconds):
    after = usage_now()
    result = {}
    for row in rows:
        daemon = spent(before[row.label][0], after[row.label][0], seconds)
        daemon["bus"] = spent(before[row.label][1], after[row.label][1], seconds) if row.bus_usage else None
        result[row.label] = daemon
    return result


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def ratio(value, reference, digits=2):
    if value is None or reference is None or reference <= 0 or value < 0:
        return "n/a"
    return "%.*fx" % (digits, value / reference)


def nearest_rank(values, fraction):
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def median(values):
    ordered = sorted(values)
    n = len(ordered)
    return (ordered[(n - 1) // 2] + ordered[n // 2]) / 2


def cell(value, reference, is_proxy, width, fmt="%.0f"):
    if value is None:
        return "-".rjust(width)
    text = fmt % value
    if not is_proxy:
        text += " (%s)" % ratio(value, reference)
    return text.rjust(width)


def judge(scenario_events, window_end):
    """Per row, per event: the latency (ms) of the line naming where the event ended, from the
    sample that passed 45 degrees; the flaps (lines naming another orientation); whether it
    was missed (no such line before the next event began)."""
    outcome = {}
    for row in rows:
        results = []
        for position, event in enumerate(scenario_events):
            end = scenario_events[position + 1]["start"] if position + 1 < len(scenario_events) else window_end
            lines = row.subscriber.between(event["start"], end)
            final = orientation_of(event["target"])
            if event["kind"] == "stop":
                results.append(dict(event=event, latency=None, flaps=len(lines), missed=False, lines=len(lines)))
                continue
            hits = [at for (at, orientation, _) in lines if orientation == final]
            flaps = sum(1 for (_, orientation, _) in lines if orientation != final)
            latency = (hits[0] - event["passed"]) / 1e6 if hits else None
            results.append(dict(event=event, latency=latency, flaps=flaps, missed=not hits, lines=len(lines)))
        outcome[row.label] = results
    return outcome


csv_rows = []


def record_csv(name, outcome):
    for row in rows:
        for result in outcome[row.label]:
            event = result["event"]
            if event["kind"] == "setup":
                continue
            csv_rows.append([name, row.label, event["kind"], event["index"], "%s->%s" % (
                orientation_of(event["origin"]), orientation_of(event["target"]) if event["kind"] == "turn" else "40"),
                "%.0f" % (event["duration"] * 1000), "%.2f" % event["rest"],
                "" if result["latency"] is None else "%.1f" % result["latency"], result["flaps"],
                int(result["missed"])])


def print_usage_table(use, seconds):
    reference = use[proxy.label]
    print("%-22s %13s %9s %13s %16s %s" % ("daemon", "wake-ups/s", "of them", "CPU ms", "orientd-sensor/s",
                                           "wake-ups/s by thread"))
    print("%-22s %13s %9s" % ("", "", "involunt."))
    for row in rows:
        figures = use[row.label]
        is_proxy = row is proxy
        sensor = figures["threads"].get("orientd-sensor")
        threads = ", ".join("%s %.2f" % (name, count) for name, count in
                            sorted(figures["threads"].items(), key=lambda item: -item[1]))
        if figures["born"]:
            threads += " (%d thread(s) started meanwhile)" % figures["born"]
        print("%-22s %s %9.2f %s %16s %s" % (
            row.label, cell(figures["wakeups"], reference["wakeups"], is_proxy, 13, "%.2f"), figures["involuntary"],
            cell(figures["cpu_ms"], reference["cpu_ms"], is_proxy, 13, "%.1f"),
            "-" if sensor is None else "%.2f" % sensor, threads))
    buses = ["%s's %.1f ms, %.2f/s" % (row.label, use[row.label]["bus"]["cpu_ms"], use[row.label]["bus"]["wakeups"])
             for row in rows if row.bus_usage]
    if buses:
        print("  (not counted above: each private bus's dbus-daemon: %s)" % "; ".join(buses))


def run_turns(name, title, count, duration):
    """`count` turns of `duration` s, each after 2 to 4 s still, alternating directions."""
    print("\n== %s: %d turns of %.0f ms between normal and left-up, alternating, each after 2-4 s still"
          % (title, count, duration * 1000))
    scenario_events = []
    before = usage_now()
    began = now_ns()
    late = len(lateness)
    for index in range(1, count + 1):
        turn(name, duration, rng.uniform(2, 4), index=index)
        scenario_events.append(events[-1])
    if angle_now != NORMAL:
        turn(name, duration, rng.uniform(2, 4), reported=False)
        scenario_events.append(events[-1])
    hold(3)
    ended = now_ns()
    seconds = (ended - began) / 1e9
    use = usage_since(before, seconds)
    outcome = judge(scenario_events, ended)
    record_csv(name, outcome)
    print_latency_table(outcome, use, seconds)
    if len(lateness) > late:
        print("  writer: %d samples, median %.2f ms and at most %.1f ms after their time; load average %s"
              % (len(lateness) - late, median(lateness[late:]), max(lateness[late:]), loadavg()))


def print_latency_table(outcome, use, seconds):
    print("latency, ms: from the sample written at or past 45 degrees to the line naming the turn's final orientation")
    print("(ratios: orientd / iio-sensor-proxy); flaps: lines naming another orientation; missed: no line before the")
    print("next turn; wake-ups and CPU over the whole phase (%.0f s)" % seconds)
    print("%-22s %3s %14s %14s %14s %6s %9s %9s %6s %6s %14s %14s" % (
        "daemon", "n", "median", "p90", "max", "min", "->left-up", "->normal", "flaps", "missed", "wake-ups/s", "CPU ms"))
    print("%-22s %3s %14s %14s %14s %6s %19s" % ("", "", "", "", "", "", "(medians by direction)"))
    figures = {}
    for row in rows:
        turns = [r for r in outcome[row.label] if r["event"]["kind"] == "turn"]
        latencies = [r["latency"] for r in turns if r["latency"] is not None]
        to_left = [r["latency"] for r in turns if r["latency"] is not None and r["event"]["target"] == LEFT_UP]
        to_normal = [r["latency"] for r in turns if r["latency"] is not None and r["event"]["target"] == NORMAL]
        flaps = sum(r["flaps"] for r in outcome[row.label])
        missed = sum(1 for r in turns if r["missed"])
        figures[row.label] = dict(
            n=len(latencies), median=median(latencies) if latencies else None,
            p90=nearest_rank(latencies, 0.9) if latencies else None, max=max(latencies) if latencies else None,
            min=min(latencies) if latencies else None, left=median(to_left) if to_left else None,
            normal=median(to_normal) if to_normal else None, flaps=flaps, missed=missed)
    reference = figures[proxy.label]
    for row in rows:
        f = figures[row.label]
        is_proxy = row is proxy
        u, ru = use[row.label], use[proxy.label]
        print("%-22s %3d %s %s %s %6s %9s %9s %6d %6d %s %s" % (
            row.label, f["n"], cell(f["median"], reference["median"], is_proxy, 14),
            cell(f["p90"], reference["p90"], is_proxy, 14), cell(f["max"], reference["max"], is_proxy, 14),
            "-" if f["min"] is None else "%.0f" % f["min"], "-" if f["left"] is None else "%.0f" % f["left"],
            "-" if f["normal"] is None else "%.0f" % f["normal"], f["flaps"], f["missed"],
            cell(u["wakeups"], ru["wakeups"], is_proxy, 14, "%.2f"), cell(u["cpu_ms"], ru["cpu_ms"], is_proxy, 14, "%.1f")))


def run_resting():
    print("\n== resting: the device still for %.0f s, after %.0f s still to settle in%s"
          % (resting_seconds, settle_in, "" if noise else " (nothing written)"))
    hold(settle_in)
    began = now_ns()
    before = usage_now()
    hold(resting_seconds)
    ended = now_ns()
    use = usage_since(before, (ended - began) / 1e9)
    print("wake-ups: voluntary + involuntary context switches of all threads, a second; CPU: all threads' schedstat")
    print("(ratios: orientd / iio-sensor-proxy)")
    print_usage_table(use, resting_seconds)
    stray = ["%s %d" % (row.label, len(row.subscriber.between(began, ended))) for row in rows]
    print("  lines while still: %s; load average %s" % (", ".join(stray), loadavg()))


def run_stops():
    print("\n== stop40: %d turns from normal and %d from left-up that stop at 40 degrees and go back: 500 ms out,"
          % (stop_count, stop_count))
    print("%.1f s held, 500 ms back, each after 2-4 s still (an unreported turn between the two sets). Any line is a flap"
          % stop_hold)
    scenario_events = []
    before = usage_now()
    began = now_ns()
    for origin_name in ("normal", "left-up"):
        if orientation_of(angle_now) != origin_name:
            turn("stop40", 0.5, rng.uniform(2, 4), reported=False)
            scenario_events.append(events[-1])
        for index in range(1, stop_count + 1):
            stop_at_40("stop40", rng.uniform(2, 4), index)
            scenario_events.append(events[-1])
    if angle_now != NORMAL:
        turn("stop40", 0.5, rng.uniform(2, 4), reported=False)
        scenario_events.append(events[-1])
    hold(3)
    ended = now_ns()
    seconds = (ended - began) / 1e9
    use = usage_since(before, seconds)
    outcome = judge(scenario_events, ended)
    record_csv("stop40", outcome)
    print("%-22s %18s %18s %22s %15s %14s" % ("daemon", "flaps from normal", "flaps from left-up",
                                               "stops with a flap", "wake-ups/s", "CPU ms"))
    for row in rows:
        stops = [r for r in outcome[row.label] if r["event"]["kind"] == "stop"]
        setup_flaps = sum(r["flaps"] for r in outcome[row.label] if r["event"]["kind"] == "setup")
        from_normal = sum(r["flaps"] for r in stops if r["event"]["origin"] == NORMAL)
        from_left = sum(r["flaps"] for r in stops if r["event"]["origin"] == LEFT_UP)
        flapped = sum(1 for r in stops if r["flaps"])
        u, ru = use[row.label], use[proxy.label]
        print("%-22s %18d %18d %22s %s %s%s" % (
            row.label, from_normal, from_left, "%d of %d" % (flapped, len(stops)),
            cell(u["wakeups"], ru["wakeups"], row is proxy, 15, "%.2f"), cell(u["cpu_ms"], ru["cpu_ms"], row is proxy, 14, "%.1f"),
            "" if not setup_flaps else "  (%d flaps in the unreported turns)" % setup_flaps))
    print("  load average %s" % loadavg())


def run_long():
    print("\n== long: %d turns of 500 ms, each after %.0f-%.0f s still (the first turn after a long rest)"
          % (long_count, long_rest, long_rest + 5))
    scenario_events = []
    before = usage_now()
    began = now_ns()
    for index in range(1, long_count + 1):
        turn("long", 0.5, rng.uniform(long_rest, long_rest + 5), index=index)
        scenario_events.append(events[-1])
    if angle_now != NORMAL:
        turn("long", 0.5, rng.uniform(2, 4), reported=False)
        scenario_events.append(events[-1])
    hold(3)
    ended = now_ns()
    use = usage_since(before, (ended - began) / 1e9)
    outcome = judge(scenario_events, ended)
    record_csv("long", outcome)
    print("latency in ms, per turn (flaps in brackets; 'missed': no line before the next turn)")
    print("%4s %7s %-17s %s" % ("turn", "rest s", "direction", " ".join("%20s" % row.label[:20] for row in rows)))
    for position, event in enumerate(scenario_events):
        if event["kind"] != "turn":
            continue
        cells = []
        for row in rows:
            result = outcome[row.label][position]
            text = "missed" if result["missed"] else "%.0f" % result["latency"]
            if result["flaps"]:
                text += " [%d]" % result["flaps"]
            cells.append("%20s" % text)
        print("%4d %7.1f %-17s %s" % (event["index"], event["rest"], "%s->%s" % (
            orientation_of(event["origin"]), orientation_of(event["target"])), " ".join(cells)))
    summary = {}
    for row in rows:
        latencies = [r["latency"] for r in outcome[row.label] if r["event"]["kind"] == "turn" and r["latency"] is not None]
        summary[row.label] = (median(latencies) if latencies else None, max(latencies) if latencies else None)
    for which, index in (("median", 0), ("max", 1)):
        print("%4s %7s %-17s %s" % ("", "", which, " ".join(cell(summary[row.label][index], summary[proxy.label][index],
                                                                 row is proxy, 20) for row in rows)))
    print("%4s %7s %-17s %s" % ("", "", "wake-ups/s", " ".join(cell(use[row.label]["wakeups"], use[proxy.label]["wakeups"],
                                                                   row is proxy, 20, "%.2f") for row in rows)))
    print("%4s %7s %-17s %s" % ("", "", "CPU ms", " ".join(cell(use[row.label]["cpu_ms"], use[proxy.label]["cpu_ms"],
                                                               row is proxy, 20, "%.1f") for row in rows)))
    print("  load average %s" % loadavg())


def run_angles():
    """A staircase from 20 to 70 degrees and back, ANGLE_STEP degrees a step, each held
    ANGLE_HOLD s: the angle held when each line arrived is where the daemon switched."""
    low, high = 20.0, 70.0
    count = int(round((high - low) / angle_step))
    up = [low + angle_step * step for step in range(count + 1)]
    print("\n== angles: a staircase from %.0f to %.0f degrees and back, %g degrees a step, each held %.1f s"
          % (low, high, angle_step, angle_hold))
    sweep(low, 0.5)
    hold(3)
    began = now_ns()
    held = []  # (written, angle)
    for angle in up + up[::-1]:
        held.append((write_angle(angle), angle))
        hold(angle_hold)
    ended = now_ns()
    sweep(NORMAL, 0.5)
    hold(3)
    print("the angle held when each line arrived, with how long after that step was written (ms)")
    for row in rows:
        found = []
        for arrived, orientation, _ in row.subscriber.between(began, ended):
            index = max(i for i, (written, _) in enumerate(held) if written <= arrived)
            going = "up" if index <= count else "down"
            found.append("%s at %g (going %s, +%.0f ms)" % (orientation, held[index][1], going,
                                                            (arrived - held[index][0]) / 1e6))
        print("  %-22s %s" % (row.label, "; ".join(found) if found else "no line"))
    print("  load average %s" % loadavg())


def main():
    scheduled = realtime()
    print("orientd and iio-sensor-proxy on the same turns of one umockdev accelerometer, %s, %d cores"
          % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), os.cpu_count()))
    print("load average at the start %s; seed %d (SEED=%d repeats the rests)" % (loadavg(), seed, seed))
    for row in rows:
        print("  %-22s %s" % (row.label, row.describe))
    print("turns: gravity turned in the screen's plane, y = -1 g (normal) <-> x = +1 g (left-up), a sample (x, y, z)")
    print("every 20 ms along a %s; raw values written %s; noise %s"
          % (PROFILE_WORDS[profile], "in place (6 bytes at offset 0, same inode)" if writes == "inplace"
             else "as new files renamed over the old", "+-%d counts" % noise if noise else "none"))
    print("the writer and the subscribers' readers run %s" % ("SCHED_FIFO (priority 10), the daemons and subscribers at the"
          " normal policy" if scheduled else "at the normal policy (SCHED_FIFO refused)"))
    for name in selected:
        if name == "resting":
            run_resting()
        elif name == "turns":
            run_turns("turns", "turns", turn_count, 0.5)
        elif name == "fast":
            run_turns("fast", "fast", fast_count, 0.3)
        elif name == "slow":
            run_turns("slow", "slow", slow_count, 1.0)
        elif name == "stop40":
            run_stops()
        elif name == "long":
            run_long()
        elif name == "angles":
            run_angles()
        for row in rows:
            if row.daemon.poll() is not None:
                print("turns: %s ended meanwhile (exit %d)" % (row.label, row.daemon.returncode))
    if csv_path:
        with open(csv_path, "w") as f:
            f.write("scenario,daemon,kind,index,direction,duration_ms,rest_s,latency_ms,flaps,missed\n")
            for line in csv_rows:
                f.write(",".join(str(v) for v in line) + "\n")
        print("\nper turn: %s" % csv_path)


try:
    main()
finally:
    finish()
