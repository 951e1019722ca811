#!/bin/sh
# Measures orientd's resident memory and wake-ups while it polls a fake accelerometer.
#
#   benchmarks/footprint.sh [SECONDS] [INTERVAL_MS]
#
# Builds the release binary, runs `orientd --dump --interval INTERVAL_MS` inside a
# umockdev testbed, lets it settle, then prints VmRSS, Pss and USS (private) memory, and the
# voluntary context switches (sleeps in epoll_wait, i.e. wake-ups) per second over
# SECONDS, next to the 1000/INTERVAL_MS a pure poll loop should show.
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-10}
interval=${2:-200}

swift build -c release >/dev/null
binary=$(swift build -c release --show-bin-path)/orientd
work=$(mktemp -d /tmp/orientd-bench.XXXXXX)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT INT TERM

cat >"$work/accel.umockdev" <<'DEVICE'
P: /devices/platform/accel/iio:device0
N: iio:device0
E: SUBSYSTEM=iio
E: DEVNAME=/dev/iio:device0
A: name=accel_3d\n
A: in_accel_x_raw=0\n
A: in_accel_y_raw=-256\n
A: in_accel_z_raw=0\n
A: in_accel_scale=0.038307\n
DEVICE

umockdev-run --device "$work/accel.umockdev" -- "$binary" --dump --config /dev/null --interval "$interval" >"$work/out" 2>"$work/err" &
wrapper=$!
pid=""
for _ in $(seq 50); do
  pid=$(pgrep -P "$wrapper" -x orientd || true)
  [ -n "$pid" ] && break
  sleep 0.1
done
[ -n "$pid" ] || { echo "orientd did not start:" >&2; cat "$work/err" >&2; exit 1; }
sleep 3

# Every thread's sleeps count: the sensor thread sleeps between polls, the main loop between events.
switches() { cat /proc/"$pid"/task/*/status | awk '/^voluntary_ctxt_switches/ {sum += $2} END {print sum}'; }
before=$(switches)
sleep "$seconds"
after=$(switches)

rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")
pss=$(awk '/^Pss:/ {print $2}' "/proc/$pid/smaps_rollup")
private=$(awk '/^Private_(Clean|Dirty):/ {sum += $2} END {print sum}' "/proc/$pid/smaps_rollup")
threads=$(ls "/proc/$pid/task" | wc -l)

echo "orientd --dump --interval $interval on a umockdev accelerometer ($(date -u +%Y-%m-%d))"
printf '%-32s %s\n' "VmRSS" "$rss kB"
printf '%-32s %s\n' "Pss" "$pss kB"
printf '%-32s %s\n' "USS (private clean + dirty)" "$private kB"
printf '%-32s %s\n' "threads" "$threads"
awk -v b="$before" -v a="$after" -v s="$seconds" -v i="$interval" 'BEGIN {
  printf "%-32s %.2f (expected %.2f)\n", "wake-ups per second", (a - b) / s, 1000 / i
}'
