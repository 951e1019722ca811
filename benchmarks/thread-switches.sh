# Sourced by the benchmark scripts: the per-thread context switches of a process.

# Switches of each thread of process $1, one line each: "name voluntary involuntary".
switches() {
  local task
  for task in /proc/"$1"/task/*; do
    awk -v name="$(cat "$task/comm")" '/^voluntary_ctxt_switches/ {v = $2} /^nonvoluntary_ctxt_switches/ {n = $2}
      END {print name, v, n}' "$task/status"
  done
}
