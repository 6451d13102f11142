#!/usr/bin/env bash
# Benchmarks of issue 9: workoutd beside gpsd (gpsdecode) and GPSBabel, plus the daemon's
# memory, CPU and latency budget. Not part of CI; takes about 5 minutes on 2 cores.
#
#   scripts/bench.sh            build (release, .build-release) and run everything
#   RUNS=9 scripts/bench.sh     more runs per timed command (default 5)
#   NOBUILD=1 scripts/bench.sh  reuse the last release build
#
# Inputs are built in a temp dir from ../shared/data/nmea (never copied into the project).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SHARED=${SHARED:-$ROOT/../shared/data}
RUNS=${RUNS:-5}
SCRATCH=.build-release
BIN=$SCRATCH/release

if [[ -z "${NOBUILD:-}" ]]; then
    # -static-stdlib: the Swift runtime linked in, not loaded as 10 shared libraries (see BENCHMARKS.md).
    swift build -c release --scratch-path "$SCRATCH" --static-swift-stdlib >&2
fi
[[ -d "$SHARED/nmea" ]] || { echo "bench.sh: $SHARED/nmea not found" >&2; exit 1; }

T=$(mktemp -d /tmp/wbench.XXXXXX)
GPSD_PID=
REPLAY=$SHARED/../tools/gpsd-replay
cleanup() {
    [[ -n "$GPSD_PID" ]] && kill "$GPSD_PID" 2>/dev/null
    [[ -d "$T/replay" ]] && "$REPLAY" stop --state "$T/replay" >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT

# ~50 MB inputs. decode.log: all eight captures, repeated. gpx.log: haicom-305N + nmea-rtk,
# repeated: on these two gpsbabel and workoutd keep the same fixes, and the junction between
# repetitions loses none in gpsbabel (other captures and junctions differ; see BENCHMARKS.md).
repeat_to() {  # OUT TARGET_BYTES FILES...
    local out=$1 target=$2; shift 2
    cat "$@" > "$T/unit"
    local n=$(( (target + $(stat -c %s "$T/unit") - 1) / $(stat -c %s "$T/unit") ))
    : > "$out"; for ((i = 0; i < n; i++)); do cat "$T/unit" >> "$out"; done
}
repeat_to "$T/decode.log" 52000000 "$SHARED"/nmea/*.log
repeat_to "$T/gpx.log" 52000000 "$SHARED/nmea/haicom-305N.log" "$SHARED/nmea/nmea-rtk.log"

now_ns() { date +%s%N; }
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
# time_runs CMD...: wall seconds of RUNS whole-process runs (after one warm-up), median.
time_runs() {
    "$@" > /dev/null 2>&1 || true
    for ((i = 0; i < RUNS; i++)); do
        local t0; t0=$(now_ns); "$@" > /dev/null 2>&1; echo "$(( $(now_ns) - t0 ))e-9"
    done | median
}
kv() { sed -n "s/.*\b$2=\([^ ]*\).*/\1/p" <<< "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }
ms() { awk -v s="$1" 'BEGIN { printf "%.1f", s * 1000 }'; }
ROWS=()
row() { ROWS+=("$(printf '| %s | %s | %s | %s |' "$1" "$2" "$3" "$4")"); echo "$1: $2 ($4)" >&2; }

# --- NMEA decoding --------------------------------------------------------------------
R=$($BIN/workoutbench nmea-decode "$T/decode.log")
SENT=$(kv "$R" sentences)
OURS=$(time_runs $BIN/workoutbench nmea-decode "$T/decode.log")
OURS_RATE=$(awk -v n="$SENT" -v s="$OURS" 'BEGIN { printf "%d", n / s }')
if command -v gpsdecode > /dev/null; then
    PEER=$(time_runs sh -c "gpsdecode -m < '$T/decode.log' > /dev/null")
    PEER_RATE=$(awk -v n="$SENT" -v s="$PEER" 'BEGIN { printf "%d", n / s }')
    row "NMEA decode, $(( $(stat -c %s "$T/decode.log") / 1000000 )) MB, $SENT sentences (whole process)" \
        "$OURS_RATE sentences/s ($(ms "$OURS") ms)" "gpsdecode -m: $PEER_RATE sentences/s ($(ms "$PEER") ms)" \
        "$(ratio "$PEER" "$OURS")x (target >= 2x)"
else
    row "NMEA decode ($SENT sentences)" "$OURS_RATE sentences/s" "gpsdecode not installed" "-"
fi

