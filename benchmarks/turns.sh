#!/bin/bash
# iio-sensor-proxy and orientd side by side on the same turns of one umockdev accelerometer.
#
#   benchmarks/turns.sh [--orientd LABEL:BINARY:ARGS]... [--before REF] [--dbus]
#
# Usage: run it as root with iio-sensor-proxy, umockdev and its Python bindings installed; it
# builds this work tree for release and, with every count at its default, takes about 13
# minutes. iio-sensor-proxy (IIO_SENSOR_PROXY_TYPE=iio-poll-accel, monitor-sensor claiming the
# accelerometer on a private system bus, as a desktop does) and every orientd row run at once on
# one fake accelerometer, and it prints for each daemon, with ratios orientd / iio-sensor-proxy,
# the wake-ups and CPU time while the device rests, and the latency, flaps and missed turns
# over turns of 500 ms, 300 ms and 1 s, stops at 40 degrees and turns after long rests. A row is
# LABEL:BINARY:ARGS (repeat --orientd, or set ORIENTD_ROWS with rows separated by ';' or
# newlines); each orientd gets `--config /dev/null --rotate tablet` (the screen follows the
# device; no --rotate for builds from before tablet mode), then ARGS, its own socket and state,
# and `orientctl monitor`; ARGS holding `--dbus system` give it a private bus of its own and
# monitor-sensor instead. BINARY is an orientd, a folder holding orientd and orientctl, @REF (that
# commit, built for release in a scratch git worktree removed at the end) or empty (this work
# tree's build, or ORIENTD_BIN's). --before REF is short for the rows before:@REF: and after::;
# --dbus adds "orientd D-Bus" (this build with --dbus system). Default: one row, this build at
# its defaults. ONLY picks phases (below), and the counts are set in the environment, e.g.
#   ONLY=resting,turns RESTING=30 TURNS=10 benchmarks/turns.sh --before HEAD~5 --dbus
#   benchmarks/turns.sh --orientd orientd:: --orientd 'settle 0::--settle 0' --orientd 'poll::--mode poll'
#
# One Python process (benchmarks/turns.py) makes the testbed, starts every daemon and
# subscriber as its children, writes the device's motion and owns the clocks: each
# subscriber's output is stamped with CLOCK_MONOTONIC as it arrives, by a reader thread that,
# like the writer, runs SCHED_FIFO so that the machine's load delays neither a sample nor a
# stamp (the daemons and subscribers run at the normal policy). The phases, in this order:
#   resting  the device still for RESTING s (60) after SETTLE_IN s (15) still: wake-ups a second
#            (voluntary + involuntary context switches of all threads), CPU time (schedstat of
#            all threads; a thread that ends meanwhile counts up to its last second), by
#            thread, and the sampling thread (orientd-sensor) alone
#   turns    TURNS (40) turns of 500 ms by 90 degrees about the screen's normal, normal <-> left-up
#            alternating, each after 2-4 s still (seeded; SEED repeats a run's rests): latency
#            from the sample written at or past 45 degrees to the line naming the final
#            orientation (`orientation X` from orientctl, `Accelerometer orientation changed: X`
#            from monitor-sensor): median, p90, max, min and medians by direction; flaps (lines
#            naming another orientation); missed turns (no such line before the next turn); and
#            wake-ups and CPU over the phase
#   fast     the same with FAST_TURNS (TURNS) turns of 300 ms;  slow: SLOW_TURNS (TURNS) of 1 s
#   stop40   STOPS (10) turns from normal and as many from left-up that stop at 40 degrees, held
#            STOP_HOLD s (1), and go back (500 ms each way): every line is a flap
#   long     LONG_TURNS (5) turns of 500 ms, each after LONG_REST to LONG_REST+5 s (20) still
#   angles   only with ONLY=angles: a staircase from 20 to 70 degrees and back, ANGLE_STEP
#            degrees (1) a step held ANGLE_HOLD s (1.6), printing the angle each daemon switched at
# A turn is written as a 50 Hz sensor following it would read: x, y and z every 20 ms, gravity
# turning from y = -1 g to x = +1 g along a cosine ease-in-out (PROFILE=minjerk: minimum jerk;
# linear), 45 degrees written at the turn's half time. NOISE=N adds +-N raw counts to every
# sample and then writes one every 20 ms while still too (default 0: nothing is written while
# still). CSV=FILE keeps every turn's figures.
#
# Attribute writes: in place (WRITES=inplace, the default): each raw value is written over the
# old one at offset 0 as 6 bytes ("%5d\n", padded with spaces, which both daemons skip), so a
# file never shrinks, never reads empty and keeps its inode, as a sysfs attribute does. orientd
# keeps its files open and reads them again at offset 0, as on sysfs; iio-sensor-proxy opens each
# file at every poll either way. WRITES=rename writes a new file renamed over the old one, as
# umockdev's set_attribute does: iio-sensor-proxy reads the same either way, but orientd, which
# off sysfs checks its open files at every poll, then finds them replaced and opens them again
# (about 3 more opens a second while turning, under strace), work it never does on a real
# sensor; renaming measures the testbed, and is there to show how much. Either way orientd
# checks its files for replacement (an fstat each, every poll), which it skips on sysfs.
#
# Figures compare within one run only; the load average is printed at the start and after each
# phase. The CPU time of each private bus's dbus-daemon (iio-sensor-proxy's and the D-Bus rows'
# signals pass through it) is printed apart and not counted. All files live in a scratch
# folder, removed at the end with every process the run started.
set -euo pipefail
cd "$(dirname "$0")/.."
bench=turns

