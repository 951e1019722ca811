#!/usr/bin/python3
"""How a hand's everyday motions turn the screen: false turns and the latency of real turns,
replayed through `orientd --dump --replay` with and without the posture graces.

usage: posture.py [--variants N] [--seed S] [--write DIR] [--row 'LABEL<TAB>ORIENTD<TAB>ARGS' ...]

Each situation is a motion model (keyframes of the screen's roll and tilt, the hand's sway
and the sensor's noise, pushes of the arm as acceleration), drawn --variants times with its
timings and angles varied at random (seeded: the same seed gives the same traces). They are
synthesized, not recorded from a tablet: what they share with one is the geometry of the
motion and the sensor's 50 Hz, 0.01 g noise. `--write DIR` writes one trace per situation
(the first variant) in orientd's trace format, as the tests replay them.

For each row (an orientd binary and its arguments) the table gives, per situation, the
orientation changes the user did not ask for (a screen orientation other than the one the
motion ends in, once the device was in the first one), how many variants had any, how many
never reached the final orientation, and, for the real turns, the median and the 90th
percentile of the time from the start of the turning motion to the change.
"""
import argparse
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile

RATE = 50  # samples a second
NOISE = 0.01  # g, each axis

# The screen orientations by the roll that puts each edge up (degrees from normal to left-up).
ROLL = {"normal": 0.0, "left-up": 90.0, "bottom-up": 180.0, "right-up": -90.0}


def gravity(roll, tilt):
    """The reading (g) of a device rolled `roll` degrees in the screen's plane (towards left-up)
    with its screen tilted `tilt` degrees towards facing up (orientd's frame: face-up is z = -1)."""
    r, t = math.radians(roll), math.radians(tilt)
    return (math.sin(r) * math.cos(t), -math.cos(r) * math.cos(t), -math.sin(t))


class Motion:
    """Keyframes of (roll, tilt, push) eased with a cosine; a hand's slow sway on top."""

    def __init__(self, rng, roll, tilt, sway=2.0):
        self.rng = rng
        self.frames = [(0.0, roll, tilt, (0.0, 0.0, 0.0))]
        self.sway = sway
        self.marks = {}

    @property
    def end(self):
        return self.frames[-1][0]

    def to(self, seconds, roll=None, tilt=None, push=(0.0, 0.0, 0.0)):
        _, last_roll, last_tilt, _ = self.frames[-1]
        self.frames.append(
            (self.end + seconds, last_roll if roll is None else roll, last_tilt if tilt is None else tilt, push))
        return self

    def hold(self, seconds):
        return self.to(seconds)

    def mark(self, name):
        self.marks[name] = self.end
        return self

    def samples(self):
        rng = self.rng
        phase = [rng.uniform(0, 6.3) for _ in range(4)]
        out = []
        n = int(self.end * RATE) + 1
        for i in range(n):
            t = i / RATE
            roll, tilt, push = self.at(t)
            # The hand's sway: a degree or two at under 1 Hz, never still.
            roll += self.sway * math.sin(2 * math.pi * 0.7 * t + phase[0])
            tilt += self.sway * math.sin(2 * math.pi * 0.45 * t + phase[1])
            tilt = max(-90.0, min(90.0, tilt))
            g = gravity(roll, tilt)
            out.append((t, tuple(g[k] + push[k] + rng.gauss(0, NOISE) for k in range(3))))
        return out

    def at(self, t):
        frames = self.frames
        for (t0, r0, a0, _), (t1, r1, a1, p1) in zip(frames, frames[1:]):
            if t <= t1:
                u = 0.0 if t1 == t0 else (t - t0) / (t1 - t0)
                e = (1 - math.cos(math.pi * u)) / 2
                # A push rises and falls within its segment.
                s = math.sin(math.pi * u)
                return r0 + (r1 - r0) * e, a0 + (a1 - a0) * e, tuple(s * p for p in p1)
        _, r, a, _ = frames[-1]
        return r, a, (0.0, 0.0, 0.0)


# Each situation: a function of a random generator giving (motion, first, final, turn) where
# first and final are the screen orientations at the start and the end, and turn says whether
# the final one is a real turn whose latency counts (measured from the mark "turned", where
# the turning motion starts).


def flat_pickup(rng):
    """Read, laid flat on a table, picked up again: the hand lifts one side edge first (the
    tablet passes through that edge up), then brings it to the orientation it is read in."""
    final = rng.choice(["normal", "left-up"])
    m = Motion(rng, 0, rng.uniform(15, 35))
    m.hold(rng.uniform(1.0, 2.0)).to(rng.uniform(0.4, 0.7), tilt=88, roll=rng.uniform(-5, 5))
    m.hold(rng.uniform(2.0, 4.0))
    # The right edge comes up first.
    m.to(rng.uniform(0.25, 0.45), roll=rng.uniform(-100, -70), tilt=rng.uniform(20, 45))
    m.hold(rng.uniform(0.05, 0.25))
    m.to(rng.uniform(0.35, 0.6), roll=ROLL[final] + rng.uniform(-8, 8), tilt=rng.uniform(10, 28))
    m.hold(2.5)
    return m, "normal", final, False


