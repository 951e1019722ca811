#!/bin/bash
# orientd side by side with iio-sensor-proxy on the same umockdev accelerometer.
#
#   benchmarks/compare-iio-sensor-proxy.sh [SECONDS]      (default 60 s per CPU window)
#
# Installs Debian's iio-sensor-proxy if it is missing (needs root), builds orientd in release
# mode, and for each daemon prints: memory (VmRSS; Pss and USS, private clean + dirty, from
# smaps_rollup: what the daemon costs the machine), CPU time and voluntary context switches over SECONDS with a subscriber
# attached (monitor-sensor, or orientctl monitor), idle and with the device turning once a
# second, and the latency from a raw-attribute change (or a buffer scan) to the event at the
# subscriber over 20 changes (median, p90 and p99, which over 20 changes is the slowest).
# iio-sensor-proxy gets a private system bus. The "D-Bus" rows run orientd with `--dbus
# system` on a private bus of its own, and the subscriber is then `monitor-sensor`, as for
# iio-sensor-proxy: those rows measure the whole path a desktop sees, through dbus-daemon.
#
# Then both daemons run at once on one fake accelerometer, both polling every 700 ms, and
# their CPU time is taken over the same windows (WINDOWS of them, default 3, each SECONDS
# long, idle and then turning): the machine's noise hits both alike, so the ratios are
# steadier than those of the rows above, which run one after another.
#
# Last, the latency rows that reach monitor-sensor again, with iio-sensor-proxy and orientds
# at once on one fake accelerometer, each on its own private bus with its own monitor-sensor,
# timed on the same 20 changes: the machine's load weighs on all alike. Beside the defaults
# and 700 ms with settle 0 (iio-sensor-proxy's own pace), the default interval with the
# settle time of 300 ms that was the default until polls sped up while a change is pending.
# The same daemons then see three traces played on
# the device, and the changes each subscriber gets are counted against those the trace holds: a sweep from normal to left-up and back at
# a degree every 50 ms (2 changes), a wobble of 4 degrees either side of 45 every 100 ms for
# 6 s (none), and a shake whose bursts pass through left-up, a sample every 20 ms for 2 s
# (none). Every change past those is a flap.
#
#   ONLY=same-changes benchmarks/compare-iio-sensor-proxy.sh      just this part (about 2 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
windows=${WINDOWS:-3}
changes=20

if ! command -v iio-sensor-proxy >/dev/null && [ ! -x /usr/libexec/iio-sensor-proxy ] && [ ! -x /usr/sbin/iio-sensor-proxy ]; then
  apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y iio-sensor-proxy >/dev/null
fi
proxy=$(command -v iio-sensor-proxy || ls /usr/libexec/iio-sensor-proxy /usr/sbin/iio-sensor-proxy 2>/dev/null | head -1)
bench=compare
. benchmarks/common.sh
release_binaries
work=$(mktemp -d /tmp/orientd-compare.XXXXXX)
trap 'pkill -f "$work" 2>/dev/null || true; rm -rf "$work"' EXIT

# The fake accelerometer, held normal (one file for both benchmark scripts; iio-sensor-proxy
# reads it as a polled accelerometer).
cp benchmarks/accel.umockdev "$work/accel.umockdev"

# Private buses: the package's one private-bus config, shared with the tests, with the
# socket's path filled in. Each bus gets a short path of its own (a bus address must not hold
# the spaces and commas of the rows' names).
buses=0
new_bus() {  # sets $bus_socket; the config is that path plus .conf
  buses=$((buses + 1))
  bus_socket=$work/bus$buses
  sed "s|@BUS@|$bus_socket|" Tests/Fixtures/private-system-bus.conf >"$bus_socket.conf"
}

