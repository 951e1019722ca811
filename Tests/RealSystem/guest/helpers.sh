# Helpers of the real-system stage's guest scripts (sourced by scenarios). They expect
# $stage, $work, $tap and $socket, and the variables of /realsystem/config.

scenario_count=0

# scenario NAME FUNCTION: runs FUNCTION in a subshell with `set -e` and records the outcome.
scenario() {
  local name=$1 function=$2 start status elapsed
  scenario_count=$((scenario_count + 1))
  start=$(date +%s.%N)
  echo "realsystem: scenario $name"
  (
    set -e
    "$function"
  ) >"$work/$name.log" 2>&1
  status=$?
  elapsed=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  if [ "$status" = 0 ]; then
    printf 'ok %d - %s (%.1f s)\n' "$scenario_count" "$name" "$elapsed" | tee -a "$tap"
  else
    printf 'not ok %d - %s (%.1f s)\n' "$scenario_count" "$name" "$elapsed" | tee -a "$tap"
    {
      sed 's/^/#   /' "$work/$name.log"
      echo "#   --- journalctl -u orientd (last 30 lines)"
      journalctl -u orientd.service -b --no-pager -n 30 | sed 's/^/#   /'
    } >>"$tap"
  fi
}

# step NAME FUNCTION [NEEDS...]: the run's next scenario, and those it needs to have run
# before it (what they leave behind: the package installed, a hub, orientd running).
# run_steps runs them in order: all of them, or with $ONLY those whose names match it and
# those they need, however indirectly.
steps=()
declare -A step_function step_needs
step() {
  steps+=("$1")
  step_function[$1]=$2
  step_needs[$1]="${*:3}"
}