rows=()
refs=()
dbus_row=no
while [ $# -gt 0 ]; do
  case $1 in
    --orientd) [ $# -ge 2 ] || { echo "$bench: --orientd needs LABEL:BINARY:ARGS" >&2; exit 64; }; rows+=("$2"); shift 2 ;;
    --orientd=*) rows+=("${1#--orientd=}"); shift ;;
    --before) [ $# -ge 2 ] || { echo "$bench: --before needs a commit" >&2; exit 64; }
      rows+=("before:@$2:" "after::"); shift 2 ;;
    --dbus) dbus_row=yes; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "$bench: unknown argument '$1' (see --help)" >&2; exit 64 ;;
  esac
done
if [ ${#rows[@]} -eq 0 ] && [ -n "${ORIENTD_ROWS:-}" ]; then
  while IFS= read -r spec; do
    [ -n "${spec//[[:space:]]/}" ] && rows+=("$spec")
  done < <(printf '%s\n' "$ORIENTD_ROWS" | tr ';' '\n')
fi
[ ${#rows[@]} -eq 0 ] && rows=("orientd::")
[ $dbus_row = yes ] && rows+=("orientd D-Bus::--dbus system")

proxy=""
for candidate in /usr/libexec/iio-sensor-proxy /usr/sbin/iio-sensor-proxy; do
  [ -x "$candidate" ] && proxy=$candidate && break
done
[ -n "$proxy" ] || { echo "$bench: iio-sensor-proxy is not installed (apt-get install iio-sensor-proxy)" >&2; exit 69; }
for tool in dbus-daemon monitor-sensor setpriv stdbuf; do
  command -v "$tool" >/dev/null || { echo "$bench: $tool is missing (apt-get install dbus iio-sensor-proxy util-linux coreutils)" >&2; exit 69; }
done
/usr/bin/python3 -c 'import gi; gi.require_version("UMockdev", "1.0")' 2>/dev/null ||
  { echo "$bench: umockdev's Python bindings are missing (apt-get install python3-gi gir1.2-umockdev-1.0 umockdev)" >&2; exit 69; }

. benchmarks/common.sh
scratch
python=""
worktrees=()
# Ends the Python process (checked to be ours, by its command line, before it is signalled),
# removes the scratch worktrees, then the scratch folder.
end_turns() {
  if [ -n "$python" ] && [ -r "/proc/$python/cmdline" ] && tr '\0' ' ' <"/proc/$python/cmdline" | grep -q "benchmarks/turns.py --work $work "; then
    kill -TERM "$python" 2>/dev/null || true
    wait "$python" 2>/dev/null || true
  fi
  local tree
  for tree in "${worktrees[@]}"; do
    git worktree remove --force "$tree" 2>/dev/null || true
  done
  [ ${#worktrees[@]} -gt 0 ] && git worktree prune 2>/dev/null
  end_scratch
}
trap end_turns EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

release_binaries

# Builds commit $1 for release in a scratch worktree, once, and sets $built to its binaries' folder.
build_ref() {
  local ref=$1 index
  for index in "${!refs[@]}"; do
    if [ "${refs[$index]}" = "$ref" ]; then built=${worktrees[$index]}/.build/release; return; fi
  done
  local tree="$work/source$((${#refs[@]} + 1))"
  git rev-parse --verify --quiet "$ref^{commit}" >/dev/null || { echo "$bench: '$ref' is not a commit" >&2; exit 64; }
  git worktree add --detach "$tree" "$ref" >/dev/null 2>&1
  refs+=("$ref")
  worktrees+=("$tree")
  echo "$bench: building $ref ($(git rev-parse --short "$ref")) for release in a scratch worktree" >&2
  # SwiftPM keeps lock files in TMPDIR: in the scratch folder too.
  (cd "$tree" && export TMPDIR="$work" && swift build -c release --product orientd >/dev/null &&
    swift build -c release --product orientctl >/dev/null)
  built=$tree/.build/release
}

arguments=()
for spec in "${rows[@]}"; do
  case $spec in *:*:*) ;; *) echo "$bench: a row is LABEL:BINARY:ARGS, not '$spec'" >&2; exit 64 ;; esac
  label=${spec%%:*}
  rest=${spec#*:}
  binary=${rest%%:*}
  extra=${rest#*:}
  [ -n "$label" ] || { echo "$bench: a row without a label: '$spec'" >&2; exit 64; }
  case $binary in
    "") orientd=$bin/orientd ;;
    @*) build_ref "${binary#@}"; orientd=$built/orientd ;;
    *) if [ -d "$binary" ]; then orientd=$binary/orientd; else orientd=$binary; fi ;;
  esac
  [ -x "$orientd" ] || { echo "$bench: $orientd is not an executable" >&2; exit 66; }
  orientd=$(realpath "$orientd")
  orientctl=$(dirname "$orientd")/orientctl
  [ -x "$orientctl" ] || orientctl=$bin/orientctl
  # Builds from before tablet mode have no --rotate: they always follow the device.
  base="--config /dev/null"
  "$orientd" --help 2>&1 | grep -q -- '--rotate' && base="$base --rotate tablet"
  arguments+=(--row "$label"$'\t'"$orientd"$'\t'"$orientctl"$'\t'"$base${extra:+ $extra}")
done

/usr/bin/python3 benchmarks/turns.py --work "$work" --proxy "$proxy" --bus-config Tests/Fixtures/private-system-bus.conf \
  --device benchmarks/accel.umockdev "${arguments[@]}" &
python=$!
status=0
wait "$python" || status=$?
python=""
exit $status
