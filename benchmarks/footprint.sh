#!/bin/bash
# Measures orientd's resident memory and wake-ups with the sensor still, with D-Bus off and on.
#
#   benchmarks/footprint.sh [SECONDS] [INTERVAL_MS]      (defaults 10 s, 200 ms)
#
# Builds the release binaries and runs orientd as it is shipped (serving its socket) inside a
# umockdev testbed, six times one after the other: polling every INTERVAL_MS; with every
# setting at its default (capture mode auto: polling every 200 ms while it watches for the
# buffer, settle 300 ms); and in buffer mode (settle 0, as one scan cannot be confirmed) with
# no data after one scan; each with `--dbus off` and `--dbus system`. Every run has a private system bus
# (Tests/Fixtures/private-system-bus.conf) with monitor-sensor on it: with D-Bus on, orientd
# owns net.hadess.SensorProxy and monitor-sensor claims the accelerometer, as a desktop does;
# with it off, monitor-sensor waits for a name that never comes, so the same processes run
# around orientd either way.
#
# For each run, once the claim is answered and the daemon has settled, it prints the context
# switches of every thread of orientd over SECONDS (voluntary: it went to sleep; involuntary:
# it was preempted), per second in all and per thread over the window, next to the
# 1000 / INTERVAL_MS a pure poll loop should show (0 in buffer mode: nothing arrives). Then
# VmRSS, Pss, USS (private clean + dirty, from smaps_rollup) and dirty (private dirty alone:
# heap, stacks and written data, which no other process can share); the differences D-Bus on
# makes, also over PAIRS (default 3) more pairs of short runs, with their median; and last,
# the mappings whose resident or private memory differs between D-Bus off and on.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
interval=${2:-200}

for tool in umockdev-run dbus-daemon monitor-sensor; do
  command -v "$tool" >/dev/null || { echo "footprint: $tool is missing (apt-get install umockdev dbus iio-sensor-proxy)" >&2; exit 69; }
done
bench=footprint
. benchmarks/common.sh
release_binaries
binary=$bin/orientd
scratch

# The fake accelerometer, held normal (one file for both benchmark scripts; iio-sensor-proxy
# reads it as a polled accelerometer).
cp benchmarks/accel.umockdev "$work/accel.umockdev"

. benchmarks/thread-switches.sh

# Resident and private kB per mapping of process $1 (anonymous ones by their kind), one line
# each: "name rss private".
by_mapping() {
  awk '/^[0-9a-f]+-[0-9a-f]+ / { name = (NF >= 6 ? $6 : "[anonymous]"); sub(".*/", "", name); seen[name] = 1 }
    /^Rss:/ { rss[name] += $2 }
    /^Private_(Clean|Dirty):/ { kb[name] += $2 }
    END { for (n in seen) print n, rss[n] + 0, kb[n] + 0 }' "/proc/$1/smaps" | sort
}

