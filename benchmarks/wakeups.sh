#!/bin/bash
# Wake-ups of orientd in tablet and laptop mode, with the sensor still.
#
#   benchmarks/wakeups.sh [SECONDS] [INTERVAL_MS]      (defaults 60 s, 200 ms)
#
# Builds the release binaries and runs orientd serving its socket with `--rotate tablet` on a
# umockdev accelerometer, once per row, the mode set with `orientctl mode`: in tablet mode the
# screen follows the device, so the sensor is polled, every INTERVAL_MS while the device is
# handled and, once it has not moved for 10 s (each row waits that long before it counts),
# every second (`resting-interval`, target 1 wake-up a second; a row with
# `--resting-interval INTERVAL_MS` shows the faster setting's 1000 / INTERVAL_MS); in laptop mode the screen holds normal, and with no client
# that hears device changes nothing needs the sensor (target 0). Then laptop mode with a
# client that subscribes to everything (`orientctl monitor`: it hears device changes, so
# sampling goes on), one that subscribes to `orientation,mode` only (sampling stops again),
# laptop mode with every capture setting at its default (auto: a buffer that stays silent,
# polling, and the buffer tried again now and then), and last laptop mode from a tablet-mode
# switch at the default policy (a umockdev evdev switch, through the tests' input testbed).
#
# For each row, once the mode is set and the daemon has settled, it prints the context
# switches (voluntary + involuntary, from /proc/PID/task/TID/status) of every thread of
# orientd over SECONDS, the sampling thread's ("orientd-sensor") per second, and whether
# the raw attribute x was read during the window (its access time, set to 1970 before).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
interval=${2:-200}

for tool in umockdev-run socat; do
  command -v "$tool" >/dev/null || { echo "wakeups: $tool is missing (apt-get install umockdev socat)" >&2; exit 69; }
done
# The input testbed needs Debian's Python with umockdev's GObject bindings.
/usr/bin/python3 -c 'import gi; gi.require_version("UMockdev", "1.0")' 2>/dev/null ||
  { echo "wakeups: umockdev's Python bindings are missing (apt-get install python3-gi gir1.2-umockdev-1.0)" >&2; exit 69; }
bench=wakeups
. benchmarks/common.sh
release_binaries
scratch
cp benchmarks/accel.umockdev "$work/accel.umockdev"

. benchmarks/thread-switches.sh

# One row: $1 names it, $2 is the mode (tablet or laptop), $3 the client (none, all or
# orientation,mode), $4 the capture options.
row() {
  local name=$1 mode=$2 client=$3 capture=$4 dir="$work/row$((++rows))"
  mkdir -p "$dir"
  # $capture is several options.
  # shellcheck disable=SC2086
  in_testbed "$dir" "$work/accel.umockdev" "$bin/orientd" --socket "$dir/socket" --state "$dir/state" \
    --config /dev/null --rotate tablet $capture
  local pid x
  pid=$(cat "$dir/pid")
  x="$(cat "$dir/testbed")/sys/devices/platform/accel/iio:device0/in_accel_x_raw"
  wait_for "$dir/log" "info: orientation normal"
  "$bin/orientctl" --socket "$dir/socket" mode "$mode" >/dev/null
  local listener=""
  case $client in
    all) "$bin/orientctl" --socket "$dir/socket" monitor >"$dir/client" & listener=$! ;;
    none) ;;
    *)
      # Held open through a FIFO until the row ends.
      mkfifo "$dir/in"
      socat -u OPEN:"$dir/in" "UNIX-CONNECT:$dir/socket" & listener=$!
      exec 4>"$dir/in"
      echo "subscribe $client" >&4
      ;;
  esac
  [ "$mode" = laptop ] && [ "$client" != all ] && wait_for "$dir/log" "sampling stops"
  # Past the 10 s a device counts as handled after sampling starts: the resting pace.
  sleep 12
  touch -a -d @0 "$x"
  switches "$pid" >"$dir/before"
  sleep "$seconds"
  switches "$pid" >"$dir/after"
  local read=no
  [ "$(stat -c %X "$x")" != 0 ] && read=yes
  [ -e "$dir/in" ] && exec 4>&-
  [ -n "$listener" ] && { kill "$listener" 2>/dev/null || true; wait "$listener" 2>/dev/null || true; }
  touch "$dir/done"
  wait "$wrapper" 2>/dev/null || true
  wrapper=""
  report "$name" "$dir" "$read"
}