def swing_carry(rng):
    """Read, lowered and carried at arm's length while walking: the arm swings the tablet
    through a wide arc, tilt and roll together, about once a step; then raised to read."""
    m = Motion(rng, 0, rng.uniform(20, 35))
    m.hold(1.5).to(0.6, roll=rng.uniform(-10, 10), tilt=rng.uniform(10, 25))
    period = rng.uniform(0.9, 1.2)
    reach = rng.uniform(45, 70)
    for step in range(rng.randint(4, 7)):
        side = 1 if step % 2 == 0 else -1
        m.to(period / 2, roll=side * reach + rng.uniform(-10, 10), tilt=rng.uniform(40, 65))
        m.to(period / 2, roll=rng.uniform(-10, 10), tilt=rng.uniform(-5, 15))
    m.to(0.6, roll=rng.uniform(-5, 5), tilt=rng.uniform(20, 35)).hold(2.5)
    return m, "normal", "normal", False


def lie_back_overhead(rng):
    """Read in bed lying back: the tablet goes overhead, screen down, and the arm drifts and
    tires (the roll wanders) before it comes back to the chest."""
    m = Motion(rng, 0, rng.uniform(15, 30))
    m.hold(1.5).to(rng.uniform(1.0, 1.6), tilt=rng.uniform(-75, -50))
    for _ in range(rng.randint(3, 5)):
        m.to(rng.uniform(0.8, 1.5), roll=rng.uniform(-75, 75), tilt=rng.uniform(-70, -25))
        m.hold(rng.uniform(0.5, 1.5))
    m.to(rng.uniform(0.8, 1.2), roll=rng.uniform(-8, 8), tilt=rng.uniform(-50, -42)).hold(1.0)
    return m, "normal", "normal", False


def roll_onto_side(rng):
    """Reading overhead, the reader rolls onto one side: the tablet, held above the face, turns
    with the body (its roll goes most of a quarter turn) while its screen faces down at them."""
    m = Motion(rng, 0, rng.uniform(15, 30))
    m.hold(1.5).to(rng.uniform(1.0, 1.6), tilt=rng.uniform(-60, -45)).hold(rng.uniform(0.5, 1.5))
    side = rng.choice([1, -1])
    m.to(rng.uniform(1.0, 2.0), roll=side * rng.uniform(60, 85), tilt=rng.uniform(-55, -42))
    # Settled on the side, the arm lowers the tablet a little: the screen faces down less.
    m.to(rng.uniform(0.8, 1.5), tilt=rng.uniform(-35, -20))
    m.hold(rng.uniform(2.0, 4.0))
    return m, "normal", "normal", False


def set_on_table(rng):
    """Read, set down on a table: one corner touches first, the tablet rolls a little as the
    hand lets go of it, and it lies flat."""
    m = Motion(rng, 0, rng.uniform(15, 35))
    m.hold(1.5)
    side = rng.choice([1, -1])
    m.to(rng.uniform(0.2, 0.35), roll=side * rng.uniform(20, 50), tilt=rng.uniform(30, 50))
    m.hold(rng.uniform(0.05, 0.2))
    m.to(rng.uniform(0.15, 0.3), roll=side * rng.uniform(0, 20), tilt=89)
    m.hold(2.5)
    return m, "normal", "normal", False


def hand_over(rng):
    """Read, handed to someone across a table: the arm pushes it forward and stops it (pushes
    of 0.3 to 0.7 g, some sideways), the wrist turns it as it goes, and the other person holds it to read."""
    m = Motion(rng, 0, rng.uniform(20, 35))
    m.hold(1.5)
    side = rng.choice([1, -1])
    push = rng.uniform(0.3, 0.7)
    m.to(rng.uniform(0.3, 0.5), roll=side * rng.uniform(20, 45), tilt=rng.uniform(0, 25), push=(side * push, 0, push))
    m.to(rng.uniform(0.3, 0.5), roll=side * rng.uniform(10, 35), tilt=rng.uniform(10, 30), push=(-side * push, 0, -push))
    m.to(rng.uniform(0.3, 0.5), roll=rng.uniform(-8, 8), tilt=rng.uniform(20, 35))
    m.hold(2.5)
    return m, "normal", "normal", False


def quarter_turn(rng):
    """A real turn: held in front and turned a quarter to left-up over half a second."""
    m = Motion(rng, 0, rng.uniform(15, 35))
    m.hold(1.5).mark("turned").to(rng.uniform(0.4, 0.6), roll=90 + rng.uniform(-5, 5))
    m.hold(2.0)
    return m, "normal", "left-up", True


def pickup_to_read(rng):
    """A real turn: lying flat, picked up by the left edge straight into left-up to read."""
    m = Motion(rng, 90 + rng.uniform(-5, 5), 88)
    m.hold(rng.uniform(2.0, 4.0)).mark("turned")
    m.to(rng.uniform(0.5, 0.8), tilt=rng.uniform(10, 28))
    m.hold(2.0)
    return m, None, "left-up", True