# Nanoseconds on the CPU of process $1, summed over every thread (schedstat is exact, unlike
# clock ticks).
cpu_of() { cat /proc/$1/task/*/schedstat | awk '{s += $1} END {printf "%d", s}'; }

# Sets attribute $2 of the sysfs directory $1 to $3 as umockdev's set_attribute does: a new
# file renamed over the old, so no reader ever finds it empty (libiio reads that as EIO).
set_attribute() { echo "$3" >"$1/$2.new" && mv "$1/$2.new" "$1/$2"; }

# Sets the three raw readings of the sysfs directory $1 to $2, $3 and $4.
set_raw() {
  set_attribute "$1" in_accel_x_raw "$2"; set_attribute "$1" in_accel_y_raw "$3"; set_attribute "$1" in_accel_z_raw "$4"
}

# Raw readings of an upright device tilted $1 degrees from normal towards left-up (256 is 1 g).
tilted() { awk -v d="$1" 'BEGIN { r = d * 3.141592653589793 / 180; printf "%d %d 0", 256 * sin(r), -256 * cos(r) }'; }

# Writes raw values for normal (0) or left-up (1) into the sysfs directory $2.
turn_sysfs() {
  if [ "$1" = 1 ]; then
    set_attribute "$2" in_accel_y_raw 0; set_attribute "$2" in_accel_x_raw 256
  else
    set_attribute "$2" in_accel_x_raw 0; set_attribute "$2" in_accel_y_raw -256
  fi
}

# Shell lines that start a new private bus and make it the system bus of the processes started
# after them (until the next bus's lines); its pid file is $1.bus.pid.
bus_lines() {
  new_bus
  set -- "$1" "$bus_socket"
  cat <<LINES
dbus-daemon --config-file="$2.conf" --fork --print-pid > "$1.bus.pid"
for _ in \$(seq 100); do [ -S "$2" ] && break; sleep 0.05; done
export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$2
LINES
}

# Shell lines that start iio-sensor-proxy on a new private bus, and monitor-sensor piped through
# $2 into $1.events; pid files are $1.pid and $1.bus.pid.
proxy_lines() {
  bus_lines "$1"
  cat <<LINES
"$proxy" > "$1.log" 2>&1 &
echo \$! > "$1.pid"
sleep 1
stdbuf -oL monitor-sensor 2>/dev/null | $2 > "$1.events" &
LINES
}

# Shell lines that start orientd with `--dbus system` and options $3... on a new private bus,
# and monitor-sensor, once orientd owns the name, piped through $2 into $1.events; pid files
# are $1.pid and $1.bus.pid. monitor-sensor claims the accelerometer, as a desktop does.
orientd_bus_lines() {
  local stem=$1 filter=$2
  shift 2
  bus_lines "$stem"
  cat <<LINES
"$bin/orientd" --socket "$stem.sock" --state "$stem.state" --config /dev/null --dbus system $* > "$stem.log" 2>&1 &
echo \$! > "$stem.pid"
for _ in \$(seq 200); do grep -q 'D-Bus: serving' "$stem.log" && break; sleep 0.05; done
stdbuf -oL monitor-sensor 2>/dev/null | $filter > "$stem.events" &
LINES
}

# Shell lines that start orientd with options $3..., and `orientctl monitor` piped through $2
# into $1.events; the pid file is $1.pid.
orientd_lines() {
  local stem=$1 filter=$2
  shift 2
  cat <<LINES
"$bin/orientd" --socket "$stem.sock" --state "$stem.state" --config /dev/null $* > "$stem.log" 2>&1 &
echo \$! > "$stem.pid"
for _ in \$(seq 100); do [ -S "$stem.sock" ] && break; sleep 0.05; done
"$bin/orientctl" --socket "$stem.sock" monitor | $filter > "$stem.events" &
LINES
}

# Runs the shell lines in file $3 inside a umockdev testbed, in the background, until $1/done
# exists; then kills everything whose pid is in $1/*.pid. Returns once $2 (a pid file) is
# written; the testbed's directory is in $1/testbed.
start_testbed() {
  local dir=$1 ready=$2 body=$3
  {
    echo '#!/bin/bash'
    echo 'set -u'
    echo "echo \"\$UMOCKDEV_DIR\" > \"$dir/testbed\""
    echo 'stamp() { while IFS= read -r line; do printf "%s %s\n" "$EPOCHREALTIME" "$line"; done; }'
    cat "$body"
    echo "while [ ! -e \"$dir/done\" ]; do sleep 0.2; done"
    echo "kill \$(jobs -p) \$(cat \"$dir\"/*.pid) 2>/dev/null"
    echo 'pkill -P $$ 2>/dev/null'
    echo 'exit 0'
  } >"$dir/inside.sh"
  chmod +x "$dir/inside.sh"
  umockdev-run --device "$work/accel.umockdev" -- "$dir/inside.sh" &
  for _ in $(seq 100); do [ -s "$ready" ] && break; sleep 0.1; done
}

# Latency figures from the stamped files $1 (changes) and $2 (subscriber lines after the
# first change): "p50 p90 p99 n" in ms; the n-th change is matched with the n-th event.
latency_of() {
  grep -E 'orientation (changed: )?(normal|left-up)|Accelerometer orientation changed' "$2" >"$2.matched" || true
  awk 'NR == FNR { w[NR] = $1; n = NR; next } { e[FNR] = $1; m = FNR }
    END { for (i = 1; i <= n && i <= m; i++) { d = (e[i] - w[i]) * 1000; if (d >= 0) print d } }' \
    "$1" "$2.matched" | sort -n >"$2.latencies"
  awk '{ l[NR] = $1 } END {
      if (NR == 0) { print "n/a n/a n/a 0"; exit }
      i90 = int(NR * 0.90 + 0.999); i99 = int(NR * 0.99 + 0.999)
      printf "%.1f %.1f %.1f %d", l[int((NR + 1) / 2)], l[i90], l[i99], NR
    }' "$2.latencies"
}

# One run: the daemon and its subscriber inside a umockdev testbed. $1 names the run, $2 is
# "proxy", "poll" or "buffer" (orientd with `orientctl monitor`), or "bus-poll" or
# "bus-buffer" (orientd with `--dbus system` and monitor-sensor); the rest are orientd's
# options. Subscriber lines are stamped with $EPOCHREALTIME as they arrive; changes are
# stamped as they are written.
measure() {
  local name=$1 kind=${2#bus-}
  local bus=no
  [ "$kind" != "$2" ] && bus=yes
  shift 2
  local dir="$work/$name"
  mkdir -p "$dir"
  {
    if [ "$kind" = buffer ]; then
      echo 'node="$UMOCKDEV_DIR/dev/iio:device0"; rm -f "$node"; mkfifo "$node"'
    fi
    if [ "$kind" = proxy ]; then
      proxy_lines "$dir/daemon" stamp
    elif [ $bus = yes ]; then
      orientd_bus_lines "$dir/daemon" stamp "$@"
    else
      orientd_lines "$dir/daemon" stamp "$@"
    fi
  } >"$dir/body"
  start_testbed "$dir" "$dir/daemon.pid" "$dir/body"
  sleep 3
  local pid testbed sysfs
  pid=$(cat "$dir/daemon.pid")
  testbed=$(cat "$dir/testbed")
  sysfs="$testbed/sys/devices/platform/accel/iio:device0"
  exec 3<>/dev/null
  # The first change has happened by now when polling; give the buffer its first scan.
  if [ "$kind" = buffer ]; then exec 3<>"$testbed/dev/iio:device0"; printf '\x00\x00\x00\xff\x00\x00' >&3; sleep 3; fi

  local rss pss uss
  rss=$(awk '/^VmRSS/ {print $2}' /proc/$pid/status)
  pss=$(awk '/^Pss:/ {print $2}' /proc/$pid/smaps_rollup)
  uss=$(awk '/^Private_(Clean|Dirty):/ {s += $2} END {print s}' /proc/$pid/smaps_rollup)

  cpu() { cpu_of "$pid"; }
  switches() { cat /proc/$pid/task/*/status | awk '/^voluntary_ctxt_switches/ {s += $2} END {print s}'; }
  turn() {  # $1: 0 normal, 1 left-up
    if [ "$kind" = buffer ]; then
      if [ "$1" = 1 ]; then printf '\x00\x01\x00\x00\x00\x00' >&3; else printf '\x00\x00\x00\xff\x00\x00' >&3; fi
    else
      turn_sysfs "$1" "$sysfs"
    fi
  }
  local c0 s0 c1 s1 idle_cpu idle_sw busy_cpu busy_sw
  c0=$(cpu); s0=$(switches); sleep "$seconds"; c1=$(cpu); s1=$(switches)
  idle_cpu=$(awk -v a="$c0" -v b="$c1" 'BEGIN {printf "%.1f", (b - a) / 1e6}'); idle_sw=$((s1 - s0))
  c0=$(cpu); s0=$(switches)
  local end=$((SECONDS + seconds)) state=0
  while [ $SECONDS -lt $end ]; do state=$((1 - state)); turn $state; sleep 1; done
  c1=$(cpu); s1=$(switches)
  busy_cpu=$(awk -v a="$c0" -v b="$c1" 'BEGIN {printf "%.1f", (b - a) / 1e6}'); busy_sw=$((s1 - s0))

  # Latency: a change every 1.5 s, stamped before the write; the event that follows is matched.
  : >"$dir/writes"
  turn 0; state=0; sleep 1.5
  local before
  before=$(wc -l <"$dir/daemon.events")
  for _ in $(seq $changes); do
    state=$((1 - state))
    printf '%s %s\n' "$EPOCHREALTIME" "$state" >>"$dir/writes"
    turn $state
    sleep 1.5
  done
  tail -n +$((before + 1)) "$dir/daemon.events" >"$dir/after"
  local latency
  latency=$(latency_of "$dir/writes" "$dir/after")
  touch "$dir/done"
  exec 3>&-
  wait
  printf '%-54s %7s %7s %8s %9s %9s %9s %9s %8s %8s %8s %4s\n' "$name" "$rss" "$pss" "$uss" \
    "$idle_cpu" "$idle_sw" "$busy_cpu" "$busy_sw" $latency
}

