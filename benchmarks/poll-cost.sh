#!/bin/bash
# What one poll of a still device costs orientd, in figures that do not depend on the machine's
# noise, beside the C loop of benchmarks/poll-floor.c (the same wait, fstats and preads):
#
#   benchmarks/poll-cost.sh                  (about a minute; needs valgrind and umockdev)
#   ORIENTD_BIN=DIR benchmarks/poll-cost.sh  the same with the binaries in DIR
#
# - user instructions per poll: callgrind counts every instruction orientd runs outside the
#   kernel over 10 s of polls at 100 ms once it is started (its counts zeroed first), divided by
#   the polls made (calls of the attribute reader; for the C loop, its preads over three);
# - instructions per change on orientd's main thread (it publishes a change): orientd at its
#   default settle, turned between normal and left-up once a second for 20 s under callgrind;
# - pages touched per poll: orientd and the C loop poll every 700 ms; each round the pages'
#   referenced bits are cleared (/proc/PID/clear_refs) and, 1.4 s (two polls) later, smaps
#   says how many of the executable's pages and of the anonymous ones (heap, stacks) were used
#   again. The median of 8 rounds is printed. Shared libraries are left out: their pages'
#   referenced flags are set by every process that uses them.
# Every wake-up first pays for the pages and cache lines it touches (after 700 ms asleep little
# of a process is still cached), so pages are counted beside instructions.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in umockdev-run valgrind callgrind_control cc; do
  command -v "$tool" >/dev/null || { echo "poll-cost: $tool is missing (apt-get install umockdev valgrind gcc)" >&2; exit 69; }
done
bench=poll-cost
. benchmarks/common.sh
release_binaries
work=$(mktemp -d /tmp/orientd-poll-cost.XXXXXX)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/poll-floor" benchmarks/poll-floor.c
cp benchmarks/accel.umockdev "$work/"

cat >"$work/inside.sh" <<INSIDE
#!/bin/bash
set -u
raw="\$UMOCKDEV_DIR/sys/devices/platform/accel/iio:device0/in_accel"
files="\${raw}_x_raw \${raw}_y_raw \${raw}_z_raw"
await() { for _ in \$(seq 600); do grep -q "\$2" "\$1" 2>/dev/null && return 0; sleep 0.1; done; echo "poll-cost: no '\$2' in \$1" >&2; return 1; }
# Prints "instructions calls" of the callgrind dump \$1 for calls of functions matching \$2.
count() {
  awk -v pattern="\$2" '/^(summary|totals):/ { total = \$2 } /^cfn=/ { pending = index(\$0, pattern) > 0 }
    /^calls=/ && pending { split(\$0, field, /[= ]/); calls += field[2]; pending = 0 }
    END { print total + 0, calls + 0 }' "\$1"
}
# Callgrind over 10 s of steady polls of the command after \$1 (a name); \$2 names what marks a poll.
instructions() {
  local name=\$1 marker=\$2 pid client=""
  shift 2
  valgrind --tool=callgrind --callgrind-out-file="$work/\$name.cg" --dump-instr=no --compress-strings=no "\$@" \
    >"$work/\$name.out" 2>"$work/\$name.log" &
  pid=\$!
  if [ "\$name" = orientd ]; then
    await "$work/\$name.log" "sensor online"
    "$bin/orientctl" --socket "$work/ir.sock" monitor >/dev/null 2>&1 &
    client=\$!
    await "$work/\$name.log" "device normal"
  fi
  sleep 2
  callgrind_control -z \$pid >/dev/null 2>&1
  sleep 10
  callgrind_control -d \$pid >/dev/null 2>&1
  kill \$pid; wait \$pid 2>/dev/null
  [ -n "\$client" ] && kill \$client 2>/dev/null
  count "\$(ls "$work/\$name.cg".* | head -1)" "\$marker"
}
read -r total polls < <(instructions orientd DirectAttributeReaderC4read "$bin/orientd" --socket "$work/ir.sock" \
  --state "$work/ir.state" --config /dev/null --mode poll --interval 100 --settle 0)
echo "orientd \$((total / polls)) \$polls" >"$work/instructions"
read -r total preads < <(instructions floor pread "$work/poll-floor" --fstat 100 \$files)
echo "floor \$((total * 3 / preads)) \$((preads / 3))" >>"$work/instructions"

