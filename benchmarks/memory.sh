#!/bin/bash
# orientd's memory beside iio-sensor-proxy's, from one run, each daemon alone on the same
# umockdev accelerometer, and where orientd's memory goes.
#
#   benchmarks/memory.sh [SETTLE_SECONDS]      (default 5: how long each daemon runs before it is measured)
#   LIBRARIES=N benchmarks/memory.sh            also the N libraries with the most private kB, per row
#
# Rows, one after another, each with the daemon alone in its testbed:
#   iio-sensor-proxy          on a private system bus, monitor-sensor claiming (it polls at 700 ms)
#   orientd 700 ms            --mode poll --interval 700 --settle 0, D-Bus off, one orientctl monitor
#   orientd defaults          every setting at its default (D-Bus off), one orientctl monitor
#   orientd D-Bus             --dbus system on a private bus, monitor-sensor claiming
#   orientd hinge pair        benchmarks/hinge.umockdev (display and base), one orientctl monitor
#   orientd 100 subscribers   defaults, 100 orientctl monitor clients
# Columns, in kB: VmRSS; Pss and USS (private clean + dirty) from smaps_rollup; then USS split
# into the daemon's own executable file, anonymous memory (heap, stacks, .bss, malloc arenas)
# and shared libraries, and the libraries' Pss. USS and Pss count a library page as private
# while no other process maps it: on a desktop, libc, libsystemd, GLib and friends are shared
# with dozens of processes; in this testbed only the subscriber and dbus-daemon share them.
# A binary's page counts as resident once it is mapped, and the kernel maps up to 16 pages
# around each page a fault touches when they are cached (fault-around).
set -euo pipefail
cd "$(dirname "$0")/.."
settle=${1:-5}
for tool in umockdev-run dbus-daemon monitor-sensor; do
  command -v "$tool" >/dev/null || { echo "memory: $tool is missing (apt-get install umockdev dbus iio-sensor-proxy)" >&2; exit 69; }
done
proxy=$(command -v iio-sensor-proxy || ls /usr/libexec/iio-sensor-proxy /usr/sbin/iio-sensor-proxy 2>/dev/null | head -1 || true)
[ -n "$proxy" ] || { echo "memory: iio-sensor-proxy is missing (apt-get install iio-sensor-proxy)" >&2; exit 69; }
bench=memory
. benchmarks/common.sh
release_binaries
scratch