run_steps() {
  local i name need
  local -A selected
  for ((i = ${#steps[@]} - 1; i >= 0; i--)); do
    name=${steps[i]}
    if [ -z "${ONLY:-}" ] || [[ $name =~ $ONLY ]] || [ -n "${selected[$name]:-}" ]; then
      selected[$name]=1
      for need in ${step_needs[$name]}; do
        [ -n "${step_function[$need]:-}" ] || fail "$name needs $need, which is no scenario"
        selected[$need]=1
      done
    fi
  done
  for name in "${steps[@]}"; do
    if [ -n "${selected[$name]:-}" ]; then scenario "$name" "${step_function[$name]}"; fi
  done
}

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

expect_equal() {
  [ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"
}

# pause SECONDS: bash's own sleep (a read that times out on a FIFO nobody writes): under TCG
# a `sleep` process costs 0.1-0.2 s, which a wait's every look paid.
mkfifo "$work/pause.fifo" 2>/dev/null || true
exec {pause_fd}<>"$work/pause.fifo"
pause() { read -rt "$1" -u "$pause_fd" || true; }

# wait_until SECONDS DESCRIPTION COMMAND...: until COMMAND succeeds, checked every 50 ms. It
# runs no program itself (bash's clock and pause).
wait_until() {
  local seconds=$1 description=$2 deadline
  shift 2
  : >"$work/attribute.last"
  deadline=$((EPOCHSECONDS + seconds))
  until "$@"; do
    [ "$EPOCHSECONDS" -lt "$deadline" ] ||
      fail "$description: not within ${seconds}s$(sed 's/^/; /' "$work/attribute.last")"
    pause 0.05
  done
}

# The lines file of a client (client NAME) or of monitor-sensor (monitor).
lines_of() { echo "$work/$1.lines"; }

# next_line NAME: the number of the line NAME's client gets next.
next_line() { echo $(($(wc -l <"$(lines_of "$1")") + 1)); }

has_line() { tail -n "+$3" "$1" | grep -qE "$2"; }

# wait_line NAME REGEX SECONDS DESCRIPTION [FROM]: until a line from line FROM on matches.
wait_line() {
  local file
  file=$(lines_of "$1")
  if ! (wait_until "$3" "$4" has_line "$file" "$2" "${5:-1}") 2>/dev/null; then
    echo "--- $file:"
    cat "$file"
    fail "$4: no line matching '$2' within $3 s"
  fi
}

expect_line() {
  grep -qE "$2" "$(lines_of "$1")" || fail "$3: no line matching '$2' in $(cat "$(lines_of "$1")")"
}

# client NAME: a socket client that only listens, its lines in $work/NAME.lines.
client() {
  socat -u "UNIX-CONNECT:$socket" STDOUT >"$(lines_of "$1")" 2>"$work/$1.err" &
  echo $! >"$work/$1.pid"
}

stop_client() {
  kill "$(cat "$work/$1.pid")" 2>/dev/null || true
  wait "$(cat "$work/$1.pid")" 2>/dev/null || true
}

# monitor-sensor as an unprivileged user (nobody) on the system bus.
monitor_start() { monitor_as monitor nobody nogroup; }

# monitor_as NAME USER GROUP: monitor-sensor run as USER, its lines in NAME.lines. It claims
# the compass only as the user geoclue (it checks its user name), as the bus policy lets no
# one else use the compass object.
monitor_as() {
  setpriv --reuid="$2" --regid="$3" --clear-groups stdbuf -oL monitor-sensor \
    >"$(lines_of "$1")" 2>&1 &
  echo $! >"$work/$1.pid"
}

monitor_stop() { stop_client monitor; }

# attribute_is FILE VALUE: whether FILE reads VALUE (what it read stays in $work/attribute).
attribute_is() {
  cat "$1" >"$work/attribute" 2>&1
  [ "$(cat "$work/attribute")" = "$2" ] || {
    echo "$1 reads $(cat "$work/attribute")" >"$work/attribute.last"
    return 1
  }
}

service_active() { [ "$(systemctl is-active orientd.service)" = active ]; }

new_main_pid() {
  local pid
  pid=$(systemctl show -P MainPID orientd.service)
  [ "$pid" != 0 ] && [ "$pid" != "$1" ]
}

# --- The uhid sensor hubs ------------------------------------------------------------------

hub_product() {
  case "$1" in
  display) echo 0x0A11 ;;
  base) echo 0xBA5E ;;
  sensors) echo 0x5E45 ;;
  hinge) echo 0x1A6E ;;
  *) fail "no hub $1" ;;
  esac
}

# hub_device NAME: the IIO device of hub NAME (found by its HID product id), if bound.
hub_device() {
  local product device
  product=$(printf '%04X' "$(hub_product "$1")")
  for device in /sys/bus/iio/devices/iio:device*; do
    [ -e "$device" ] || continue
    case "$(readlink -f "$device")" in
    */0006:1D6B:$product.*) echo "$device" && return 0 ;;
    esac
  done
  return 1
}

hub_bound() { hub_device "$1" >/dev/null; }
hub_gone() { ! hub_device "$1" >/dev/null; }

# hub_start NAME [X Y Z]: a sensor hub through /dev/uhid, values in milli-g; returns once
# the kernel made its IIO device and udev processed it. With HUB_ON_CHANGE=accel its
# accelerometer reports only moves of at least its change sensitivity (the hub's
# --on-change); without, at every interval whatever its sensitivity.
hub_start() {
  local name=$1
  shift
  device_launch hub "$name" "$stage/uhid-sensor-hub" --product "$(hub_product "$name")" --uniq "$name" \
    --name "orientd-realsystem $name hub" --reports "$work/hub-$name.reports" \
    --initial "${1:-0}" "${2:--1000}" "${3:-0}" ${HUB_ON_CHANGE:+--on-change "$HUB_ON_CHANGE"}
  wait_until 60 "the $name hub's IIO device" hub_bound "$name"
  udevadm settle --timeout=60
}

hub_set() { echo "set $2 $3 $4" >"$work/hub-$1.ctl"; }

hub_stop() { device_stop hub "$1" "the $1 hub's IIO device gone" hub_gone "$1"; }

