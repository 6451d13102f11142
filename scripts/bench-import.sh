#!/usr/bin/env bash
# Import and export through the daemon (issue 16), against GPSBabel on the same files. Prints
# BENCHMARKS.md table rows on stdout (scripts/bench.sh includes them), details on stderr.
#
#   scripts/bench-import.sh            uses the release build of scripts/bench.sh (.build-release)
#   RUNS=5 BATCH=1000 PEER_RUNS=3 scripts/bench-import.sh   (PEER_RUNS: passes of gpsbabel over the batch)
#
# Inputs are built in a temp dir from ../shared/data (never copied into the project):
# - a 24-hour NMEA log: bundg_zeus_9 (a sailing boat's 1 Hz chartplotter, 148 s) re-timed by
#   scripts/retime-nmea.py out and back (PINGPONG=1) for 86,400 s, so the boat keeps moving;
#   one copy per run on another day (so none is a duplicate);
# - BATCH FIT activity files: the shared device files, each copy moved a day later.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SHARED=${SHARED:-$ROOT/../shared/data}
RUNS=${RUNS:-5}
BATCH=${BATCH:-1000}
BIN=${BIN:-.build-release/release}
[[ -x $BIN/workoutd && -x $BIN/workoutctl ]] || { echo "bench-import.sh: build first (scripts/bench.sh or NOBUILD=)" >&2; exit 1; }
command -v gpsbabel > /dev/null || { echo "bench-import.sh: gpsbabel not installed" >&2; exit 1; }

T=$(mktemp -d /tmp/wbimp.XXXXXX)
DPID=
stop_daemon() { [[ -n $DPID ]] && kill "$DPID" 2>/dev/null && wait "$DPID" 2>/dev/null; DPID=; }
cleanup() { stop_daemon; rm -rf "$T"; }
trap cleanup EXIT
# A fresh daemon with its own (empty) history in $T/h.$1.
start_daemon() {
    stop_daemon
    local h=$T/h.$1
    mkdir -p "$h/run" && chmod 700 "$h/run"
    export HOME=$h XDG_RUNTIME_DIR=$h/run XDG_DATA_HOME=$h/data XDG_STATE_HOME=$h/state XDG_CONFIG_HOME=$h/config
    "$ROOT/$BIN/workoutd" > "$h/log" 2>&1 & DPID=$!
    for _ in $(seq 100); do "$ROOT/$BIN/workoutctl" status > /dev/null 2>&1 && return 0; sleep 0.05; done
    echo "bench-import.sh: daemon did not start" >&2; cat "$h/log" >&2; exit 1
}
now_ns() { date +%s%N; }
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }
ms() { awk -v s="$1" 'BEGIN { printf "%.0f", s * 1000 }'; }
CTL=$ROOT/$BIN/workoutctl

# --- 24-hour NMEA log: import + export --format gpx vs gpsbabel -i nmea -o gpx -------------
for ((k = 0; k <= RUNS; k++)); do
    PINGPONG=1 python3 scripts/retime-nmea.py "$SHARED/nmea/bundg_zeus_9.log" 86400 "$k" > "$T/day$k.nmea"
done
SIZE=$(( $(stat -c %s "$T/day0.nmea") / 1000000 ))
start_daemon nmea
"$CTL" import "$T/day0.nmea" > /dev/null   # warm-up (page cache, daemon)
OURS_IMPORT=() OURS_EXPORT=() OURS_TOTAL=()
for ((k = 1; k <= RUNS; k++)); do
    t0=$(now_ns)
    out=$("$CTL" import "$T/day$k.nmea")
    t1=$(now_ns)
    id=$(sed -n 's/^imported .* -> \([^ ]*\).*/\1/p' <<< "$out")
    "$CTL" export "$id" --format gpx --output "$T/ours.gpx" > /dev/null
    t2=$(now_ns)
    OURS_IMPORT+=("$(( t1 - t0 ))e-9") OURS_EXPORT+=("$(( t2 - t1 ))e-9") OURS_TOTAL+=("$(( t2 - t0 ))e-9")