# One run: $1 names it ("poll-off", ...), $2 is poll, auto (every setting at its default) or
# buffer, $3 off or system.
run() {
  local name=$1 mode=$2 bus=$3 dir="$work/$1"
  mkdir -p "$dir"
  sed "s|@BUS@|$dir/bus|" Tests/Fixtures/private-system-bus.conf >"$dir/bus.conf"
  local capture="--mode poll --interval $interval"
  [ "$mode" = buffer ] && capture="--mode buffer --settle 0"
  [ "$mode" = auto ] && capture=""
  # Each hand-off file is written whole and then renamed, so no reader sees half of it.
  cat >"$dir/inside.sh" <<INSIDE
#!/bin/bash
set -u
if [ $mode = buffer ]; then rm -f "\$UMOCKDEV_DIR/dev/iio:device0"; mkfifo "\$UMOCKDEV_DIR/dev/iio:device0"; fi
echo "\$UMOCKDEV_DIR" > "$dir/testbed.new" && mv "$dir/testbed.new" "$dir/testbed"
dbus-daemon --config-file="$dir/bus.conf" --fork --print-pid > "$dir/bus.pid"
for _ in \$(seq 100); do [ -S "$dir/bus" ] && break; sleep 0.05; done
export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$dir/bus
"$binary" --socket "$dir/socket" --state "$dir/state" --config /dev/null --dbus $bus $capture 2> "$dir/log" &
echo \$! > "$dir/pid.new" && mv "$dir/pid.new" "$dir/pid"
stdbuf -oL monitor-sensor > "$dir/monitor" 2>&1 &
while [ ! -e "$work/done" ] && [ ! -e "$dir/done" ]; do sleep 0.2; done
kill \$! \$(cat "$dir/pid" "$dir/bus.pid")
wait
INSIDE
  chmod +x "$dir/inside.sh"
  umockdev-run --device "$work/accel.umockdev" -- "$dir/inside.sh" &
  wrapper=$!
  local pid=""
  for _ in $(seq 100); do [ -s "$dir/pid" ] && [ -s "$dir/testbed" ] && break; sleep 0.1; done
  pid=$(cat "$dir/pid")
  exec 3<>/dev/null
  if [ "$mode" = buffer ]; then
    # One scan (normal) once the buffer is read, so that there is an orientation to claim;
    # then nothing.
    for _ in $(seq 100); do grep -q 'sensor online' "$dir/log" && break; sleep 0.1; done
    sleep 0.5
    exec 3<>"$(cat "$dir/testbed")/dev/iio:device0"
    printf '\x00\x00\x00\xff\x00\x00' >&3
  fi
  # monitor-sensor has claimed and got its first orientation, or is waiting for the name.
  local expect="Accelerometer orientation changed: normal"
  [ "$bus" = off ] && expect="Waiting for iio-sensor-proxy"
  for _ in $(seq 100); do grep -q "$expect" "$dir/monitor" && break; sleep 0.1; done
  grep -q "$expect" "$dir/monitor" || { echo "footprint: $name: no '$expect' from monitor-sensor:" >&2; cat "$dir/monitor" "$dir/log" >&2; exit 1; }
  sleep 3

  switches "$pid" >"$dir/switches.before"
  sleep "$seconds"
  switches "$pid" >"$dir/switches.after"
  by_mapping "$pid" >"$dir/mappings"
  local rss pss uss dirty threads
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")
  pss=$(awk '/^Pss:/ {print $2}' "/proc/$pid/smaps_rollup")
  uss=$(awk '/^Private_(Clean|Dirty):/ {sum += $2} END {print sum}' "/proc/$pid/smaps_rollup")
  dirty=$(awk '/^Private_Dirty:/ {print $2}' "/proc/$pid/smaps_rollup")
  threads=$(wc -l <"$dir/switches.after")
  touch "$dir/done"
  exec 3>&-
  wait "$wrapper"
  wrapper=""
  # Per thread, in the order of /proc: "name voluntary+involuntary".
  local per_thread total
  per_thread=$(paste -d ' ' "$dir/switches.before" "$dir/switches.after" |
    awk '{printf "%s%s %d+%d", (NR > 1 ? ", " : ""), $1, $5 - $2, $6 - $3}')
  total=$(paste -d ' ' "$dir/switches.before" "$dir/switches.after" |
    awk -v s="$seconds" '{t += $5 - $2 + $6 - $3} END {printf "%.2f", t / s}')
  local label=$mode
  [ "$mode" = auto ] && label="defaults (auto)"
  printf '%-30s %7s %7s %7s %7s %7s %7s  %s\n' "$label, D-Bus $bus" "$rss" "$pss" "$uss" "$dirty" "$threads" "$total" "$per_thread"
  echo "$rss $pss $uss $dirty" >"$dir/memory"
}

