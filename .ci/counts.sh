#!/usr/bin/env bash
# The allocation-count guards (docs/testing.md, "Kept fast by counts"): runs `workoutbench
# counts` under the preloaded allocation counter (Tests/Shims/malloccount.c) and compares each
# workload's heap allocations with its limit in .ci/count-limits. A count past its limit fails,
# naming the workload, its count, its limit and by how much. Then it proves the guard works: the
# same workloads with a planted regression (`--grow 10`: each allocates 10 % more) must fail,
# each of them named.
#
# Counts are deterministic for one build (no timing, whatever else the machine does), but differ
# between builds: the limits are for the build .ci/run makes (debug, WORKOUTD_CORE_WMO=1).
# Instructions are not counted: these machines expose no hardware counter to perf_event_open.
#
# usage: .ci/counts.sh [BIN_DIR]     (default: .build/debug)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/debug}
limits=.ci/count-limits
work=$(mktemp -d /tmp/workoutd-counts.XXXXXX)
trap 'rm -rf "$work"' EXIT

cc -O2 -shared -fPIC -o "$work/malloccount.so" Tests/Shims/malloccount.c
run() { SWIFT_DETERMINISTIC_HASHING=1 LD_PRELOAD="$work/malloccount.so" "$bin/workoutbench" counts "$@"; }

# check FILE: compares the counts in FILE with the limits; prints a table; exit 1 past a limit.
check() {
  awk -v limits="$limits" '
    BEGIN {
      while ((getline line < limits) > 0) {
        sub(/#.*/, "", line); n = split(line, f, " ")
        if (n >= 2) { limit[f[1]] = f[2]; order[++count] = f[1] }
      }
      bad = 0
    }
    {
      for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      w = v["workload"]; seen[w] = 1
      if (!(w in limit)) { printf "%-14s %12d allocations  NO LIMIT in %s\n", w, v["allocations"], limits; bad = 1; next }
      over = v["allocations"] - limit[w]
      if (over > 0) {
        printf "%-14s %12d allocations  limit %12d  OVER by %d (+%.1f %%)\n", w, v["allocations"], limit[w], over, 100 * over / limit[w]
        bad = 1
      } else {
        printf "%-14s %12d allocations  limit %12d  ok (%.1f %% of the limit)\n", w, v["allocations"], limit[w], 100 * v["allocations"] / limit[w]
      }
    }
    END {
      for (i = 1; i <= count; i++) if (!(order[i] in seen)) { printf "%-14s not run (listed in %s)\n", order[i], limits; bad = 1 }
      exit bad
    }' "$1"
}

echo "allocation counts (limits: $limits)"
run >"$work/counts.txt"
status=0
check "$work/counts.txt" || status=1

# The guard itself: every workload made to allocate 10 % more (at least 2 allocations more; the
# limits' margin is 5 %, at least 1) must fail.
run --grow 10 >"$work/planted.txt"
if check "$work/planted.txt" >"$work/planted-check.txt"; then
  echo "the guard did NOT fail with 10 % more allocations:"; cat "$work/planted-check.txt"; status=1
else
  over=$(grep -c 'OVER by' "$work/planted-check.txt" || true)
  total=$(wc -l <"$work/planted.txt")
  if [ "$over" = "$total" ]; then
    echo "planted regression (each workload 10 % more allocations): all $over workloads failed, as they must"
  else
    echo "planted regression: only $over of $total workloads failed:"; cat "$work/planted-check.txt"; status=1
  fi
fi
exit $status
