#!/usr/bin/env bash
# .ci/warnings.sh LOG: the compiler's and SwiftPM's warnings in a build's output, each once
# (the batch-mode driver prints one per job that reads the file: ~25 times each), and their
# count. Exits 1 when there is any: a fresh clone's `swift build` (tests included) and
# `swift build -c release` print none, and a new one fails CI (issue 44).
set -euo pipefail
log=${1:?usage: .ci/warnings.sh BUILD_LOG}
found=$(grep -E '^(/[^ ]+:[0-9]+:[0-9]+: )?warning: ' "$log" | sed "s|^$(pwd)/||" | sort -u || true)
count=$(printf '%s' "$found" | grep -c . || true)
if [ "$count" != 0 ]; then
  printf '%s\n' "$found"
  echo "compiler warnings: $count distinct (none allowed: fix them, or exclude a non-source file in Package.swift)"
  exit 1
fi
echo "compiler warnings: 0"
