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
source "$ROOT/scripts/fresh-daemon.sh"
out=$("$BIN/workoutctl" import "$FILE")
id=$(sed -n 's/^imported .* -> \([^ ]*\).*/\1/p' <<< "$out")
[[ -n $id ]] || { echo "import failed: $out" >&2; exit 1; }
"$BIN/workoutctl" export "$id" --format gpx --output "$OUT" > /dev/null
