#!/usr/bin/env bash
# One run of issue 16's batch benchmark as a single process tree, for timing from outside
# (whole-process wall and CPU, daemon included): a fresh daemon with an empty history,
# `workoutctl import FOLDER`, daemon stopped, the history it wrote removed.
#
#   scripts/import-folder-once.sh FOLDER    (BIN: the binaries, default .build-release/release)
# The daemon's start-up and the removal of what it wrote are counted too (pessimistic for workoutd).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$ROOT/.build-release/release}
H=$(mktemp -d /tmp/wbf.XXXXXX)
mkdir -p "$H/run" && chmod 700 "$H/run"
export HOME=$H XDG_RUNTIME_DIR=$H/run XDG_DATA_HOME=$H/data XDG_STATE_HOME=$H/state XDG_CONFIG_HOME=$H/config
"$BIN/workoutd" > "$H/log" 2>&1 & DPID=$!
trap 'kill $DPID 2>/dev/null; wait $DPID 2>/dev/null; rm -rf "$H"' EXIT
for _ in $(seq 2000); do [[ -S $H/run/workoutd/control.sock ]] && break; sleep 0.005; done
"$BIN/workoutctl" import "$1" | tail -n1