# device_launch KIND NAME COMMAND...: runs a test device's COMMAND in the background with its
# control FIFO (--control $work/KIND-NAME.ctl), its stderr in KIND-NAME.err and its pid in
# KIND-NAME.pid.
device_launch() {
  local id="$1-$2" fifo
  shift 2
  fifo="$work/$id.ctl"
  [ -p "$fifo" ] || mkfifo "$fifo"
  "$@" --control "$fifo" 2>>"$work/$id.err" &
  echo $! >"$work/$id.pid"
}

# device_stop KIND NAME WHAT CHECK ARG: tells the device to quit, waits for its process, then
# until CHECK ARG succeeds (WHAT names that in a failure).
device_stop() {
  echo quit >"$work/$1-$2.ctl"
  wait "$(cat "$work/$1-$2.pid")" 2>/dev/null || true
  wait_until 60 "$3" "$4" "$5"
}

# --- The sensors hub: light, presence and compass beside an accelerometer -------------------

# hub_iio NAME IIONAME: the IIO device of hub NAME that the kernel named IIONAME (accel_3d,
# als, prox, magn_3d). Globs and bash's own reads: it runs no program.
hub_iio() {
  local product device name
  product=$(printf '%04X' "$(hub_product "$1")")
  for device in /sys/devices/virtual/misc/uhid/0006:1D6B:"$product".*/HID-SENSOR-*/iio:device*; do
    [ -e "$device/name" ] || continue
    read -r name <"$device/name"
    if [ "$name" = "$2" ]; then
      echo "/sys/bus/iio/devices/${device##*/}"
      return 0
    fi
  done
  return 1
}

sensors_hub_bound() {
  local iio
  for iio in accel_3d als prox magn_3d; do hub_iio sensors "$iio" >/dev/null || return 1; done
}

# sensors_hub_start: one uhid hub with an accelerometer, an ambient light sensor (350.5 lux),
# a human presence sensor (nobody there) and a compass (heading 90); the three report only
# when their values move, as a laptop's hub does. Returns once the kernel made the four IIO
# devices and udev processed them.
sensors_hub_start() {
  device_launch hub sensors "$stage/uhid-sensor-hub" --product "$(hub_product sensors)" --uniq sensors \
    --name "orientd-realsystem sensors hub" --reports "$work/hub-sensors.reports" \
    --sensors accel,light,presence,compass --on-change light,presence,compass \
    --light 350.5 --presence 0 --heading 90
  wait_until 60 "the sensors hub's four IIO devices" sensors_hub_bound
  udevadm settle --timeout=60
}

# The value sensors of the sensors hub: the hub's name for each, and the kernel's.
value_sensors="light:als presence:prox compass:magn_3d"

# hub_mark NAME: where hub NAME's log of what the kernel did to it ends now (a line number).
hub_mark() { echo $(($(wc -l <"$work/hub-$1.err") + 1)); }

# hub_reads NAME SENSOR... FROM: how many times the kernel asked hub NAME for each SENSOR's
# input report (a `_raw` read) from line FROM of its log on, in one line (`0 0 0`). It runs no
# program.
hub_reads() {
  local name=$1 from=${*: -1} sensor line count counts=()
  local -a lines
  mapfile -t -s $((from - 1)) lines <"$work/hub-$name.err"
  for sensor in "${@:2:$#-2}"; do
    count=0
    for line in "${lines[@]}"; do
      if [[ $line == *"GET_REPORT "*" ($sensor input)" ]]; then count=$((count + 1)); fi
    done
    counts+=("$count")
  done
  echo "${counts[*]}"
}

# hub_power_ups NAME SENSOR... FROM: how many times each SENSOR of hub NAME was turned on from
# line FROM of its log on, in one line. It runs no program.
hub_power_ups() {
  local name=$1 from=${*: -1} sensor line count counts=()
  local -a lines
  mapfile -t -s $((from - 1)) lines <"$work/hub-$name.err"
  for sensor in "${@:2:$#-2}"; do
    count=0
    for line in "${lines[@]}"; do
      if [[ $line == *" $sensor: power "*": on" ]]; then count=$((count + 1)); fi
    done
    counts+=("$count")
  done
  echo "${counts[*]}"
}