SITUATIONS = [
    ("flat-pickup", "laid flat, picked up by a side edge", flat_pickup),
    ("swing-carry", "swung at arm's length while walking", swing_carry),
    ("lie-back", "read lying back, overhead", lie_back_overhead),
    ("roll-onto-side", "overhead, reader rolls onto one side", roll_onto_side),
    ("set-on-table", "set down on a table", set_on_table),
    ("hand-over", "handed to someone", hand_over),
    ("quarter-turn", "real turn: a quarter in 0.5 s", quarter_turn),
    ("pickup-to-read", "real turn: picked up from flat into left-up", pickup_to_read),
]


def trace_text(samples, comment):
    lines = ["# orientd-trace 1", "# " + comment]
    lines += ["%.3f %.5f %.5f %.5f" % (t, x, y, z) for t, (x, y, z) in samples]
    return "\n".join(lines) + "\n"


def replay(binary, args, path):
    result = subprocess.run(
        [binary, "--dump", "--replay", path] + args, capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        sys.exit("%s exited %d: %s" % (binary, result.returncode, result.stderr.strip()))
    changes = []
    for line in result.stdout.splitlines():
        time, key, value = line.split(" ", 2)
        if key == "orientation":
            changes.append((float(time), value))
    return changes


def judge(changes, first, final, turned_at):
    """(wrong turns, missed, latency): orientation changes to anything but `final` once the
    screen had first taken `first` (or its first orientation, for None)."""
    wrong, reached, latency = 0, False, None
    started = first is None
    for time, value in changes:
        if not started:
            started = value == first
            continue
        if value == final:
            if not reached and turned_at is not None:
                latency = time - turned_at
            reached = True
        else:
            wrong += 1
            reached = False
    if first is not None and final == first and not changes:
        reached = True
    if first is not None and final == first and changes and changes[-1][1] == final:
        reached = True
    return wrong, not reached, latency


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variants", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", metavar="DIR")
    parser.add_argument("--only", help="comma-separated situations")
    parser.add_argument("--row", action="append", default=[])
    parser.add_argument("--verbose", action="store_true", help="print each variant's changes")
    options = parser.parse_args()
    situations = SITUATIONS
    if options.only:
        wanted = options.only.split(",")
        situations = [s for s in SITUATIONS if s[0] in wanted]

    if options.write:
        os.makedirs(options.write, exist_ok=True)
        for name, title, model in situations:
            rng = random.Random("%d/%s/0" % (options.seed, name))
            motion, first, final, _ = model(rng)
            path = os.path.join(options.write, name + ".trace")
            comment = "%s (synthesized by benchmarks/posture.py, seed %d): %s, ends %s" % (
                name, options.seed, title, final)
            with open(path, "w") as f:
                f.write(trace_text(motion.samples(), comment))
            print(path)
        if not options.row:
            return

    rows = [row.split("\t") for row in options.row]
    with tempfile.TemporaryDirectory(prefix="orientd-posture.") as work:
        results = {}
        for name, title, model in situations:
            for variant in range(options.variants):
                rng = random.Random("%d/%s/%d" % (options.seed, name, variant))
                motion, first, final, turn = model(rng)
                path = os.path.join(work, "%s-%d.trace" % (name, variant))
                with open(path, "w") as f:
                    f.write(trace_text(motion.samples(), name))
                turned_at = motion.marks.get("turned") if turn else None
                for label, binary, args in rows:
                    changes = replay(binary, args.split(), path)
                    wrong, missed, latency = judge(changes, first, final, turned_at)
                    if options.verbose and (wrong or missed):
                        print("%s %d %s: %s" % (name, variant, label, changes), file=sys.stderr)
                    entry = results.setdefault((name, label), [0, 0, 0, []])
                    entry[0] += wrong
                    entry[1] += 1 if wrong else 0
                    entry[2] += 1 if missed else 0
                    if latency is not None:
                        entry[3].append(latency * 1000)
        print("%d variants of each situation, seed %d; rows: %s" % (
            options.variants, options.seed, "; ".join("%s = %s %s" % (l, os.path.basename(b), a) for l, b, a in rows)))
        print()
        header = "| situation |" + "".join(" %s: false turns (variants) / missed / latency median, p90 |" % r[0] for r in rows)
        print(header)
        print("|---|" + "---|" * len(rows))
        for name, title, _ in situations:
            cells = []
            for label, _, _ in rows:
                wrong, variants, missed, latencies = results[(name, label)]
                if latencies:
                    latencies.sort()
                    p90 = latencies[min(len(latencies) - 1, int(0.9 * len(latencies)))]
                    timing = "%.0f, %.0f ms" % (statistics.median(latencies), p90)
                else:
                    timing = "-"
                cells.append(" %d (%d) / %d / %s |" % (wrong, variants, missed, timing))
            print("| %s: %s |" % (name, title) + "".join(cells))


if __name__ == "__main__":
    main()
