#!/usr/bin/env bash
# Reliability suite (issue 8), after `swift build --build-tests`:
#   1. the reliability tests (Tests/IntegrationTests/Reliability: access, ownership, limits,
#      faults, a full stderr pipe, backpressure, flood, a 300 MB journal, load) against the real
#      workoutd, one at a time (the timed ones run only with WORKOUTD_RELIABILITY=1), printing
#      the figures they measure;
#   2. every libFuzzer target (21, fuzz/run.sh) for FUZZ_SECONDS each (default 10 here; longer
#      runs by hand), seeded from ../shared/data.
# Runs as root with CI=true in CI (root-only tests then fail instead of skipping). .ci/run calls
# it for the timed suites alone (RELIABILITY_FILTER, ~40 s), after the test shards ran the rest
# and the fuzzers ran beside them (RELIABILITY_SKIP_FUZZ=1).
#
#   .ci/reliability.sh                    both
#   RELIABILITY_SKIP_TESTS=1 .ci/reliability.sh   only the fuzzers
#   RELIABILITY_SKIP_FUZZ=1 .ci/reliability.sh    only the tests (.ci/run fuzzes beside the test shards)
#   FUZZ_SECONDS=300 .ci/reliability.sh   longer fuzzing
set -uo pipefail
cd "$(dirname "$0")/.."
export CI=${CI:-true}
start=$(date +%s)
step() { printf '\n== reliability: %s (%ss)\n' "$*" "$(( $(date +%s) - start ))"; }
status=0

if [ "${RELIABILITY_SKIP_TESTS:-}" != 1 ]; then
  step "tests (access, limits, flood, load, faults)"
  export WORKOUTD_RELIABILITY=1 WORKOUTD_RELIABILITY_FIGURES=/tmp/workoutd-reliability-figures.txt
  # RELIABILITY_KEEP_FIGURES=1: add to the figures the test shards wrote (.ci/run).
  [ "${RELIABILITY_KEEP_FIGURES:-}" = 1 ] || rm -f "$WORKOUTD_RELIABILITY_FIGURES"
  # RELIABILITY_SKIP_BUILD=1: the tests are built (.ci/run built them with its own flags, which
  # a plain `swift build` here would not match: it would build them again).
  if [ "${RELIABILITY_SKIP_BUILD:-}" != 1 ]; then
    swift build --build-tests >/dev/null 2>&1 || swift build --build-tests 2>&1 | tail -30
  fi
  # One suite (ReliabilitySuite, .serialized): one test at a time, nothing else in parallel.
  # RELIABILITY_FILTER: of its nested suites (.ci/run: the timed ones; its test shards ran the rest).
  # The test binary itself, as .ci/test-shards.sh runs it: `swift test --skip-build` would only
  # add SwiftPM's planning (a few seconds) to the same run.
  bin="$(swift build --show-bin-path)/workoutdPackageTests.xctest"
  timeout --kill-after=10 "${RELIABILITY_TIMEOUT:-900}" "$bin" --testing-library swift-testing --filter "${RELIABILITY_FILTER:-IntegrationTests.ReliabilitySuite}" \
    >/tmp/workoutd-reliability-test.log 2>&1
  grep -E '✘|SKIPPED|known issue|passed after .* seconds\.$|Test run' /tmp/workoutd-reliability-test.log | grep -v '✔ Test ' || true
  if ! grep -q 'Test run with .* passed' /tmp/workoutd-reliability-test.log; then
    echo "reliability tests FAILED"
    grep -E '✘|recorded an issue|↳' /tmp/workoutd-reliability-test.log | head -60
    python3 .ci/unfinished-tests.py /tmp/workoutd-reliability-test.log
    status=1
  fi
  step "figures measured"
  cat "$WORKOUTD_RELIABILITY_FIGURES" 2>/dev/null || echo "(no figures recorded)"
fi

if [ "${RELIABILITY_SKIP_FUZZ:-}" != 1 ]; then
  step "fuzz (${FUZZ_SECONDS:-10} s per target)"
  fuzz/run.sh "${FUZZ_SECONDS:-10}" || status=1
fi

step "done (status $status)"
exit $status