# Prints row $1 from the switches in $2/before and $2/after, and whether x was read ($3).
report() {
  local name=$1 dir=$2 read=$3 per_thread sensor
  per_thread=$(paste -d ' ' "$dir/before" "$dir/after" | awk '{printf "%s%s %d+%d", (NR > 1 ? ", " : ""), $1, $5 - $2, $6 - $3}')
  sensor=$(paste -d ' ' "$dir/before" "$dir/after" |
    awk -v s="$seconds" '$1 == "orientd-sensor" {printf "%.2f", ($5 - $2 + $6 - $3) / s}')
  printf '%-62s %9s %6s  %s\n' "$name" "$sensor" "$read" "$per_thread"
}
rows=0

# The laptop-mode row with the mode from a tablet-mode switch, at the default policy (auto:
# tablet, since there is a switch): a umockdev evdev switch reading laptop
# (Tests/Fixtures/input-laptop.*) beside the accelerometer, in the tests' input testbed.
switch_row() {
  local name=$1 capture=$2 dir="$work/row$((++rows))"
  mkdir -p "$dir"
  mkfifo "$dir/in"
  /usr/bin/python3 Tests/Fixtures/input-testbed.py Tests/Fixtures --device laptop --describe "$work/accel.umockdev" -- \
    "$bin/orientd" --socket "$dir/socket" --state "$dir/state" --config /dev/null $capture <"$dir/in" 2>"$dir/log" &
  wrapper=$!
  exec 4>"$dir/in"
  wait_for "$dir/log" "testbed: started "
  local pid x
  pid=$(sed -n 's/^testbed: started //p' "$dir/log")
  x="$(sed -n 's/^testbed: root //p' "$dir/log")/sys/devices/platform/accel/iio:device0/in_accel_x_raw"
  wait_for "$dir/log" "SW_TABLET_MODE 0"
  wait_for "$dir/log" "sampling stops"
  # Past the 10 s a device counts as handled after sampling starts: the resting pace.
  sleep 12
  touch -a -d @0 "$x"
  switches "$pid" >"$dir/before"
  sleep "$seconds"
  switches "$pid" >"$dir/after"
  local read=no
  [ "$(stat -c %X "$x")" != 0 ] && read=yes
  echo stop >&4
  exec 4>&-
  wait "$wrapper" 2>/dev/null || true
  wrapper=""
  report "$name" "$dir" "$read"
}

echo "orientd (release, --rotate tablet) on a umockdev accelerometer held still, $(date -u +%Y-%m-%d), $(nproc) cores,"
echo "load average $(cut -d ' ' -f 1-3 /proc/loadavg); context switches over $seconds s (voluntary+involuntary)"
printf '%-62s %9s %6s  %s\n' "row (target)" "sensor/s" "x read" "per thread"
row "tablet mode, poll $interval ms, at rest every 1000 ms (1.00/s)" tablet none "--mode poll --interval $interval"
row "tablet mode, poll and rest every $interval ms ($(awk -v i="$interval" 'BEGIN {printf "%.2f", 1000 / i}')/s)" tablet none "--mode poll --interval $interval --resting-interval $interval"
row "laptop mode, poll $interval ms (0)" laptop none "--mode poll --interval $interval"
row "laptop mode, poll $interval ms, orientctl monitor (polls)" laptop all "--mode poll --interval $interval"
row "laptop mode, poll $interval ms, subscribe orientation,mode (0)" laptop orientation,mode "--mode poll --interval $interval"
row "laptop mode, every capture setting at its default (0)" laptop none ""
switch_row "laptop mode from a switch, default policy, poll $interval ms (0)" "--mode poll --interval $interval"
