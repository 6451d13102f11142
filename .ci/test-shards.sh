#!/usr/bin/env bash
# Runs the whole `swift test` suite as SHARDS processes at once (default 4), suites dealt out in
# turn. Why: Swift Testing runs tests on the concurrency pool, one thread per core; on CI's two
# cores the integration tests, which mostly wait on daemons, gpsd and D-Bus, ran two at a time
# (8.5 min wall for 4.7 min of CPU). Each process has a pool of its own, so waits overlap.
# Prints each shard's summary; on failure, its failures and the tests that never ended.
# Usage: .ci/test-shards.sh [LOGDIR]   (the tests must be built: `swift build --build-tests`)
set -uo pipefail
cd "$(dirname "$0")/.."
shards=${SHARDS:-4}
logdir=${1:-/tmp/workoutd-test-shards}
limit=${SWIFT_TEST_TIMEOUT:-1500}
mkdir -p "$logdir"
rm -f "$logdir"/shard-*.log

# The test binary itself, not `swift test`: SwiftPM holds a lock on .build, so processes of
# `swift test` wait for each other.
bin="$(swift build --show-bin-path)/workoutdPackageTests.xctest"
[ -x "$bin" ] || { echo "$bin: not built (swift build --build-tests)"; exit 1; }
mapfile -t suites < <("$bin" --testing-library swift-testing --list-tests 2>/dev/null | cut -d/ -f1 | sort -u)
[ "${#suites[@]}" -gt 0 ] || { echo "no tests listed (not built?)"; exit 1; }

pids=()
for ((s = 0; s < shards; s++)); do
  pattern=""
  for ((i = s; i < ${#suites[@]}; i += shards)); do
    pattern+="${pattern:+|}${suites[i]//./\\.}/"
  done
  timeout --kill-after=10 "$limit" "$bin" --testing-library swift-testing --filter "^($pattern)" >"$logdir/shard-$s.log" 2>&1 &
  pids+=($!)
done

status=0
for ((s = 0; s < shards; s++)); do
  wait "${pids[s]}"
  log="$logdir/shard-$s.log"
  grep -E 'SKIPPED|Test run with' "$log" | sed "s/^/[shard $s] /"
  if ! grep -q 'Test run with .* passed' "$log"; then
    status=1
    echo "[shard $s] failed (or ran past $limit s):"
    grep -E '✘|recorded an issue|error:' "$log" | head -40
    python3 .ci/unfinished-tests.py "$log" | head -20
  fi
done
exit $status
