#!/usr/bin/env bash
# One user-path run of issue 16's NMEA benchmark as a single process tree, for timing from
# outside (whole-process wall and CPU, daemon included): a fresh daemon with an empty history,
# `workoutctl import FILE`, `workoutctl export ID --format gpx --output OUT`, daemon stopped.
#
#   scripts/import-export-once.sh FILE OUT.gpx    (BIN: the binaries, default .build-release/release)
# The daemon's start-up (~10-50 ms) is counted too, so the figure is pessimistic for workoutd.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$ROOT/.build-release/release}
FILE=$1 OUT=$2
H=$(mktemp -d /tmp/wbx.XXXXXX)
mkdir -p "$H/run" && chmod 700 "$H/run"
export HOME=$H XDG_RUNTIME_DIR=$H/run XDG_DATA_HOME=$H/data XDG_STATE_HOME=$H/state XDG_CONFIG_HOME=$H/config
"$BIN/workoutd" > "$H/log" 2>&1 & DPID=$!
trap 'kill $DPID 2>/dev/null; wait $DPID 2>/dev/null; rm -rf "$H"' EXIT
for _ in $(seq 2000); do [[ -S $H/run/workoutd/control.sock ]] && break; sleep 0.005; done
out=$("$BIN/workoutctl" import "$FILE")
id=$(sed -n 's/^imported .* -> \([^ ]*\).*/\1/p' <<< "$out")
[[ -n $id ]] || { echo "import failed: $out" >&2; exit 1; }
"$BIN/workoutctl" export "$id" --format gpx --output "$OUT" > /dev/null
