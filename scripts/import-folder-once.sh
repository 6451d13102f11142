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
source "$ROOT/scripts/fresh-daemon.sh"
"$BIN/workoutctl" import "$1" | tail -n1