# "VmRSS Pss USS binary anonymous libraries libraries-Pss" of process $1 in kB.
memory_of() {
  local exe
  exe=$(readlink "/proc/$1/exe")
  awk -v exe="$exe" '
    /^[0-9a-f]+-[0-9a-f]+ / { path = (NF >= 6 ? $6 : ""); kind = (path == exe ? "binary" : path ~ /\.so/ ? "library" : path == "" || path ~ /^\[/ ? "anonymous" : "other") }
    /^Pss:/ { if (kind == "library") libpss += $2 }
    /^Private_(Clean|Dirty):/ { uss[kind] += $2 }
    END { printf "%d %d %d %d", uss["binary"], uss["anonymous"], uss["library"], libpss }' "/proc/$1/smaps" >"$work/split"
  local rss pss uss
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$1/status")
  pss=$(awk '/^Pss:/ {print $2}' "/proc/$1/smaps_rollup")
  uss=$(awk '/^Private_(Clean|Dirty):/ {s += $2} END {print s}' "/proc/$1/smaps_rollup")
  echo "$rss $pss $uss $(cat "$work/split")"
}

# The $LIBRARIES shared libraries of process $1 with the most private kB: "name USS Pss".
libraries_of() {
  awk '/^[0-9a-f]+-[0-9a-f]+ / { name = (NF >= 6 ? $6 : ""); sub(".*/", "", name) }
    /^Private_(Clean|Dirty):/ { uss[name] += $2 } /^Pss:/ { pss[name] += $2 }
    END { for (n in uss) if (n ~ /\.so/) printf "    %-32s %7d %7d\n", n, uss[n], pss[n] }' "/proc/$1/smaps" |
    sort -k2 -n -r | head -n "$LIBRARIES"
}

# One row: $1 names it, $2 is the umockdev file, $3 the kind (proxy, socket, bus), $4 the
# number of socket subscribers, the rest are orientd's options.
row() {
  local name=$1 device=$2 kind=$3 subscribers=$4 dir
  shift 4
  dir=$(mktemp -d "$work/row.XXXXXX")
  local ready="$dir/monitor"
  {
    echo '#!/bin/bash'
    echo 'set -u'
    if [ "$kind" != socket ]; then
      sed "s|@BUS@|$dir/bus|" Tests/Fixtures/private-system-bus.conf >"$dir/bus.conf"
      echo "dbus-daemon --config-file=\"$dir/bus.conf\" --fork --print-pid > \"$dir/bus.pid\""
      echo "for _ in \$(seq 100); do [ -S \"$dir/bus\" ] && break; sleep 0.05; done"
      echo "export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$dir/bus"
    fi
    if [ "$kind" = proxy ]; then
      echo "\"$proxy\" > \"$dir/log\" 2>&1 &"
    else
      local bus=off
      [ "$kind" = bus ] && bus=system
      echo "\"$bin/orientd\" --socket \"$dir/socket\" --state \"$dir/state\" --config /dev/null --dbus $bus $* > \"$dir/log\" 2>&1 &"
    fi
    echo "echo \$! > \"$dir/pid\""
    if [ "$kind" = socket ]; then
      echo "for _ in \$(seq 100); do [ -S \"$dir/socket\" ] && break; sleep 0.05; done"
      echo "for i in \$(seq $subscribers); do \"$bin/orientctl\" --socket \"$dir/socket\" monitor > \"$dir/monitor.\$i\" 2>&1 & done"
    else
      echo "stdbuf -oL monitor-sensor > \"$dir/monitor\" 2>&1 &"
    fi
    echo "while [ ! -e \"$dir/done\" ]; do sleep 0.2; done"
    echo "kill \$(jobs -p) \$(cat \"$dir\"/*.pid 2>/dev/null) 2>/dev/null"
    echo 'wait; exit 0'
  } >"$dir/inside.sh"
  chmod +x "$dir/inside.sh"
  [ "$kind" = socket ] && ready="$dir/monitor.$subscribers"
  umockdev-run --device "$device" -- "$dir/inside.sh" &
  local testbed=$!
  local expect="orientation"
  [ "$kind" != socket ] && expect="Accelerometer orientation changed"
  wait_for "$ready" "$expect" || { cat "$dir/log" >&2; touch "$dir/done"; wait "$testbed"; exit 1; }
  sleep "$settle"
  local pid
  pid=$(cat "$dir/pid")
  # shellcheck disable=SC2046 # the figures are words
  printf '%-28s %7s %7s %7s %9s %9s %9s %9s\n' "$name" $(memory_of "$pid")
  [ -n "${LIBRARIES:-}" ] && libraries_of "$pid"
  touch "$dir/done"
  wait "$testbed" || true
}

echo "memory in kB, $(date -u +%Y-%m-%d), $(nproc) cores, load average $(cut -d ' ' -f 1-3 /proc/loadavg); each daemon alone, measured ${settle} s after its subscriber's first event"
printf '%-28s %7s %7s %7s %9s %9s %9s %9s\n' daemon VmRSS Pss USS "USS:exe" "USS:anon" "USS:libs" "Pss:libs"
row "iio-sensor-proxy" benchmarks/accel.umockdev proxy 0
row "orientd 700 ms, settle 0" benchmarks/accel.umockdev socket 1 --mode poll --interval 700 --settle 0
row "orientd defaults" benchmarks/accel.umockdev socket 1
row "orientd D-Bus (defaults)" benchmarks/accel.umockdev bus 0
row "orientd hinge pair" benchmarks/hinge.umockdev socket 1
row "orientd 100 subscribers" benchmarks/accel.umockdev socket 100