# hub_reports_mark NAME: where hub NAME's log of input reports ends now (a line number).
hub_reports_mark() { echo $(($(wc -l <"$work/hub-$1.reports") + 1)); }

# hub_reports_from NAME FROM: how many input reports hub NAME logged from line FROM of its log
# on. No process.
hub_reports_from() {
  local -a lines
  mapfile -t -s $(($2 - 1)) lines <"$work/hub-$1.reports"
  echo "${#lines[@]}"
}

# hub_reports_within NAME FROM SECONDS: how many reports hub NAME sent in the first SECONDS
# of its own clock after the first report from line FROM on, once its log reaches past them
# (fails until then). By the hub's own timestamps: not by how long the guest took to look.
hub_reports_within() {
  local -a lines
  mapfile -t -s $(($2 - 1)) lines <"$work/hub-$1.reports"
  [ "${#lines[@]}" -gt 0 ] || return 1
  printf '%s\n' "${lines[@]}" | awk -v span="$3" 'NR == 1 { start = $1 }
    $1 - start < span { n++ } $1 - start >= span { past = 1 } END { if (!past) exit 1; print n }'
}

# hub_reports_span NAME FROM SECONDS: whether hub NAME's log from line FROM on spans SECONDS of
# its clock yet (quiet, for wait_until).
hub_reports_span() { hub_reports_within "$@" >/dev/null; }