done
stop_daemon
OURS_PTS=$(grep -c '<trkpt' "$T/ours.gpx")
IMP=$(printf '%s\n' "${OURS_IMPORT[@]}" | median) EXP=$(printf '%s\n' "${OURS_EXPORT[@]}" | median) TOT=$(printf '%s\n' "${OURS_TOTAL[@]}" | median)
TZ=UTC gpsbabel -i nmea -f "$T/day1.nmea" -o gpx -F "$T/peer.gpx"
PEER_PTS=$(grep -c '<trkpt' "$T/peer.gpx")
PEER=$(for ((k = 1; k <= RUNS; k++)); do t0=$(now_ns); TZ=UTC gpsbabel -i nmea -f "$T/day$k.nmea" -o gpx -F "$T/peer.gpx"; echo "$(( $(now_ns) - t0 ))e-9"; done | median)
R=$("$ROOT/$BIN/workoutbench" import-phases "$T/day1.nmea" 3)
echo "import-phases: $R" >&2
echo "| 24-hour NMEA log ($SIZE MB, 1 Hz, bundg_zeus_9 out and back) through the daemon: \`workoutctl import\` + \`workoutctl export --format gpx --output\` | $(ms "$TOT") ms (import $(ms "$IMP") ms, export $(ms "$EXP") ms), $OURS_PTS trkpt | gpsbabel -i nmea -o gpx: $(ms "$PEER") ms, $PEER_PTS trkpt | $(ratio "$PEER" "$TOT")x (target >= 5x); in process: $R |"

# --- status during an import: a live ride at 5 Hz while six 12 MB NMEA logs are imported -----
mkdir -p "$T/load"
for k in 1 2 3 4 5 6; do python3 scripts/retime-nmea.py "$SHARED/nmea/nmea-rtk.log" 6700 "$k" > "$T/load/copy$k.nmea"; done
R=$("$ROOT/$BIN/workoutbench" import-load "$T/load" 5)
echo "import-load: $R" >&2
kv() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" <<< "$R"; }
echo "| \`status\` during \`workoutctl import\` of six 12 MB NMEA logs ($(kv import_s) s) with a live ride fed at 5 Hz | p50 $(kv status_p50_ms) ms, p99 $(kv status_p99_ms) ms, max $(kv status_max_ms) ms over $(kv status_n) requests; fixes sent $(kv fixes_sent), counted $(kv fixes_counted), late $(kv fixes_late) | before the import: p99 $(kv baseline_p99_ms) ms | targets p99 < 10 ms, max < 100 ms, no fix late |"

# --- BATCH files: workoutctl import FOLDER vs gpsbabel converting each file ------------------
# FIT activities: the shared device files (Garmin Edge 500, Fenix 2/5, the SDK's, Wahoo ELEMNT),
# copied by `workoutbench fit-copies` (each copy a day later, written by workoutd's FIT writer).
mkdir -p "$T/batch"
F=$SHARED/fit
R=$("$ROOT/$BIN/workoutbench" fit-copies "$T/batch" "$BATCH" "$F/Activity.fit" "$F/activity-small-fenix2-run.fit" \
    "$F/garmin-edge-500-activity.fit" "$F/garmin-fenix-5-run.fit" "$F/garmin-fenix-5-bike.fit" "$F/2019-02-17-062644-ELEMNT-297E-195-0.fit")
echo "fit-copies: $R" >&2
BYTES=$(du -sb "$T/batch" | cut -f1)
OURS=()
for ((r = 0; r < RUNS; r++)); do
    start_daemon "batch$r"
    t0=$(now_ns)
    out=$("$CTL" import "$T/batch")
    OURS+=("$(( $(now_ns) - t0 ))e-9")
    echo "batch run $r: $(tail -n1 <<< "$out")" >&2
done
stop_daemon
BATCH_OURS=$(printf '%s\n' "${OURS[@]}" | median)
PEERS=()
for ((r = 0; r < ${PEER_RUNS:-3}; r++)); do
    t0=$(now_ns)
    for f in "$T"/batch/*.fit; do gpsbabel -i garmin_fit -f "$f" -o gpx -F "$T/peer-one.gpx"; done
    PEERS+=("$(( $(now_ns) - t0 ))e-9")
done
BATCH_PEER=$(printf '%s\n' "${PEERS[@]}" | median)
echo "| \`workoutctl import\` of a folder of $BATCH FIT activity files ($(( BYTES / 1000000 )) MB; the 6 shared activities, copies moved a day apart) | $(ms "$BATCH_OURS") ms | gpsbabel -i garmin_fit -o gpx, file by file: $(ms "$BATCH_PEER") ms | $(ratio "$BATCH_PEER" "$BATCH_OURS")x (target >= 10x) |"