load=$(cut -d ' ' -f 1-3 /proc/loadavg)
echo "orientd (release) on a umockdev accelerometer held still, $(date -u +%Y-%m-%d), $(nproc) cores, load average $load"
echo "memory in kB; context switches of orientd's threads per second over $seconds s (target: $(awk -v i="$interval" 'BEGIN {printf "%.2f", 1000 / i}') polling every $interval ms, 0 in buffer mode),"
echo "and per thread over the window (voluntary+involuntary); with D-Bus on, monitor-sensor holds a claim"
printf '%-30s %7s %7s %7s %7s %7s %7s  %s\n' "run" "VmRSS" "Pss" "USS" "dirty" "threads" "csw/s" "per thread"
run poll-off poll off
run poll-on poll system
run auto-off auto off
run auto-on auto system
run buffer-off buffer off
run buffer-on buffer system

# Memory alone, in PAIRS more pairs of runs with every setting at its default (D-Bus off, then
# on; 2 s windows): which pages of orientd's 12 MB binary and its libraries are resident moves
# by up to a few hundred kB from one run to the next, whatever the options.
pairs=${PAIRS:-3}
window=$seconds
seconds=2
for i in $(seq "$pairs"); do
  run "pair$i-off" auto off >/dev/null
  run "pair$i-on" auto system >/dev/null
done
seconds=$window

# Prints "label rss pss uss dirty" differences between runs $2 (on) and $3 (off).
difference() {
  local r0 p0 u0 d0 r1 p1 u1 d1
  read -r r0 p0 u0 d0 <"$work/$3/memory"
  read -r r1 p1 u1 d1 <"$work/$2/memory"
  printf '%-30s %+7d %+7d %+7d %+7d\n' "$1" $((r1 - r0)) $((p1 - p0)) $((u1 - u0)) $((d1 - d0))
}

echo
printf '%-30s %7s %7s %7s %7s   (target: at most +300 kB)\n' "D-Bus on - off" VmRSS Pss USS dirty
difference "poll" poll-on poll-off
difference "defaults (auto)" auto-on auto-off
difference "buffer" buffer-on buffer-off
for i in $(seq "$pairs"); do difference "defaults, pair $i" "pair$i-on" "pair$i-off"; done | tee "$work/pairs"
all=$( (
  difference x poll-on poll-off
  difference x auto-on auto-off
  difference x buffer-on buffer-off
  cat "$work/pairs"
) | awk '{print $(NF - 3) + 0, $(NF - 2) + 0, $(NF - 1) + 0, $NF + 0}')
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2))}'; }
printf '%-30s %+7d %+7d %+7d %+7d\n' "median of the $((pairs + 3)) pairs" \
  "$(cut -d ' ' -f 1 <<<"$all" | median)" "$(cut -d ' ' -f 2 <<<"$all" | median)" \
  "$(cut -d ' ' -f 3 <<<"$all" | median)" "$(cut -d ' ' -f 4 <<<"$all" | median)"
echo "(USS and Pss count a library's or the binary's page as private while no other process maps"
echo "it: on a shared machine they move by megabytes as other processes come and go. VmRSS and"
echo "dirty, the private dirty pages (heap, stacks, written data), do not.)"

# Where the difference lies between runs $2 (off) and $3 (on): resident and private kB by mapping.
breakdown() {
  echo
  echo "kB by mapping, $1, where D-Bus off and on differ by 8 kB or more (resident or private):"
  printf '  %-28s %7s %7s %7s %9s %9s %9s\n' mapping rss-off rss-on rss-diff priv-off priv-on priv-diff
  join -a 1 -a 2 -e 0 -o 0,1.2,1.3,2.2,2.3 "$work/$2/mappings" "$work/$3/mappings" |
    awk '{r = $4 - $2; p = $5 - $3
      if (r >= 8 || r <= -8 || p >= 8 || p <= -8) printf "  %-28s %7d %7d %+7d %9d %9d %+9d\n", $1, $2, $4, r, $3, $5, p}' |
    sort -k4 -n -r
}
breakdown polling poll-off poll-on
breakdown "every setting at its default" auto-off auto-on
