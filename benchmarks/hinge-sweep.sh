#!/bin/bash
# The hinge classification against the threshold table, on two umockdev accelerometers.
#
#   benchmarks/hinge-sweep.sh [STEP]      (default 5 degrees)
#
# Builds the release binaries and runs orientd on a display sensor and a base sensor
# (benchmarks/hinge.umockdev: the base with ACCEL_LOCATION=base and a mount matrix of its own,
# set up as systemd's hwdb asks), polling both every 10 ms. It sets the lid at each angle of a
# sweep 90 -> 0 -> 360 -> 0 in STEP degrees, the base lying flat, waits until both sensors
# were read twice after the change (the raw x's access time, set to 1970 after each write),
# and reads `orientctl get mode` and `get hinge`. Angles under 20 or over 340 count only
# once they held 2 s, so there it waits 2.2 s more. Then a few cases off the sweep.
#
# Each row prints the angle set, the angle the integer raw readings give (what orientd
# sees), orientd's mode and published angle, and the mode the table expects after the rows
# before (docs/hinge.md); the last line counts the rows where they differ.
#
# ORIENTD_BIN names a folder with orientd and orientctl already built, instead of the release
# build.
set -euo pipefail
cd "$(dirname "$0")/.."
step=${1:-5}

command -v umockdev-run >/dev/null || { echo "hinge-sweep: umockdev-run is missing (apt-get install umockdev)" >&2; exit 69; }
bench=hinge-sweep
. benchmarks/common.sh
release_binaries
scratch

# Starts orientd on the two sensors with the lid at $1 degrees from the first reading on;
# with $2 = lid, beside a lid switch (open), in the tests' input testbed.
start() {
  local dx dy dz rest
  read -r dx dy dz rest <<<"$(readings "$1")"
  sed -e "0,/in_accel_x_raw=.*/s//in_accel_x_raw=$dx\\\\n/" -e "0,/in_accel_y_raw=.*/s//in_accel_y_raw=$dy\\\\n/" \
    -e "0,/in_accel_z_raw=.*/s//in_accel_z_raw=$dz\\\\n/" benchmarks/hinge.umockdev >"$work/hinge.umockdev"
  rm -f "$work/pid" "$work/testbed" "$work/done" "$work/socket" "$work/state" "$work/in"
  local orientd=("$bin/orientd" --socket "$work/socket" --state "$work/state" --config /dev/null --interval 10 --settle 50)
  if [ "${2:-}" = lid ]; then
    mkfifo "$work/in"
    /usr/bin/python3 Tests/Fixtures/input-testbed.py Tests/Fixtures --device lid --describe "$work/hinge.umockdev" -- \
      "${orientd[@]}" <"$work/in" 2>"$work/log" &
    wrapper=$!
    exec 4>"$work/in"
    wait_for "$work/log" "testbed: started "
    sed -n 's/^testbed: root //p' "$work/log" >"$work/testbed"
  else
    in_testbed "$work" "$work/hinge.umockdev" "${orientd[@]}"
  fi
  lid="$(cat "$work/testbed")/sys/devices/platform/lid/iio:device0"
  base="$(cat "$work/testbed")/sys/devices/platform/base/iio:device1"
  wait_for "$work/log" "hinge: pairing"
  read_twice
}

stop() {
  if [ -e "$work/in" ]; then
    echo stop >&4
    exec 4>&-
  else
    touch "$work/done"
  fi
  wait "$wrapper" 2>/dev/null || true
  wrapper=""
}

# Closes (1) or opens (0) the lid switch.
lid_switch() {
  echo "switch lid lid $1" >&4
  wait_for "$work/log" "testbed: done switch lid lid $1"
  wait_for "$work/log" "hinge: the lid switch says $([ "$1" = 1 ] && echo closed || echo open)"
}

# The raw readings for the lid at $1 degrees when gravity in the base's flat frame is
# ($2, $3, $4) (default lying flat), its magnitude scaled by $5 on the base (a moving device):
# the display's x y z, the base's x y z, and the angle those integers give.
readings() {
  awk -v a="$1" -v bx="${2:-0}" -v by="${3:-0}" -v bz="${4:--1}" -v s="${5:-1}" 'BEGIN {
    pi = atan2(0, -1); t = (a - 180) * pi / 180
    # The lid: the flat frame turned about the hinge (x) by the opening less 180.
    lx = bx; ly = cos(t) * by - sin(t) * bz; lz = sin(t) * by + cos(t) * bz
    # The base sensor reads the flat frame half a turn about x, through its matrix
    # (0 1 0; 1 0 0; 0 0 -1), its own inverse.
    cx = bx * s; cy = -by * s; cz = -bz * s
    dx = r(lx); dy = r(ly); dz = r(lz); ex = r(cy); ey = r(cx); ez = r(-cz)
    # The angle those integers give: base back in the flat frame, both projected on y-z.
    fy = -ex; fz = ez
    d = 180 + (atan2(dz, dy) - atan2(fz, fy)) * 180 / pi
    while (d < 0) d += 360; while (d >= 360) d -= 360
    printf "%d %d %d %d %d %d %.1f\n", dx, dy, dz, ex, ey, ez, d }
    function r(v) { v = v * 256; return v < 0 ? -int(-v + 0.5) : int(v + 0.5) }'
}