# A change, on the main thread (what publishes it): orientd at its default settle, polling every
# 700 ms, turned between normal and left-up once a second for 20 s under callgrind.
device="\$UMOCKDEV_DIR/sys/devices/platform/accel/iio:device0"
set_raw() { echo "\$2" >"\$UMOCKDEV_DIR/.new" && mv "\$UMOCKDEV_DIR/.new" "\$device/\$1"; }
valgrind --tool=callgrind --callgrind-out-file="$work/turn.cg" --separate-threads=yes --dump-instr=no \
  --compress-strings=no "$bin/orientd" --socket "$work/turn.sock" --state "$work/turn.state" --config /dev/null \
  --mode poll --interval 700 >/dev/null 2>"$work/turn.log" &
daemon=\$!
await "$work/turn.log" "sensor online"
"$bin/orientctl" --socket "$work/turn.sock" monitor >"$work/turn.events" 2>&1 &
client=\$!
await "$work/turn.log" "device normal"
sleep 2
callgrind_control -z \$daemon >/dev/null 2>&1
: >"$work/turn.events"
for turn in \$(seq 10); do
  set_raw in_accel_y_raw 0; set_raw in_accel_x_raw 256; sleep 1
  set_raw in_accel_x_raw 0; set_raw in_accel_y_raw -256; sleep 1
done
sleep 1
callgrind_control -d \$daemon >/dev/null 2>&1
kill \$daemon \$client; wait \$daemon 2>/dev/null
read -r total _ < <(count "\$(ls "$work"/turn.cg.*-01 | head -1)" none)
changes=\$(grep -c '^orientation' "$work/turn.events")
echo "\$((total / changes)) \$changes" >"$work/change"

# Pages touched: both poll every 700 ms at once.
"$bin/orientd" --socket "$work/pages.sock" --state "$work/pages.state" --config /dev/null --mode poll \
  --interval 700 --settle 0 2>"$work/pages.log" &
daemon=\$!
await "$work/pages.log" "sensor online"
"$bin/orientctl" --socket "$work/pages.sock" monitor >/dev/null 2>&1 &
client=\$!
"$work/poll-floor" --fstat 700 \$files &
floor=\$!
await "$work/pages.log" "device normal"
sleep 2
# The executable's and the anonymous pages of process \$1 referenced since its bits were cleared, in kB.
referenced() {
  awk -v exe="\$(readlink /proc/\$1/exe)" '/^[0-9a-f]+-[0-9a-f]+ / { kind = \$6 == exe ? "exe" : (\$6 == "" || \$6 ~ /^\[(heap|stack)\]/) ? "anon" : "" }
    /^Referenced:/ && kind != "" { sum[kind] += \$2 } END { print sum["exe"] + 0, sum["anon"] + 0 }' /proc/\$1/smaps
}
for round in \$(seq 8); do
  echo 1 >/proc/\$daemon/clear_refs; echo 1 >/proc/\$floor/clear_refs
  sleep 1.4
  echo "orientd \$(referenced \$daemon)" >>"$work/pages"
  echo "floor \$(referenced \$floor)" >>"$work/pages"
done
kill \$daemon \$client \$floor; wait 2>/dev/null

INSIDE
chmod +x "$work/inside.sh"
umockdev-run --device "$work/accel.umockdev" -- "$work/inside.sh"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "one poll of a still device, $(date +%F), $(nproc) cores (benchmarks/poll-cost.sh)"
printf '%-34s %14s %8s %16s %16s\n' "" "instructions" "polls" "executable kB" "anonymous kB"
for who in orientd floor; do
  read -r _ per polls < <(grep "^$who " "$work/instructions")
  exe=$(awk -v w="$who" '$1 == w { print $2 }' "$work/pages" | median)
  anon=$(awk -v w="$who" '$1 == w { print $3 }' "$work/pages" | median)
  name=$([ "$who" = orientd ] && echo "orientd (poll, 700 ms / 100 ms)" || echo "C loop with fstat (poll-floor.c)")
  printf '%-34s %14s %8s %16s %16s\n' "$name" "$per" "$polls" "$exe" "$anon"
done
echo "(instructions: user space, per poll at 100 ms under callgrind; kB: pages used again within two"
echo " polls at 700 ms, median of 8 rounds)"
read -r per changes <"$work/change"
echo "a change: $per instructions on orientd's main thread (over $changes changes, one subscriber)"
