# Sourced by the benchmark scripts, from the package's folder, after they set $bench (the
# name their messages start with): the release binaries, a scratch folder, waiting on a log.

# Builds orientd and orientctl for release and sets $bin to their folder. ORIENTD_BIN names a
# folder where both are already built instead.
release_binaries() {
  if [ -n "${ORIENTD_BIN:-}" ]; then
    bin=$ORIENTD_BIN
    return
  fi
  swift build -c release --product orientd >/dev/null
  swift build -c release --product orientctl >/dev/null
  bin=$(swift build -c release --show-bin-path)
}

# Makes $work, a folder under /tmp removed at exit. A script that runs a testbed in the
# background sets $wrapper to its pid: at exit the file $work/done and the end of file
# descriptor 4 (a testbed's stdin, where one is fed) tell it to end, and it is waited for.
scratch() {
  work=$(mktemp -d "/tmp/orientd-$bench.XXXXXX")
  wrapper=""
  trap end_scratch EXIT
}

end_scratch() {
  [ -e "$work/done" ] || touch "$work/done"
  exec 4>&-
  [ -n "$wrapper" ] && wait "$wrapper" 2>/dev/null
  rm -rf "$work"
}

# Waits up to 10 s for the file $1 to contain $2.
wait_for() {
  for _ in $(seq 100); do grep -q -- "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  echo "$bench: no '$2' in $1:" >&2
  cat "$1" >&2
  return 1
}

# Runs the command $3... in the background ($wrapper) in a umockdev testbed of the devices
# described in file $2, its stderr in $1/log. Returns once $1/pid holds its pid and
# $1/testbed the testbed's root. It gets SIGTERM once $1/done or $work/done exists.
in_testbed() {
  local dir=$1 devices=$2
  shift 2
  cat >"$dir/inside.sh" <<INSIDE
#!/bin/bash
echo "\$UMOCKDEV_DIR" > "$dir/testbed.new" && mv "$dir/testbed.new" "$dir/testbed"
$(printf '%q ' "$@") 2> "$dir/log" &
echo \$! > "$dir/pid.new" && mv "$dir/pid.new" "$dir/pid"
while [ ! -e "$work/done" ] && [ ! -e "$dir/done" ]; do sleep 0.1; done
kill \$(cat "$dir/pid")
wait
INSIDE
  chmod +x "$dir/inside.sh"
  umockdev-run --device "$devices" -- "$dir/inside.sh" &
  wrapper=$!
  for _ in $(seq 100); do [ -s "$dir/pid" ] && [ -s "$dir/testbed" ] && break; sleep 0.1; done
}