# hub_err_from NAME FROM REGEX: the number of the first line of hub NAME's stderr log from
# line FROM on that matches REGEX (extended); fails when none does. No process.
hub_err_from() {
  local i
  local -a lines
  mapfile -t -s $(($2 - 1)) lines <"$work/hub-$1.err"
  for ((i = 0; i < ${#lines[@]}; i++)); do
    if [[ ${lines[i]} =~ $3 ]]; then
      echo $(($2 + i))
      return 0
    fi
  done
  return 1
}

# hub_err_seen NAME FROM REGEX: whether hub_err_from finds a line (quiet, for wait_until).
hub_err_seen() { hub_err_from "$@" >/dev/null; }

# note TEXT: TEXT in the scenario's log with the time (bash's own clock: no process).
note() { echo "[${EPOCHREALTIME}] $*"; }

# lines_match SPEC...: whether, for each SPEC `NAME FROM REGEX`, one of NAME's lines from line
# FROM on matches REGEX (extended). Bash's own reading and matching: no process per look.
lines_match() {
  local spec name from regex line found
  local -a lines
  for spec in "$@"; do
    read -r name from regex <<<"$spec"
    mapfile -t -s $((from - 1)) lines <"$work/$name.lines"
    found=no
    for line in "${lines[@]}"; do
      if [[ $line =~ $regex ]]; then
        found=yes
        break
      fi
    done
    if [ "$found" = no ]; then
      echo "$name: no line matching '$regex' from line $from" >"$work/attribute.last"
      return 1
    fi
  done
}

# wait_lines DESCRIPTION SPEC...: until lines_match SPEC...; on failure, the lines files.
wait_lines() {
  local description=$1 spec name
  shift
  if ! (wait_until 60 "$description" lines_match "$@"); then
    for spec in "$@"; do echo "${spec%% *}"; done | sort -u | while read -r name; do
      echo "--- $(lines_of "$name"):"
      cat "$(lines_of "$name")"
    done
    fail "$description"
  fi
}

# accel_reports_since NAME FROM N: whether hub NAME logged at least N accelerometer reports
# (sent or asked for) from line FROM of its reports on. No process per look.
accel_reports_since() {
  local line count=0
  local -a lines
  mapfile -t -s $(($2 - 1)) lines <"$work/hub-$1.reports"
  for line in "${lines[@]}"; do
    if [[ $line =~ ^[0-9.]+\ [a-z]+\ -?[0-9]+\  ]]; then count=$((count + 1)); fi
  done
  [ "$count" -ge "$3" ]
}

# hub_sensors_are NAME on|off SENSOR...: whether each SENSOR of hub NAME reports now (powered
# and reporting: on), as the hub last said (off before it said anything). No process per look.
hub_sensors_are() {
  local name=$1 want=$2 sensor i state
  local -a lines
  shift 2
  mapfile -t lines <"$work/hub-$name.err"
  for sensor in "$@"; do
    state=off
    for ((i = ${#lines[@]} - 1; i >= 0; i--)); do
      if [[ ${lines[i]} == *" $sensor: power "* ]]; then
        state=${lines[i]##*: }
        break
      fi
    done
    if [ "$state" != "$want" ]; then
      echo "$sensor is $state" >"$work/attribute.last"
      return 1
    fi
  done
}

# subscriber NAME LINE: a socket client that sends LINE (`subscribe light,proximity,heading`)
# and then only listens, its lines in NAME.lines (and, timed, in NAME.timed).
subscriber() {
  : >"$(lines_of "$1")"
  "$stage/timed-lines" --plain "$(lines_of "$1")" --socket "$socket" --send "$2" >"$work/$1.timed" &
  echo $! >"$work/$1.pid"
}

# orientd_journal: what the running orientd logged (this invocation of its unit only).
orientd_journal() {
  journalctl -b --no-pager -o cat _SYSTEMD_INVOCATION_ID="$(systemctl show -P InvocationID orientd.service)"
}

orientd_logged() { orientd_journal | grep -qE "$1"; }

# reading_drivers buffer|poll: whether the running orientd reads the hub's light, proximity
# and compass that way (its last word on each).
reading_drivers() {
  local journal iio
  journal=$(orientd_journal)
  for iio in als prox magn_3d; do
    grep -E "(^|: )reading the .* iio:device[0-9]+ \($iio\): " <<<"$journal" | tail -n 1 | grep -q "): $1 " || return 1
  done
}

# bus_owner: the command name of the process that owns net.hadess.SensorProxy (the kernel's
# 15 characters: iio-sensor-prox), or nothing.
bus_owner() { busctl --system status net.hadess.SensorProxy 2>/dev/null | sed -n 's/^Comm=//p'; }
bus_owner_is() { [ "$(bus_owner)" = "$1" ]; }

# geoclue_user: the system user geoclue, which monitor-sensor and the bus policy single out for
# the compass. The guest's root is an overlay on a tmpfs: the user lives and dies with it. The
# bus resolves the policy's user names when it loads its configuration (it skipped
# `<policy user="geoclue">` as an unknown user until now): it loads it again.
geoclue_user() {
  getent passwd geoclue >/dev/null && return 0
  useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin geoclue
  busctl call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus ReloadConfig
}

# --- The configuration ---------------------------------------------------------------------

# set_config "KEY = VALUE": the line in /etc/orientd/orientd.conf, replacing one for KEY.
set_config() {
  unset_config "${1%% *}"
  echo "$1" >>/etc/orientd/orientd.conf
}

unset_config() { sed -i "/^$1 = /d" /etc/orientd/orientd.conf; }

# rotate_through CLIENT: turns the display hub through the four orientations and face-up
# and face-down, waiting for each device line (and orientation line) on CLIENT.
rotate_through() {
  local step x y z device from screen
  screen=$(orientctl get orientation)
  for step in "1000 0 0 left-up" "0 1000 0 bottom-up" "-1000 0 0 right-up" "0 -1000 0 normal" \
    "0 0 -1000 face-up" "0 0 1000 face-down" "0 -1000 0 normal"; do
    read -r x y z device <<<"$step"
    from=$(next_line "$1")
    hub_set display "$x" "$y" "$z"
    wait_line "$1" "^device $device\$" 60 "device $device" "$from"
    case "$device" in
    face-*)
      expect_equal "$(orientctl get orientation)" normal "the screen while $device"
      ;;
    *)
      [ "$device" = "$screen" ] ||
        wait_line "$1" "^orientation $device\$" 60 "orientation $device" "$from"
      screen=$device
      ;;
    esac
  done
}

# --- The guest as a whole ------------------------------------------------------------------

prepare_guest() {
  # iio-sensor-proxy is installed on the host (the unit suite runs it): here it would take
  # the bus name as soon as a sensor appears. The figures start it on purpose, and
  # upgrade-and-purge unmasks it for the purge to give it back its service.
  systemctl mask --runtime --now iio-sensor-proxy.service >/dev/null 2>&1 || true
  # The guest has no network: apt installs the local package from what the root has, with
  # no package lists to read (reading the host's over 9p takes most of a minute under TCG).
  # The host's dpkg database, copied: the overlay reads its lower layer as it is at each
  # moment, and a package the host installs meanwhile would show through half done.
  mkdir -p /run/realsystem-dpkg
  cp -a /var/lib/dpkg/. /run/realsystem-dpkg/
  mount --bind /run/realsystem-dpkg /var/lib/dpkg
  if [ -n "$(ls -A /var/lib/dpkg/updates)" ]; then
    echo "not ok 0 - the host's dpkg was busy when the guest started: run the stage again" >>"$tap"
  fi
  mount -t tmpfs tmpfs /var/lib/apt/lists
  mkdir -p /var/lib/apt/lists/partial
  rm -f /var/cache/apt/pkgcache.bin /var/cache/apt/srcpkgcache.bin
}

finish() {
  mkdir -p /realsystem/work
  cp "$work"/*.reports "$work"/*.err "$work"/*.timed "$work"/*.lines "$work"/*.log /realsystem/work/ 2>/dev/null || true
  dmesg >/realsystem/dmesg.txt 2>&1 || true
  journalctl -b --no-pager >/realsystem/journal.txt 2>&1 || true
  systemd-analyze blame >/realsystem/blame.txt 2>&1 || true
  echo "$scenario_count" >/realsystem/done
}

# --- uinput switches -----------------------------------------------------------------------

# input_node NAME: the event node of the input device called NAME, if there is one.
input_node() {
  local device
  for device in /sys/class/input/input*; do
    [ "$(cat "$device/name" 2>/dev/null)" = "$1" ] || continue
    for node in "$device"/event*; do
      [ -e "$node" ] && echo "/dev/input/${node##*/}" && return 0
    done
  done
  return 1
}

input_present() { input_node "$1" >/dev/null; }
input_absent() { ! input_node "$1" >/dev/null; }

# switch_start NAME SWITCHES TABLET LID: a switch device through /dev/uinput with SWITCHES
# (tablet, lid or tablet,lid) in the given states; returns once udev processed it.
switch_start() {
  device_launch switch "$1" "$stage/uinput-switch" --name "orientd-realsystem $1" --switches "$2" \
    --tablet "$3" --lid "$4"
  wait_until 60 "the $1 switch's event node" input_present "orientd-realsystem $1"
  udevadm settle --timeout=60
}

switch_send() { echo "$2 $3" >"$work/switch-$1.ctl"; }

switch_stop() { device_stop switch "$1" "the $1 switch gone" input_absent "orientd-realsystem $1"; }

# hinge_regex DEGREES: a hinge line within 3 degrees of DEGREES.
hinge_regex() {
  local d alternatives=""
  for d in $(seq $(($1 - 3)) $(($1 + 3))); do
    alternatives="$alternatives|$(((d + 360) % 360))"
  done
  echo "^hinge (${alternatives#|})\$"
}

# display_at DEGREES: the display hub as a lid opened DEGREES from a base flat on a desk,
# (0, -sin, cos) g in the flat frame of docs/hinge.md.
display_at() {
  local x y z
  read -r y z < <(awk -v a="$1" 'BEGIN { r = a * atan2(0, -1) / 180; printf "%d %d\n", -1000 * sin(r), 1000 * cos(r) }')
  hub_set display 0 "$y" "$z"
}

# line_number NAME REGEX [FROM]: the number of the first line from FROM on that matches.
line_number() {
  awk -v re="$2" -v from="${3:-1}" 'NR >= from && $0 ~ re { print NR; exit }' "$(lines_of "$1")"
}

# The virtual switch's SW_TABLET_MODE as evtest reads it: 1 or 0.
virtual_switch_state() {
  local node status=0
  node=$(input_node "orientd tablet-mode switch") || return 1
  evtest --query "$node" EV_SW SW_TABLET_MODE || status=$?
  case "$status" in
  10) echo 1 ;;
  0) echo 0 ;;
  *) return 1 ;;
  esac
}

virtual_switch_is() { [ "$(virtual_switch_state 2>/dev/null)" = "$1" ]; }

# timed_client NAME: a socket client whose lines carry their arrival time (timed-lines), in
# $work/NAME.timed; its plain lines go to $work/NAME.lines as well.
timed_client() {
  : >"$(lines_of "$1")"
  "$stage/timed-lines" --plain "$(lines_of "$1")" --socket "$socket" >"$work/$1.timed" &
  echo $! >"$work/$1.pid"
}

monotonic_now() { python3 -c 'import time; print("%.6f" % time.clock_gettime(time.CLOCK_MONOTONIC))'; }

# percentile P FILE: the P-th percentile (nearest rank) of the numbers in FILE.
percentile() {
  sort -n "$2" | awk -v p="$1" '{ v[NR] = $1 } END { i = int((p / 100) * NR + 0.999999); if (i < 1) i = 1; print v[i] }'
}

# --- Figures -------------------------------------------------------------------------------

# cpu_ticks PID: user and system time of the whole process, in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# wakeups PID: context switches of all the process's threads (each is a wake-up or a
# preemption), voluntary and not.
wakeups() {
  cat /proc/"$1"/task/*/status | awk '/^(non)?voluntary_ctxt_switches/ { n += $2 } END { print n }'
}

# memory PID: "VmRSS Pss USS" in KiB.
memory() {
  local rss pss uss
  rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$1/status")
  pss=$(awk '/^Pss:/ { print $2 }' "/proc/$1/smaps_rollup")
  uss=$(awk '/^Private_(Clean|Dirty):/ { n += $2 } END { print n }' "/proc/$1/smaps_rollup")
  echo "$rss $pss $uss"
}

# window PID SECONDS: "CPU-percent wake-ups-a-second" over the next SECONDS.
window() {
  local pid=$1 seconds=$2 ticks0 wakes0 ticks1 wakes1 hz
  hz=$(getconf CLK_TCK)
  ticks0=$(cpu_ticks "$pid")
  wakes0=$(wakeups "$pid")
  sleep "$seconds" # the measurement window itself, not a wait for an event
  ticks1=$(cpu_ticks "$pid")
  wakes1=$(wakeups "$pid")
  awk -v t=$((ticks1 - ticks0)) -v w=$((wakes1 - wakes0)) -v s="$seconds" -v hz="$hz" \
    'BEGIN { printf "%.2f%% CPU, %.2f wake-ups/s (%d in %d s)\n", 100 * t / hz / s, w / s, w, s }'
}

# measure_changes NAME TIMED... : turns the display hub left-up and back COUNT times and
# writes, for each timed lines file given as NAME:FILE:REGEX-PREFIX, the latencies.
latency_summary() {
  echo "median $(percentile 50 "$1") ms, p90 $(percentile 90 "$1") ms, n $(wc -l <"$1")"
}

# --- Real I2C accelerometers on i2c-stub -----------------------------------------------------

# i2c_start: i2c-accelerometers (i2c-stub, the three chips preset, their drivers loaded, none
# bound yet), its events in $work/i2c.log; returns once it is ready (i2c_launch and i2c_ready:
# other work may go on meanwhile).
i2c_start() {
  i2c_launch
  i2c_ready
}

i2c_launch() {
  : >"$work/i2c.log"
  device_launch i2c chips "$stage/i2c-accelerometers" --log "$work/i2c.log"
}

i2c_ready() { wait_until 60 "i2c-accelerometers ready" i2c_logged 1 ready; }

# i2c_mark: where the chips' log ends now (a line number).
i2c_mark() {
  local -a lines
  mapfile -t lines <"$work/i2c.log"
  echo $((${#lines[@]} + 1))
}

# i2c_logged FROM WORDS: whether a line from line FROM on is `TIME WORDS` (WORDS a prefix of
# the rest); fails the scenario at an `error` line. Bash's own reading: no process.
i2c_logged() {
  local line
  local -a lines
  mapfile -t -s $(($1 - 1)) lines <"$work/i2c.log"
  for line in "${lines[@]}"; do
    line=${line#* }
    if [[ $line == "$2"* ]]; then return 0; fi
    if [[ $line == error* ]]; then fail "i2c-accelerometers: $line"; fi
  done
  return 1
}

# i2c_alive: whether i2c-accelerometers runs (a write to the FIFO of a helper that is gone
# would block).
i2c_alive() {
  local pid
  [ -e "$work/i2c-chips.pid" ] && read -r pid <"$work/i2c-chips.pid" && kill -0 "$pid" 2>/dev/null
}

# i2c_do COMMAND...: one command to i2c-accelerometers; returns once it is done, fails the
# scenario with its error.
i2c_do() {
  local from
  i2c_alive || fail "i2c-accelerometers does not run: $(tail -n 3 "$work/i2c.log" "$work/i2c-chips.err")"
  from=$(i2c_mark)
  echo "$*" >"$work/i2c-chips.ctl"
  wait_until 60 "i2c-accelerometers: $*" i2c_logged "$from" "done $*"
}

# i2c_fact CHIP KEY: what i2c-accelerometers read of CHIP's IIO device when it was bound last.
i2c_fact() {
  local line value=
  local -a lines
  mapfile -t lines <"$work/i2c.log"
  for line in "${lines[@]}"; do
    line=${line#* }
    if [[ $line == "info $1 $2 "* ]]; then value=${line#"info $1 $2 "}; fi
  done
  echo "$value"
}

# i2c_iio CHIP: the IIO device CHIP was bound as last (iio:deviceN).
i2c_iio() {
  local line value=
  local -a lines
  mapfile -t lines <"$work/i2c.log"
  for line in "${lines[@]}"; do
    line=${line#* }
    if [[ $line == "bound $1 "* ]]; then value=${line#"bound $1 "}; fi
  done
  echo "$value"
}

# i2c_stop: i2c-accelerometers unbinds its chips, unloads what it loaded and ends.
i2c_stop() {
  if i2c_alive; then
    echo quit >"$work/i2c-chips.ctl"
    wait "$(cat "$work/i2c-chips.pid")" 2>/dev/null || true
  fi
  rm -f "$work/i2c-chips.pid"
}

# socket_info: orientd's `info` reply through its socket, one `KEY VALUE` a line.
socket_info() {
  python3 - "$socket" <<'PY'
import socket, sys
client = socket.socket(socket.AF_UNIX)
client.settimeout(60)
client.connect(sys.argv[1])
client.sendall(b"info\n")
seen = False
for line in client.makefile("r"):
    line = line.rstrip("\n")
    if line.startswith("info "):
        seen = True
        print(line[5:])
    elif line == "ok" and seen:
        break
PY
}

# line_mark NAME: the number of the line NAME's client gets next (bash's own reading).
line_mark() {
  local -a lines
  mapfile -t lines <"$(lines_of "$1")"
  echo $((${#lines[@]} + 1))
}