# --- NMEA log to GPX ------------------------------------------------------------------
R=$($BIN/workoutbench nmea-gpx "$T/gpx.log" "$T/ours.gpx")
OURS_PTS=$(kv "$R" trackpoints)
OURS=$(time_runs $BIN/workoutbench nmea-gpx "$T/gpx.log" "$T/ours.gpx")
if command -v gpsbabel > /dev/null; then
    TZ=UTC gpsbabel -i nmea -f "$T/gpx.log" -o gpx -F "$T/peer.gpx"
    PEER_PTS=$(grep -c '<trkpt' "$T/peer.gpx")
    PEER=$(time_runs env TZ=UTC gpsbabel -i nmea -f "$T/gpx.log" -o gpx -F "$T/peer.gpx")
    # Equivalence: same trackpoints, same times, coordinates equal to 1e-9 degrees (last digit).
    paste <(grep -o '<trkpt lat="[^"]*" lon="[^"]*"' "$T/ours.gpx" | tr -c '0-9.\n-' ' ') \
          <(grep -o '<trkpt lat="[^"]*" lon="[^"]*"' "$T/peer.gpx" | tr -c '0-9.\n-' ' ') > "$T/coords"
    MAXD=$(awk '{ for (i = 1; i <= 2; i++) { d = $i - $(i+2); if (d < 0) d = -d; if (d > m) m = d } } END { printf "%.1e", m }' "$T/coords")
    if cmp -s <(grep -o '<time>[^<]*' "$T/ours.gpx" | tail -n +2) <(grep -o '<time>[^<]*' "$T/peer.gpx" | tail -n +2); then TIMES=same; else TIMES=DIFFER; fi
    row "NMEA log to GPX, $(( $(stat -c %s "$T/gpx.log") / 1000000 )) MB" "$(ms "$OURS") ms, $OURS_PTS trkpt" \
        "gpsbabel: $(ms "$PEER") ms, $PEER_PTS trkpt" \
        "$(ratio "$PEER" "$OURS")x (target >= 5x); times $TIMES, max coordinate difference $MAXD deg"
else
    row "NMEA log to GPX" "$(ms "$OURS") ms, $OURS_PTS trkpt" "gpsbabel not installed" "-"
fi

# --- The daemon ---------------------------------------------------------------------------
R=$($BIN/workoutbench ingest 500000)
row "Live ingest, feed socket, journal on" "$(kv "$R" fixes_per_s) fixes/s ($(kv "$R" fixes_recorded) in $(kv "$R" seconds) s)" "" "target >= 200000"

R=$($BIN/workoutbench memory 86400)
GPSD_RSS="-"
if [[ -x /usr/sbin/gpsd ]]; then
    /usr/sbin/gpsd -N -n -F "$T/gpsd.sock" -S 29471 "$T/gpx.log" > /dev/null 2>&1 & GPSD_PID=$!
    sleep 2
    GPSD_RSS=$(awk '/VmRSS/ { print $2 }' /proc/$GPSD_PID/status 2>/dev/null || echo "-")
    kill "$GPSD_PID"; wait "$GPSD_PID" 2>/dev/null || true; GPSD_PID=
fi
row "RSS idle" "$(kv "$R" idle_rss_kb) kB" "gpsd -N -n, one device: $GPSD_RSS kB" "target <= 10240 kB"
row "RSS with 86,400 points recording" "$(kv "$R" active_rss_kb) kB" "" "target <= 25600 kB"
row "Save of 86,400 points in the daemon (stop -> idle)" "$(kv "$R" save_ms) ms" "" "status meanwhile: max $(kv "$R" status_max_ms) ms, median $(kv "$R" status_median_ms) ms over $(kv "$R" status_during_save) requests (target <= 5 ms)"

R=$($BIN/workoutbench status-reply 86400 200)
row "status reply of a 24-hour workout, in process ($(kv "$R" bytes) bytes)" "$(kv "$R" direct_cached_us) us (direct writer, kept splits)" "" "before: JSON tree $(kv "$R" tree_encode_us) us; identical bytes: $(kv "$R" identical)"

R=$($BIN/workoutbench save 86400 5)
row "HistoryStore.save, 86,400 points" "$(kv "$R" save_ms) ms (encode $(kv "$R" encode_ms) ms, $(kv "$R" bytes) bytes)" "" "target < 100 ms"

