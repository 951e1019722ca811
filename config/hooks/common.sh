# Shared by the orientd example hooks: logging, finding the built-in panel, and running a
# compositor's tool quietly.

orientd_log() {
  echo "orientd hook: $*" >&2
}

# Prints the first output name that looks like a built-in panel (eDP, LVDS, DSI), reading
# one name per line on stdin. ORIENTD_OUTPUT overrides the search.
orientd_pick_panel() {
  if [ -n "${ORIENTD_OUTPUT:-}" ]; then
    echo "$ORIENTD_OUTPUT"
    return 0
  fi
  grep -E -m 1 '^(eDP|LVDS|DSI)' || return 1
}

# Exits 127, naming TOOL, when TOOL is not installed: better than a hook that fails later
# with a message about something else.
orientd_need() {
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || {
      orientd_log "$tool is not installed or not on PATH ($PATH)"
      exit 127
    }
  done
}

# Runs a command, keeping what it prints: nothing reaches the log when it succeeds (the
# tools print their replies and dumps on every run); when it fails, its output and the
# command go to stderr and the hook exits with its status.
orientd_quiet() {
  orientd_status=0
  orientd_output=$("$@" 2>&1) || orientd_status=$?
  if [ "$orientd_status" -ne 0 ]; then
    [ -z "$orientd_output" ] || printf '%s\n' "$orientd_output" >&2
    orientd_log "$* failed with exit status $orientd_status"
    exit "$orientd_status"
  fi
}

# Exits when the run is for a rotation suggested to the locked screen (ORIENTD_EVENT): the
# screen has not turned, so a hook that rotates the display has nothing to do.
orientd_skip_suggestion() {
  if [ "${ORIENTD_EVENT:-}" = suggestion ]; then exit 0; fi
}
