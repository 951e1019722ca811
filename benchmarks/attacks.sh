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
start_orientd flood
unset NOTIFY_SOCKET WATCHDOG_USEC
$as_nobody "$bin/orientd-testbench" attack control-flood "$dir/flood.sock" 32 "$seconds" "rotate cw" >"$dir/flood.out" &
pids="$pids $!"
ping_under flood
wait "$gap" || true
echo "  control commands served: $(awk '/^replies/ {print $2}' "$dir/flood.out") in $seconds s by 32 connections"
echo "  longest watchdog gap (notify every 100 ms): $(awk '/^longest_gap_ms/ {print $2}' "$dir/gap") ms"
stop_orientd

start_orientd closing
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
