#!/bin/bash
# orientd and iio-sensor-proxy side by side on the same umockdev light sensor, proximity sensor
# and compass, as a D-Bus client sees them (benchmarks/readings.py says how):
#
#   benchmarks/readings.sh light [SECONDS]       PropertiesChanged of a noisy and a slowly changing
#                                                light level, and how soon a step shows (60 s per phase)
#   benchmarks/readings.sh footprint [SECONDS]   memory, CPU and wake-ups with no client, then with a
#                                                client claiming all four sensors (60 s a window)
set -euo pipefail
cd "$(dirname "$0")/.."
bench=readings
. benchmarks/common.sh
release_binaries
proxy=""
for candidate in /usr/libexec/iio-sensor-proxy /usr/sbin/iio-sensor-proxy; do
  [ -x "$candidate" ] && proxy=$candidate && break
done
[ -n "$proxy" ] || { echo "$bench: iio-sensor-proxy is not installed (apt-get install iio-sensor-proxy)" >&2; exit 69; }
mode=${1:-light}
exec /usr/bin/python3 benchmarks/readings.py "$mode" "$bin/orientd" "$proxy" Tests/Fixtures/private-system-bus.conf "${2:-60}"