# Writes the readings for set_hinge's arguments (those of `readings`), waits until both
# sensors were read twice, and sets $seen to the angle the readings give.
set_hinge() {
  local values
  values=$(readings "$@")
  read -r dx dy dz ex ey ez seen <<<"$values"
  attribute "$base/in_accel_x_raw" "$ex"; attribute "$base/in_accel_y_raw" "$ey"; attribute "$base/in_accel_z_raw" "$ez"
  attribute "$lid/in_accel_x_raw" "$dx"; attribute "$lid/in_accel_y_raw" "$dy"; attribute "$lid/in_accel_z_raw" "$dz"
  read_twice
}

# Sets attribute file $1 to $2 as umockdev does, through a new file renamed over it: a read
# never sees it empty (which libiio takes for an error).
attribute() {
  printf '%s\n' "$2" >"$1.new"
  mv "$1.new" "$1"
}

# Returns once both sensors' x was read twice since now.
read_twice() {
  local round file
  for round in 1 2; do
    for file in "$lid/in_accel_x_raw" "$base/in_accel_x_raw"; do
      touch -a -d @0 "$file"
      for _ in $(seq 200); do [ "$(stat -c %X "$file")" != 0 ] && break; sleep 0.01; done
    done
  done
}

get() { "$bin/orientctl" --socket "$work/socket" get "$1"; }

# The mode the table expects at angle $1 after mode $2, with $3 the last stable angle; an
# unstable angle (under 20 or over 340) as if it held 2 s. $lid_closed is the lid switch: 1
# closed, 0 open, empty without one.
lid_closed=""
expect() {
  awk -v a="$1" -v m="$2" -v last="$3" -v lid="$lid_closed" 'BEGIN {
    if (lid == "1") print "laptop"
    else if (a >= 20 && a <= 340) {
      if (a >= 200) print "tablet"; else if (a <= 160) print "laptop"
      else if (m == "unknown") print (a < 180 ? "laptop" : "tablet"); else print m
    } else if (lid == "0") print "tablet"
    else if (last == "") print "unknown"; else print (last > 180 ? "tablet" : "laptop") }'
}

mismatches=0
rows=0
mode=unknown
last_stable=""
# One row: sets the lid at $2 (and the base as set_hinge's $3-$6), then prints what orientd
# says under label $1. With ignored=1 the table expects the pair to be ignored (a hinge near
# vertical, a device moving): the mode stays.
ignored=0
row() {
  local label=$1; shift
  set_hinge "$@"
  local unstable
  unstable=$(awk -v a="$seen" -v i="$ignored" 'BEGIN {print (i == 0 && (a < 20 || a > 340)) ? 1 : 0}')
  if [ "$unstable" = 1 ]; then sleep 2.2; read_twice; fi
  local got hinge want
  got=$(get mode)
  hinge=$(get hinge)
  if [ "$ignored" = 1 ]; then want=$mode; else want=$(expect "$seen" "$mode" "$last_stable"); fi
  [ "$unstable" = 0 ] && [ "$ignored" = 0 ] && [ "$lid_closed" != 1 ] && last_stable=$seen
  [ "$want" != unknown ] && mode=$want
  local verdict=ok
  if [ "$got" != "$want" ]; then verdict=DIFFERS; mismatches=$((mismatches + 1)); fi
  rows=$((rows + 1))
  printf '| %s | %s | %s | %s | %s | %s |\n' "$label" "$seen" "$got" "$hinge" "$want" "$verdict"
}

echo "orientd on two umockdev accelerometers (display and base), polled every 10 ms, $(date -u +%Y-%m-%d)"
echo
echo "| lid set to (degrees) | the readings give | orientd's mode | published hinge | the table says | |"
echo "|---|---|---|---|---|---|"
start 90
mode=laptop
last_stable=90
for a in $(seq 90 "-$step" 0) $(seq "$step" "$step" 360) $(seq $((360 - step)) "-$step" 0); do row "$a" "$a"; done
stop

echo
echo "Cases off the sweep, each from a fresh start:"
echo
echo "| case | the readings give | orientd's mode | published hinge | the table says | |"
echo "|---|---|---|---|---|---|"
start 360
mode=unknown
last_stable=""
row "started at 360 (folded back or closed? no history)" 360
stop
start 90
mode=laptop
last_stable=90
ignored=1
row "laptop, then 250 with the hinge near vertical (0.8 g along it): ignored" 250 0.8 0 -0.6
ignored=0
row "then 250 with the base flat" 250
ignored=1
row "then the base reads 1.3 g (moving), lid still at 250: ignored" 250 0 0 -1 1.3
row "moving, lid at 120: ignored" 120 0 0 -1 1.3
ignored=0
row "still again at 120" 120
stop
if /usr/bin/python3 -c 'import gi; gi.require_version("UMockdev", "1.0")' 2>/dev/null; then
  start 360 lid
  wait_for "$work/log" "hinge: the lid switch says open"
  lid_closed=0
  mode=unknown
  last_stable=""
  row "beside a lid switch, open: started at 360 (no history)" 360
  row "then 250" 250
  lid_switch 1
  lid_closed=1
  row "the lid switch closed, the sensors still at 250" 250
  lid_switch 0
  lid_closed=0
  row "open again at 250" 250
  row "then 10, still open" 10
  stop
else
  echo "(the lid switch rows need umockdev's Python bindings: apt-get install python3-gi gir1.2-umockdev-1.0)"
fi
echo
echo "$rows rows, $mismatches where orientd and the table differ"