echo "orientd vs iio-sensor-proxy on a umockdev accelerometer, $(date -u +%Y-%m-%d), $(nproc) cores"
echo "memory in kB; CPU in ms and voluntary context switches over ${seconds} s (idle, then turning once a second);"
echo "latency from a change to the subscriber's event, over $changes changes; subscriber: monitor-sensor"
echo "for iio-sensor-proxy and the D-Bus rows, orientctl monitor for the others"
printf '%-54s %7s %7s %8s %9s %9s %9s %9s %8s %8s %8s %4s\n' "daemon" "VmRSS" "Pss" "USS" \
  "idle-cpu" "idle-csw" "turn-cpu" "turn-csw" "p50-ms" "p90-ms" "p99-ms" "n"
# ONLY=PATTERN runs just the rows whose name matches.
run_one() {
  case "$1" in *${ONLY:-}*) measure "$@" ;; esac
}
run_one "iio-sensor-proxy (700 ms poll)" proxy
run_one "orientd poll 700 ms" poll --mode poll --interval 700
run_one "orientd poll 700 ms, settle 0" poll --mode poll --interval 700 --settle 0
run_one "orientd poll 200 ms (default interval)" poll --mode poll
run_one "orientd buffer, settle 0" buffer --mode buffer --settle 0
run_one "orientd D-Bus, poll 200 ms, settle 200 ms (defaults)" bus-poll
run_one "orientd D-Bus, poll 700 ms, settle 0" bus-poll --mode poll --interval 700 --settle 0
run_one "orientd D-Bus, buffer, settle 0" bus-buffer --mode buffer --settle 0