R=$($BIN/workoutbench cpu "${CPU_SECONDS:-60}")
row "CPU recording a 10 Hz feed, $(kv "$R" seconds) s" "$(kv "$R" cpu_percent_stat) % (/proc stat), $(kv "$R" cpu_percent_schedstat) % (schedstat)" "" "target <= 0.1 %"

# The same for a ride while reading four Bluetooth sensors (strap, power meter, CSC, footpod, 4
# notifications a second each) from the BlueZ stand-in on a private bus.
PEERS=$SHARED/../tools/dbus-peers
if [[ -x "$PEERS" && -x /usr/bin/dbus-daemon ]]; then
    ADDR=$(/usr/bin/python3 "$PEERS" start --state "$T/peers" --bluez --sensors hr,power,csc,rsc --rate 4 | sed -n 's/^DBUS_ADDRESS=//p')
    R=$(DBUS_SYSTEM_BUS_ADDRESS=$ADDR $BIN/workoutbench cpu-sensors "${CPU_SECONDS:-60}")
    /usr/bin/python3 "$PEERS" stop --state "$T/peers" > /dev/null
    row "CPU recording a 10 Hz feed and four Bluetooth sensors at 4 Hz, $(kv "$R" seconds) s ($(kv "$R" sensors_connected) connected)" \
        "$(kv "$R" cpu_percent_stat) % (/proc stat), $(kv "$R" cpu_percent_schedstat) % (schedstat)" "" "target <= 0.2 %"
else
    row "CPU recording a 10 Hz feed and four Bluetooth sensors" "-" "../shared/tools/dbus-peers or dbus-daemon not found" "-"
fi

# The same from a real receiver through the real gpsd: nmea-rtk's 10 Hz Trimble fixes, re-timed
# into a continuous log (scripts/retime-nmea.py), served in real time by gpsd-replay.
if [[ -x /usr/sbin/gpsd && -x "$REPLAY" ]]; then
    python3 scripts/retime-nmea.py "$SHARED/nmea/nmea-rtk.log" $(( ${CPU_SECONDS:-60} + 20 )) > "$T/rtk10.log"
    "$REPLAY" start "$T/rtk10.log" --rate 1 --port 29480 --feed-port 29481 --state "$T/replay" > /dev/null
    R=$($BIN/workoutbench cpu-gpsd 127.0.0.1:29480 "$(cat "$T/replay/gpsd.pid")" "${CPU_SECONDS:-60}")
    "$REPLAY" stop --state "$T/replay" > /dev/null
    row "CPU recording a 10 Hz receiver through gpsd, $(kv "$R" seconds) s ($(kv "$R" points) fixes, $(kv "$R" fix_rate_hz) Hz)" \
        "$(kv "$R" cpu_percent_stat) % (/proc stat), $(kv "$R" cpu_percent_schedstat) % (schedstat)" \
        "gpsd: $(kv "$R" gpsd_cpu_percent_stat) % (stat), $(kv "$R" gpsd_cpu_percent_schedstat) % (schedstat)" "target <= 0.1 %"
else
    row "CPU recording a 10 Hz receiver through gpsd" "-" "gpsd or ../shared/tools/gpsd-replay not found" "-"
fi

if command -v hyperfine > /dev/null; then
    echo "(hyperfine is installed; workoutbench's own loop is used for the table)" >&2
fi
R=$($BIN/workoutbench status-process 200)
row "workoutctl status, whole process" "median $(kv "$R" median_ms) ms (p90 $(kv "$R" p90_ms) ms)" "" "target <= 10 ms"

R=$($BIN/workoutbench control 100 5)
row "Control throughput, 100 clients" "$(kv "$R" requests_per_s) requests/s" "" "target >= 20000"

# Import and export through the daemon (issue 16): scripts/bench-import.sh prints its rows.
if command -v gpsbabel > /dev/null; then
    while IFS= read -r line; do ROWS+=("$line"); echo "$line" >&2; done < <(BIN=$BIN RUNS=$RUNS scripts/bench-import.sh)
fi

R=$($BIN/workoutbench startup 10000 7)
row "Start-up to ready, 10,000 saved workouts" "median $(kv "$R" median_ms) ms ($(kv "$R" listed) listed)" "" "target < 100 ms"

echo
echo "Machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1), $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) RAM; $(swift --version 2>&1 | head -1)"
echo "workoutd links: $(ldd $BIN/workoutd | awk '{ print $1 }' | tr '\n' ' ')"
echo
echo "| benchmark | workoutd | peer | ratio / target |"
echo "|---|---|---|---|"
printf '%s\n' "${ROWS[@]}"
