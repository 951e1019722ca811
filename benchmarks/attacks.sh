#!/bin/sh
# Hostile local users, at full size: each attack runs as nobody against a release orientd
# serving from a scratch directory, while a root client measures `ping` round trips. Prints
# ping p50/p99/max under each attack, orientd's memory (VmRSS / Pss / USS) under slow
# readers, the longest watchdog gap under a control flood, and the slots one uid can take.
# `swift test` runs the reduced versions (HostileClientTests). Usage: attacks.sh [SECONDS];
# ORIENTD=path measures another orientd build (an older one, to compare) with these attackers.
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-20}
swift build -c release >/dev/null
bin=$(swift build -c release --show-bin-path)
orientd_binary=${ORIENTD:-$bin/orientd}
[ "$(id -u)" = 0 ] || { echo "attacks.sh: run as root (attackers switch to nobody)" >&2; exit 77; }
dir=$(mktemp -d /tmp/orientd-attacks.XXXXXX)
chmod 755 "$dir"
pids=""
cleanup() {
  for pid in $pids; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT INT TERM
# A variable, not a function: `$as_nobody PROGRAM &` leaves the attacker's own pid in $!.
as_nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups"
# The control floods need an attacker who may control, as the user at the seat may: nobody is
# not at a seat, so those orientds name nobody's group, nogroup, as their control group.
may_control="--control-group nogroup"
printf '# orientd-trace 1\n0 0 -1 0\n' >"$dir/hold.trace"
: >"$dir/empty.conf"

# start_orientd NAME EXTRA...: orientd on $dir/NAME.sock, its pid in $orientd
start_orientd() {
  name=$1
  shift
  rm -f "$dir/$name.sock"
  "$orientd_binary" --replay "$dir/hold.trace" --settle 0 --config "$dir/empty.conf" \
    --socket "$dir/$name.sock" --state "$dir/$name.state" "$@" 2>"$dir/$name.log" &
  orientd=$!
  pids="$pids $orientd"
  while ! grep -q "listening on" "$dir/$name.log"; do
    kill -0 "$orientd" 2>/dev/null || { cat "$dir/$name.log" >&2; exit 1; }
    sleep 0.05
  done
}

stop_orientd() { kill "$orientd"; wait "$orientd" 2>/dev/null || true; }

memory() {
  awk '/^Rss:/ {rss=$2} /^Pss:/ {pss=$2} /^Private_(Clean|Dirty):/ {uss+=$2}
    END {printf "%.1f / %.1f / %.1f MB", rss/1024, pss/1024, uss/1024}' "/proc/$1/smaps_rollup"
}

# ping_under NAME: ping p50/p99/max from root, one ping every 10 ms for the attack's length
ping_under() {
  count=$((seconds * 100 * 9 / 10))
  "$bin/orientd-testbench" attack ping-latency "$dir/$1.sock" "$count" 10 >"$dir/$1.ping"
  printf '%-34s p50 %s ms, p99 %s ms, max %s ms, lost %s\n' "$1" \
    "$(awk '/^p50_ms/ {print $2}' "$dir/$1.ping")" "$(awk '/^p99_ms/ {print $2}' "$dir/$1.ping")" \
    "$(awk '/^max_ms/ {print $2}' "$dir/$1.ping")" "$(awk '/^lost/ {print $2}' "$dir/$1.ping")"
}

echo "attack (as nobody), $seconds s each    figure"

start_orientd quiet
ping_under quiet
stop_orientd

start_orientd slow
before=$(memory "$orientd")
readers=""
for i in 1 2 3 4; do
  $as_nobody "$bin/orientd-testbench" attack slow-reader "$dir/slow.sock" 1000000000 "$seconds" >"$dir/slow.$i" &
  readers="$readers $!"
done
pids="$pids $readers"
ping_under slow
after=$(memory "$orientd")
for pid in $readers; do wait "$pid" || true; done
echo "  orientd memory before / under 4 slow readers: $before -> $after (VmRSS / Pss / USS)"
echo "  bytes the slow readers read: $(cat "$dir"/slow.? | awk '/^read_bytes/ {s+=$2} END {print s}')"
stop_orientd

notify="$dir/notify"
: >"$dir/gap"
"$bin/orientd-testbench" attack watchdog-gap "$notify" "$((seconds + 2))" >"$dir/gap" &
gap=$!
pids="$pids $gap"
while ! grep -q listening "$dir/gap"; do sleep 0.05; done
export NOTIFY_SOCKET="$notify" WATCHDOG_USEC=200000
start_orientd flood $may_control
unset NOTIFY_SOCKET WATCHDOG_USEC
$as_nobody "$bin/orientd-testbench" attack control-flood "$dir/flood.sock" 32 "$seconds" "rotate cw" >"$dir/flood.out" &
pids="$pids $!"
ping_under flood
wait "$gap" || true
echo "  control commands served: $(awk '/^replies/ {print $2}' "$dir/flood.out") in $seconds s by 32 connections"
echo "  longest watchdog gap (notify every 100 ms): $(awk '/^longest_gap_ms/ {print $2}' "$dir/gap") ms"
stop_orientd

start_orientd closing $may_control
# 64 connections each pipelining 30000 `rotate cw` (what the socket takes) and closing at once.
$as_nobody "$bin/orientd-testbench" attack send-and-close "$dir/closing.sock" 64 "rotate cw" 30000 >/dev/null &
pids="$pids $!"
ping_under closing
echo "  screen turns caused by the closed connections: $(grep -c "info: orientation" "$dir/closing.log") logged (change lines are capped at 20 a second)"
stop_orientd

start_orientd slots
$as_nobody "$bin/orientd-testbench" attack hold-connections "$dir/slots.sock" 256 >"$dir/slots.out" &
holder=$!
pids="$pids $holder"
while ! grep -q "^refused" "$dir/slots.out"; do sleep 0.05; done
echo "slots one uid takes of --max-clients 256: $(awk '/^held/ {print $2}' "$dir/slots.out") (refused $(awk '/^refused/ {print $2}' "$dir/slots.out"))"
if "$bin/orientctl" --socket "$dir/slots.sock" get >/dev/null; then
  echo "  root's orientctl get while they are held: served"
else
  echo "  root's orientctl get while they are held: REFUSED"
fi
kill "$holder"
stop_orientd

# A hostile iiod on 127.0.0.1 that announces (and streams) 2 GiB of context XML.
$as_nobody "$bin/orientd-testbench" attack fake-iiod huge >"$dir/iiod.out" &
iiod=$!
pids="$pids $iiod"
while ! grep -q "^port" "$dir/iiod.out"; do sleep 0.05; done
port=$(awk '/^port/ {print $2}' "$dir/iiod.out")
rm -f "$dir/remote.sock"
"$orientd_binary" --uri "ip:127.0.0.1:$port" --config "$dir/empty.conf" \
  --socket "$dir/remote.sock" --state "$dir/remote.state" 2>"$dir/remote.log" &
orientd=$!
pids="$pids $orientd"
tries=0
while [ "$(grep -c "^connection" "$dir/iiod.out")" -lt 3 ] && [ $tries -lt 600 ]; do
  sleep 0.05
  tries=$((tries + 1))
done
echo "remote iiod announcing $(awk '/^announced/ {print $2; exit}' "$dir/iiod.out") bytes, 3 attempts:"
echo "  orientd memory: $(memory "$orientd") now, peak VmHWM $(awk '/^VmHWM/ {printf "%.1f MB", $2/1024}' "/proc/$orientd/status")"
grep -m1 -o "refusing the IIO context.*" "$dir/remote.log" | sed 's/^/  /' || echo "  (no refusal logged)"
stop_orientd
kill "$iiod"

# --- The D-Bus service, the sampling demand and the mode ---

# start_bus POLICY: a private bus as strict as the system bus with the rules of POLICY; its
# address in $bus_address.
start_bus() {
  sed -e "s|@BUS@|$dir/bus.sock|" -e "s|@INCLUDE@|$1|" Tests/Fixtures/strict-system-bus.conf >"$dir/bus.conf"
  rm -f "$dir/bus.sock"
  dbus-daemon --config-file="$dir/bus.conf" --nofork --nopidfile 2>"$dir/bus.log" &
  bus_pid=$!
  pids="$pids $bus_pid"
  while [ ! -S "$dir/bus.sock" ]; do sleep 0.05; done
  bus_address="unix:path=$dir/bus.sock"
}

stop_bus() { kill "$bus_pid"; wait "$bus_pid" 2>/dev/null || true; }

# start_bus_orientd NAME: orientd on the bus, its name owned
start_bus_orientd() {
  DBUS_SYSTEM_BUS_ADDRESS=$bus_address start_orientd "$1" --dbus system
  while ! grep -q "D-Bus: serving" "$dir/$1.log"; do sleep 0.05; done
}

start_bus "$PWD/Tests/Fixtures/attack-policy.conf"
start_bus_orientd claims
$as_nobody "$bin/orientd-testbench" attack bus-claim-flood "$bus_address" 240 8 "$seconds" >"$dir/claims.out" &
flood=$!
pids="$pids $flood"
while ! grep -q "^connections" "$dir/claims.out"; do sleep 0.05; done
served=0
tried=0
while kill -0 "$flood" 2>/dev/null; do
  "$bin/orientd-testbench" attack bus-claim-churn "$bus_address" 20 wait >"$dir/churn.out"
  tried=$((tried + 20))
  served=$((served + 20 - $(awk '/^errors/ {print $2}' "$dir/churn.out")))
done
echo "claim flood (240 connections x 8 calls waiting):"
echo "  another user's claims from new connections: $served of $tried served"
echo "  nobody's calls answered: $(awk '/^calls/ {print $2}' "$dir/claims.out") in $seconds s, refused $(awk '/^refused/ {print $2}' "$dir/claims.out")"
stop_orientd
stop_bus

for policy in shipped open; do
  if [ "$policy" = shipped ]; then start_bus "$PWD/dbus/orientd-sensorproxy.conf"; else start_bus "$PWD/Tests/Fixtures/attack-policy.conf"; fi
  start_bus_orientd "signals-$policy"
  # Signals of 32 MiB from nobody for the attack's length, while root calls Get every 100 ms.
  (
    end=$(($(date +%s) + seconds))
    while [ "$(date +%s)" -lt "$end" ]; do
      $as_nobody "$bin/orientd-testbench" attack bus-big-signals "$bus_address" $((32 * 1024 * 1024 - 4096)) 8 >/dev/null 2>&1 || true
    done
  ) &
  pids="$pids $!"
  "$bin/orientd-testbench" attack bus-call-latency "$bus_address" $((seconds * 10)) 100 >"$dir/calls.out"
  echo "32 MiB signals to orientd, $policy policy: root's Get p50 $(awk '/^p50_ms/ {print $2}' "$dir/calls.out") ms, p99 $(awk '/^p99_ms/ {print $2}' "$dir/calls.out") ms, max $(awk '/^max_ms/ {print $2}' "$dir/calls.out") ms, errors $(awk '/^errors/ {print $2}' "$dir/calls.out"); orientd peak VmHWM $(awk '/^VmHWM/ {printf "%.1f MB", $2/1024}' "/proc/$orientd/status")"
  wait $! 2>/dev/null || true
  stop_orientd
  stop_bus
done

# The demand churned: one nobody client flips its subscription in laptop mode, as fast as it
# can, on a fake accelerometer whose sampling_frequency orientd raises while it samples.
cat >"$dir/accel.umockdev" <<'DEVICE'
P: /devices/platform/accel/iio:device0
N: iio:device0
E: SUBSYSTEM=iio
A: name=accel_3d\n
A: in_accel_x_raw=0\n
A: in_accel_y_raw=-256\n
A: in_accel_z_raw=0\n
A: in_accel_scale=0.038307\n
A: sampling_frequency=5\n
A: sampling_frequency_available=1 5 20 50\n
DEVICE
cat >"$dir/writes.py" <<'WATCH'
# Counts the writes to sampling_frequency until killed, then prints `writes N`. Opens are
# watched too: the kernel merges identical events waiting unread.
import ctypes, os, select, signal, struct, sys
libc = ctypes.CDLL("libc.so.6", use_errno=True)
fd = libc.inotify_init1(os.O_NONBLOCK)
libc.inotify_add_watch(fd, sys.argv[1].encode(), 0x20 | 0x8 | 0x80)
count = 0
def done(*_):
    print("writes", count, flush=True)
    sys.exit(0)
signal.signal(signal.SIGTERM, done)
while True:
    select.select([fd], [], [])
    data = os.read(fd, 65536)
    offset = 0
    while offset < len(data):
        _, mask, _, length = struct.unpack_from("iIII", data, offset)
        name = data[offset + 16:offset + 16 + length].rstrip(b"\0")
        if mask & 0x88 and name == b"sampling_frequency":
            count += 1
        offset += 16 + length
WATCH
cat >"$dir/churn.sh" <<CHURN
#!/bin/sh
"$orientd_binary" --mode poll --config "$dir/empty.conf" --socket "$dir/churn.sock" --state "$dir/churn.state" 2>"$dir/churn.log" &
daemon=\$!
while ! grep -q "info: orientation" "$dir/churn.log"; do sleep 0.05; done
"$bin/orientctl" --socket "$dir/churn.sock" mode laptop >/dev/null
while ! grep -q "sampling stops" "$dir/churn.log"; do sleep 0.05; done
# Stopped, the sampling thread puts the driver's rate back.
until grep -q '^5' "\$UMOCKDEV_DIR/sys/devices/platform/accel/iio:device0/sampling_frequency"; do sleep 0.05; done
python3 "$dir/writes.py" "\$UMOCKDEV_DIR/sys/devices/platform/accel/iio:device0" >"$dir/writes.out" &
watcher=\$!
lines=\$(wc -l <"$dir/churn.log")
$as_nobody "$bin/orientd-testbench" attack control-flood "$dir/churn.sock" 1 "$seconds" "subscribe device|subscribe mode" >"$dir/churn.out"
kill -TERM \$watcher
wait \$watcher
echo \$((\$(wc -l <"$dir/churn.log") - lines)) >"$dir/churn.lines"
kill \$daemon
wait \$daemon
CHURN
chmod +x "$dir/churn.sh"
umockdev-run --device "$dir/accel.umockdev" -- "$dir/churn.sh"
flips=$(awk '/^replies/ {print $2}' "$dir/churn.out")
echo "subscription flipped $flips times in $seconds s by one client in laptop mode:"
echo "  sampling_frequency writes: $(awk '/^writes/ {print $2}' "$dir/writes.out"), log lines: $(cat "$dir/churn.lines")"

# The mode flipped by 32 connections: the hooks and the log meanwhile; then root's lock and
# unlock, every 500 ms (within root's own four saves a second), quiet and under the flood.
: >"$dir/hooks"
start_orientd modes $may_control --hook "echo run >> $dir/hooks"
$as_nobody "$bin/orientd-testbench" attack control-flood "$dir/modes.sock" 32 "$seconds" "mode tablet|mode laptop" >"$dir/modes.out"
echo "mode flood (32 connections): $(awk '/^replies/ {print $2}' "$dir/modes.out") modes set in $seconds s"
echo "  hook runs: $(wc -l <"$dir/hooks"), 'set by a client' lines: $(grep -c "set by a client" "$dir/modes.log")"
"$bin/orientd-testbench" attack ping-latency "$dir/modes.sock" $((seconds * 2)) 500 "lock left-up|unlock" >"$dir/lock.out"
echo "  root's lock/unlock, quiet: p50 $(awk '/^p50_ms/ {print $2}' "$dir/lock.out") ms, p99 $(awk '/^p99_ms/ {print $2}' "$dir/lock.out") ms, max $(awk '/^max_ms/ {print $2}' "$dir/lock.out") ms"
$as_nobody "$bin/orientd-testbench" attack control-flood "$dir/modes.sock" 32 "$seconds" "mode tablet|mode laptop" >"$dir/modes.out" &
flood=$!
pids="$pids $flood"
"$bin/orientd-testbench" attack ping-latency "$dir/modes.sock" $((seconds * 2 - 1)) 500 "lock left-up|unlock" >"$dir/lock.out"
wait "$flood" || true
echo "  root's lock/unlock, under the flood: p50 $(awk '/^p50_ms/ {print $2}' "$dir/lock.out") ms, p99 $(awk '/^p99_ms/ {print $2}' "$dir/lock.out") ms, max $(awk '/^max_ms/ {print $2}' "$dir/lock.out") ms"
stop_orientd
