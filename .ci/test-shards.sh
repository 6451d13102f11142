#!/usr/bin/env bash
# Runs the whole `swift test` suite in several processes of the test binary at once. Why: Swift
# Testing runs tests on the concurrency pool, one thread per core; on CI's two cores the
# integration tests, which mostly wait on daemons, gpsd and D-Bus, ran two at a time (8.5 min
# wall for 4.7 min of CPU). Each process has a pool of its own, so waits overlap.
#   - a queue of processes, SHARDS at a time (default 4): each unit target (WorkoutCoreTests,
#     WorkoutClientTests, WorkoutDaemonTests: many short tests, in parallel within the process)
#     and each other suite alone (the integration suites, most .serialized: one test after
#     another), longest first by the seconds in .ci/suite-seconds (printed by this script; a
#     name not listed counts 30 s). A worker takes the next process when it is free, so no fixed
#     deal leaves one shard the long tail.
# SHARD_SPLIT: an extended regex of suites run as their nested suites, one process each (.ci/run:
# ReliabilitySuite, whose nested suites each start daemons of their own); SHARD_SKIP: an extended
# regex of suites (or "Suite/Nested") left out (.ci/run: the timed reliability suites, which
# .ci/reliability.sh runs alone); SHARD_ONLY: of the suites kept (to try the script).
# Prints the slowest suites and any SKIPPED line; on failure, the failures and the tests that
# never ended. Each process's log is LOGDIR/<suite or target>.log.
# Usage: .ci/test-shards.sh [LOGDIR]   (the tests must be built: `swift build --build-tests`)
set -uo pipefail
cd "$(dirname "$0")/.."
shards=${SHARDS:-4}
logdir=${1:-/tmp/workoutd-test-shards}
limit=${SWIFT_TEST_TIMEOUT:-900}
mkdir -p "$logdir"
rm -f "$logdir"/*.log "$logdir"/*.seconds "$logdir"/*.cpu

# The test binary itself, not `swift test`: SwiftPM holds a lock on .build, so processes of
# `swift test` wait for each other.
bin="$(swift build --show-bin-path)/workoutdPackageTests.xctest"
[ -x "$bin" ] || { echo "$bin: not built (swift build --build-tests)"; exit 1; }
# python3 on CI's machines is pyenv's bash shim: ~0.1 s of CPU a call (a dozen bash processes)
# before Python starts, and the tests start Python a few hundred times (the oracles, peers,
# scripts run as `/usr/bin/env python3`). The test processes find the interpreter the shim would
# run first on PATH: a directory with one link, python3, to it (nothing else of pyenv's).
py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -x "$py" ] && [ "$py" != "$(command -v python3)" ]; then
  mkdir -p "$logdir/python" && ln -sfn "$py" "$logdir/python/python3" && export PATH="$logdir/python:$PATH"
fi
# Each process runs Swift Testing's own default width (2 x cores), as before Tests/TestRunWidth
# widened a plain `swift test` to 16: the processes already overlap each other's waits.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-$(( 2 * $(nproc) ))}
mapfile -t tests < <("$bin" --testing-library swift-testing --list-tests 2>/dev/null)
[ "${#tests[@]}" -gt 0 ] || { echo "no tests listed (not built?)"; exit 1; }
# A suite matching SHARD_SPLIT (an extended regex; its tests all in nested suites) is listed as
# its nested suites, "Suite/Nested", each a process of its own.
mapfile -t suites < <(printf '%s\n' "${tests[@]}" | awk -F/ -v re="${SHARD_SPLIT:-}" \
  're != "" && $1 ~ re && NF > 2 { print $1 "/" $2; next } { print $1 }' | sort -u)
if [ -n "${SHARD_ONLY:-}" ]; then
  mapfile -t suites < <(printf '%s\n' "${suites[@]}" | grep -E -- "$SHARD_ONLY")
fi
if [ -n "${SHARD_SKIP:-}" ]; then
  mapfile -t suites < <(printf '%s\n' "${suites[@]}" | grep -Ev -- "$SHARD_SKIP")
  echo "left out (run elsewhere): suites matching $SHARD_SKIP"
fi

# run NAME FILTER: one process of the test binary; its log, its wall seconds and (with
# /usr/bin/time) the CPU seconds of the process and its children (daemons, python, gpsd).
run() {
  local t0=$(date +%s.%N) timer=()
  [ -x /usr/bin/time ] && timer=(/usr/bin/time -f '%U %S' -o "$logdir/$1.cpu")
  "${timer[@]}" timeout --kill-after=10 "$limit" "$bin" --testing-library swift-testing --filter "$2" >"$logdir/$1.log" 2>&1
  local rc=$?
  local cpu=$(awk 'NF == 2 && $1 ~ /^[0-9.]+$/ { printf "%.1f", $1 + $2 }' "$logdir/$1.cpu" 2>/dev/null)
  awk -v a="$t0" -v b="$(date +%s.%N)" -v n="$1" -v c="${cpu:-?}" 'BEGIN { printf "%.1f %s %s\n", b - a, n, c }' >"$logdir/$1.seconds"
  return $rc
}
export -f run
export bin logdir limit

# The queue: the unit targets as three groups (many short tests, in parallel within the
# process) and each other suite alone, longest first. A group's filter names its suites: an
# empty filter would run every test, so an empty group is left out.
filter() { local p=""; for s in "$@"; do p+="${p:+|}${s//./\\.}/"; done; echo "^($p)"; }
queue=()
for target in WorkoutCoreTests WorkoutClientTests WorkoutDaemonTests; do
  mapfile -t group < <(printf '%s\n' "${suites[@]}" | grep -E "^$target\\.")
  [ ${#group[@]} -eq 0 ] || queue+=("$target $(filter "${group[@]}")")
done
units=$(printf '%s\n' "${suites[@]}" | grep -cE '^(WorkoutCoreTests|WorkoutClientTests|WorkoutDaemonTests)\.')
while read -r s; do n=${s//\//.}; queue+=("$n ^${s//./\\.}/"); done < <(printf '%s\n' "${suites[@]}" | grep -Ev '^(WorkoutCoreTests|WorkoutClientTests|WorkoutDaemonTests)\.')
mapfile -t queue < <(printf '%s\n' "${queue[@]}" | python3 -c '
import sys
seconds = {}
for line in open(".ci/suite-seconds"):
    parts = line.split()
    if len(parts) >= 2 and not line.startswith("#"):
        seconds[parts[1]] = float(parts[0])
items = [l.rstrip("\n") for l in sys.stdin if l.strip()]
for item in sorted(items, key=lambda i: (-seconds.get(i.split()[0], 30.0), i)):
    print(item)
')
echo "${#queue[@]} processes, $shards at a time: $units unit suites in one process per target, each other suite alone"
status=0
# xargs -P: a worker takes the next process as soon as it is free.
printf '%s\n' "${queue[@]}" | xargs -d '\n' -n 1 -P "$shards" bash -c 'run "${1%% *}" "${1#* }"' _ || status=1

echo "slowest (wall seconds, each in its own process; CPU seconds of the process and its children):"
cat "$logdir"/*.seconds | sort -rn | head -12 | awk '{printf "  %6.1f s  %-45s %s s CPU\n", $1, $2, $3}'
awk '$3 ~ /^[0-9.]+$/ { c += $3 } END { printf "CPU: %.0f s in all the processes\n", c }' "$logdir"/*.seconds
tests=0
for log in "$logdir"/*.log; do
  grep -h 'SKIPPED' "$log" | sed "s/^/[$(basename "$log" .log)] /"
  n=$(sed -nE 's/.*Test run with ([0-9]+) tests?.*/\1/p' "$log" | tail -1)
  tests=$((tests + ${n:-0}))
  if ! grep -q 'Test run with .* passed' "$log"; then
    status=1
    echo "[$(basename "$log" .log)] failed (or ran past $limit s):"
    grep -E '✘|recorded an issue|error:' "$log" | head -40
    python3 .ci/unfinished-tests.py "$log" | head -20
  fi
done
echo "$tests tests in $(ls "$logdir"/*.log | wc -l) processes; status $status"
exit $status
