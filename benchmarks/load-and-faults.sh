#!/bin/sh
# The load and fault suite at full size: 1000 clients churning for 60 s under 100 changes a
# second, 100 kill -9 rounds while locks stream, 20 sensor removals, a hook that hangs, and a
# full disk for the state file; then the hostile-user attacks (attacks.sh). `swift test` runs
# both at a reduced size.
set -eu
cd "$(dirname "$0")/.."
ORIENTD_FULL_LOAD=1 swift test --filter LoadAndFaultTests 2>&1 | grep -E "load:|✔|✘|passed|failed"
benchmarks/attacks.sh 20
