#!/usr/bin/env bash
# .ci/warnings.sh LOG: the compiler's and SwiftPM's warnings in a build's output, each once
# (the batch-mode driver prints one per job that reads the file: ~25 times each), and their
# count. Exits 1 when there is any: a fresh clone's `swift build` (tests included) and
# `swift build -c release` print none, and a new one fails CI (issue 44).
set -euo pipefail
log=${1:?usage: .ci/warnings.sh BUILD_LOG}
# A warning inside a macro's expansion (`#expect`) is located at "macro expansion #expect:2:7"
# and, a line below, at the source line it "originates" from: that one names it.
# Two lines are the driver's words on CI's own build flags, not warnings of the code: the
# whole-module flags of WORKOUTD_CORE_WMO=1 (Package.swift) make the driver ignore SwiftPM's
# batch mode, and .ci/run's --use-integrated-swift-driver is marked deprecated. A plain
# `swift build` prints neither.
found=$(awk '
  /warning: ignoring .-enable-batch-mode. because .-whole-module-optimization. was also specified/ { next }
  /warning: `--use-integrated-swift-driver` option is deprecated/ { next }
  /^macro expansion [^ ]+:[0-9]+:[0-9]+: warning: / { pending = $0; sub(/^macro expansion [^ ]+:[0-9]+:[0-9]+: /, "", pending); next }
  pending != "" && /note: expanded code originates here/ { where = $0; sub(/^[^\/]*/, "", where); sub(/: note: .*/, "", where); print where ": " pending; pending = ""; next }
  /^(\/[^ ]+:[0-9]+:[0-9]+: )?warning: / { print }
' "$log" | sed "s|^$(pwd)/||" | sort -u || true)
count=$(printf '%s' "$found" | grep -c . || true)
if [ "$count" != 0 ]; then
  printf '%s\n' "$found"
  echo "compiler warnings: $count distinct (none allowed: fix them, or exclude a non-source file in Package.swift)"
  exit 1
fi
echo "compiler warnings: 0"