# Both daemons at once on one fake accelerometer, each with its subscriber, both polling
# every 700 ms; CPU time over the same windows.
paired() {
  local dir="$work/paired"
  cc -O2 -o "$work/poll-floor" benchmarks/poll-floor.c
  mkdir -p "$dir"
  {
    proxy_lines "$dir/proxy" cat
    orientd_lines "$dir/orientd" cat --mode poll --interval 700
    # The floor: a C loop with the same wait and three preads (benchmarks/poll-floor.c).
    echo 'raw="$UMOCKDEV_DIR/sys/devices/platform/accel/iio:device0/in_accel"'
    echo "\"$work/poll-floor\" 700 \"\$raw\"_x_raw \"\$raw\"_y_raw \"\$raw\"_z_raw &"
    echo "echo \$! > \"$dir/floor.pid\""
    echo "\"$work/poll-floor\" --fstat 700 \"\$raw\"_x_raw \"\$raw\"_y_raw \"\$raw\"_z_raw &"
    echo "echo \$! > \"$dir/floor-fstat.pid\""
  } >"$dir/body"
  start_testbed "$dir" "$dir/orientd.pid" "$dir/body"
  sleep 4
  local proxy_pid orientd_pid floor_pid fstat_pid sysfs
  floor_pid=$(cat "$dir/floor.pid")
  fstat_pid=$(cat "$dir/floor-fstat.pid")
  proxy_pid=$(cat "$dir/proxy.pid")
  orientd_pid=$(cat "$dir/orientd.pid")
  sysfs="$(cat "$dir/testbed")/sys/devices/platform/accel/iio:device0"
  echo
  echo "side by side in the same windows, both polling every 700 ms: CPU in ms over ${seconds} s"
  echo "(C floor: benchmarks/poll-floor.c, the same wait and three preads; +fstat: and an fstat of each"
  echo "file, as orientd does off sysfs; orientd/C is against the latter; orientd's us per poll at 700 ms)"
  printf '%-8s %-8s %12s %12s %8s %9s %9s %9s %9s\n' window load iio-sensor-proxy orientd ratio "C floor" "+fstat" "orientd/C" "us/poll"
  local window kind p0 o0 f0 s0 p1 o1 f1 s1 end state=0
  for window in $(seq "$windows"); do
    for kind in idle turning; do
      p0=$(cpu_of "$proxy_pid"); o0=$(cpu_of "$orientd_pid"); f0=$(cpu_of "$floor_pid"); s0=$(cpu_of "$fstat_pid")
      if [ "$kind" = idle ]; then
        sleep "$seconds"
      else
        end=$((SECONDS + seconds))
        while [ $SECONDS -lt $end ]; do state=$((1 - state)); turn_sysfs $state "$sysfs"; sleep 1; done
      fi
      p1=$(cpu_of "$proxy_pid"); o1=$(cpu_of "$orientd_pid"); f1=$(cpu_of "$floor_pid"); s1=$(cpu_of "$fstat_pid")
      awk -v w="$window" -v k="$kind" -v p=$((p1 - p0)) -v o=$((o1 - o0)) -v f=$((f1 - f0)) -v c=$((s1 - s0)) -v s="$seconds" \
        'BEGIN { printf "%-8s %-8s %12.1f %12.1f %7.2fx %9.1f %9.1f %8.2fx %9.0f\n", w, k, p / 1e6, o / 1e6, o / p, f / 1e6, c / 1e6, o / c, o / 1e3 / (s * 1000 / 700) }'
    done
    turn_sysfs 0 "$sysfs"; state=0; sleep 2
  done
  touch "$dir/done"
  wait
}
case paired in *${ONLY:-}*) paired ;; esac

# The name of a row of same_changes.
row_name() {
  case $1 in
    proxy) echo "iio-sensor-proxy (700 ms poll)" ;;
    defaults) echo "orientd D-Bus, every setting at its default (poll 200 ms in hand, 1 s at rest; settle 200 ms, still 40 ms)" ;;
    settle0) echo "orientd D-Bus, poll 700 ms, settle 0" ;;
    settle300) echo "orientd D-Bus, poll 200 ms, settle 300 ms" ;;
  esac
}

# The latency rows that reach monitor-sensor, again with all the daemons at once on one fake
# accelerometer, each on its own private bus with its own monitor-sensor: each change is
# written once and timed at every subscriber. Then the traces, and the flaps they bring.
same_changes() {
  local dir="$work/same-changes"
  mkdir -p "$dir"
  {
    proxy_lines "$dir/proxy" stamp
    orientd_bus_lines "$dir/defaults" stamp
    orientd_bus_lines "$dir/settle0" stamp --mode poll --interval 700 --settle 0
    orientd_bus_lines "$dir/settle300" stamp --settle 300
  } >"$dir/body"
  start_testbed "$dir" "$dir/settle300.pid" "$dir/body"
  sleep 4
  local sysfs state=0 stem stems="proxy defaults settle0 settle300"
  sysfs="$(cat "$dir/testbed")/sys/devices/platform/accel/iio:device0"
  turn_sysfs 0 "$sysfs"
  sleep 1.5
  : >"$dir/writes"
  for stem in $stems; do wc -l <"$dir/$stem.events" >"$dir/$stem.before"; done
  for _ in $(seq $changes); do
    state=$((1 - state))
    printf '%s %s\n' "$EPOCHREALTIME" "$state" >>"$dir/writes"
    turn_sysfs $state "$sysfs"
    sleep 1.5
  done
  echo
  echo "the same $changes changes timed at four monitor-sensors at once, each on its own private bus:"
  echo "latency in ms from a raw-attribute change to monitor-sensor's line"
  printf '%-54s %8s %8s %8s %4s\n' daemon p50-ms p90-ms p99-ms n
  for stem in $stems; do
    tail -n +$(($(cat "$dir/$stem.before") + 1)) "$dir/$stem.events" >"$dir/$stem.after"
    name=$(row_name $stem)
    printf '%-54s %8s %8s %8s %4s\n' "$name" $(latency_of "$dir/writes" "$dir/$stem.after")
  done

  # The traces: the changes each subscriber got during each, against those it holds.
  local trace count step
  declare -A got
  for trace in sweep wobble shake; do
    set_raw "$sysfs" 0 -256 0
    sleep 2
    for stem in $stems; do wc -l <"$dir/$stem.events" >"$dir/$stem.before"; done
    case $trace in
      sweep)
        for step in $(seq 0 89) $(seq 89 -1 0); do set_raw "$sysfs" $(tilted "$step.5"); sleep 0.05; done ;;
      wobble)
        for step in $(seq 30); do set_raw "$sysfs" $(tilted 41); sleep 0.1; set_raw "$sysfs" $(tilted 49); sleep 0.1; done ;;
      shake)
        for step in $(seq 20); do
          for sample in "461 0 0" "0 435 77" "-384 -51 0" "256 0 0" "51 538 0"; do set_raw "$sysfs" $sample; sleep 0.02; done
        done ;;
    esac
    set_raw "$sysfs" 0 -256 0
    sleep 2
    for stem in $stems; do
      count=$(tail -n +$(($(cat "$dir/$stem.before") + 1)) "$dir/$stem.events" \
        | grep -cE 'orientation (changed: )?(normal|left-up|right-up|bottom-up)|Accelerometer orientation changed' || true)
      got[$stem.$trace]=$count
    done
  done
  echo
  echo "changes at each monitor-sensor during three traces played on the same device (what the trace holds"
  echo "in brackets); flaps: the changes past those"
  printf '%-54s %10s %10s %10s %6s\n' daemon "sweep(2)" "wobble(0)" "shake(0)" flaps
  for stem in $stems; do
    name=$(row_name $stem)
    local sweep=${got[$stem.sweep]} wobble=${got[$stem.wobble]} shake=${got[$stem.shake]}
    local extra=$(( (sweep > 2 ? sweep - 2 : 0) + wobble + shake ))
    printf '%-54s %10s %10s %10s %6s\n' "$name" "$sweep" "$wobble" "$shake" "$extra"
  done
  touch "$dir/done"
  wait
}
case same-changes in *${ONLY:-}*) same_changes ;; esac
