#!/usr/bin/env bash
# Builds the libFuzzer harness (fuzz/Fuzz.swift + every Sources/WorkoutCore file, one module) and
# fuzzes each decoder of untrusted input for a bounded time, seeded from ../shared/data (copied
# into a temporary corpus at run time, never into the repository).
#
#   fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]     default: 25 s, every target
#
# Targets: nmea gpsd control gpx tcx dbus fit inflate hrm cpm csc rsc native http web feed
# journal strava tzif logfmt index (dbus seeds: messages GLib marshals at run time,
# fuzz/dbus-seeds.py; tzif seeds: a few /usr/share/zoneinfo files). Exit status 1 if any target found a crash; the crashing
# inputs are kept under $FUZZ_OUT (default ./fuzz-out, git-ignored) and their names printed:
# turn each into a regression test in Tests/WorkoutCoreTests named after the input.
# Without ../shared/data the seeded targets are skipped with a message, unless CI=true (fail).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-25}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(nmea gpsd control gpx tcx dbus fit inflate hrm cpm csc rsc native http web feed journal strava tzif logfmt index)
SHARED=../shared/data
OUT=${FUZZ_OUT:-$PWD/fuzz-out}
# In the checkout (.build/, git-ignored): two checkouts never overwrite each other's harness.
BIN=${FUZZ_BIN:-$PWD/.build/fuzz/fuzz}
mkdir -p "$OUT" "$(dirname "$BIN")"

if [ ! -d "$SHARED" ]; then
  if [ "${CI:-}" = true ]; then echo "fuzz: $SHARED is missing (required in CI)"; exit 1; fi
  echo "fuzz: SKIPPED: $SHARED is missing (seeds come from the shared captures)"; exit 0
fi

# Build only when a source (or FUZZ_OPT) changed since the last build. One whole-module compiler
# process: -O (the default, for long runs by hand) ~270 s of CPU; -Onone (CI's short smoke runs,
# FUZZ_OPT=-Onone) 77 s, for fewer runs a second.
OPT=${FUZZ_OPT:--O}
SOURCES=(fuzz/Fuzz.swift $(find Sources/WorkoutCore -name '*.swift' | sort))
STAMP="$BIN.sources"
if [ ! -x "$BIN" ] || ! { echo "$OPT"; cat "${SOURCES[@]}"; } | sha256sum | cmp -s - "$STAMP"; then
  echo "fuzz: building $BIN (${#SOURCES[@]} files, $OPT)"
  t0=$(date +%s)
  swiftc -sanitize=fuzzer,address -parse-as-library "$OPT" -wmo -module-name WorkoutFuzz \
    "${SOURCES[@]}" -lm -o "$BIN" >"$BIN.buildlog" 2>&1
  rc=$?
  grep -v 'Cannot export local symbol' "$BIN.buildlog" || true  # ld.gold noise from ASan
  [ $rc = 0 ] || { echo "fuzz: build failed"; exit 1; }
  { echo "$OPT"; cat "${SOURCES[@]}"; } | sha256sum > "$STAMP"
  echo "fuzz: built in $(( $(date +%s) - t0 )) s"
fi
# FUZZ_BUILD_ONLY=1: build (CI does this in the background while `swift test` runs) and stop.
[ "${FUZZ_BUILD_ONLY:-}" = 1 ] && exit 0

WORK=$(mktemp -d /tmp/wfz.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# Seeds: real captures cut into pieces of a few dozen lines (libFuzzer mutates small inputs much
# faster than whole logs), whole GPX/TCX files (truncated to -max_len when loaded), and the
# protocol's documented requests.
seed() {
  local t=$1 dir="$WORK/corpus-$1"
  mkdir -p "$dir"
  case $t in
    nmea) for f in "$SHARED"/nmea/*.log; do split -l 40 -d -a 4 "$f" "$dir/$(basename "$f")."; done ;;
    gpsd) for f in "$SHARED"/nmea/*.log.chk; do split -l 12 -d -a 4 "$f" "$dir/$(basename "$f")."; done ;;
    gpx) cp "$SHARED"/gpx/*.gpx "$dir/" ;;
    tcx) cp "$SHARED"/tcx/*.tcx "$dir/" ;;
    fit) cp "$SHARED"/fit/*.fit "$dir/" ;;
    inflate)
      # Raw deflate (gzip minus its 10-byte header and 8-byte trailer) and whole gzip files of
      # the small shared files, at levels 1, 6 and 9.
      for f in "$SHARED"/fit/*.fit "$SHARED"/gpx/*.gpx "$SHARED"/README.md; do
        [ -f "$f" ] || continue
        [ "$(stat -c %s "$f")" -le 200000 ] || continue
        for l in 1 6 9; do
          b="$dir/$(basename "$f").$l"
          gzip -n -$l -c "$f" > "$b.gz"
          tail -c +11 "$b.gz" | head -c -8 > "$b.deflate"
        done
      done ;;
    dbus) /usr/bin/python3 fuzz/dbus-seeds.py "$dir" >/dev/null || { echo "fuzz: dbus seeds need python3-gi" >&2; return 1; } ;;
    hrm)  # Heart Rate Measurement values: the stand-in strap's, and every field flagged
      printf '\x16\x78\x00\x02' > "$dir/standin"; printf '\x14\x5f' > "$dir/nocontact"
      printf '\x1f\xc8\x00\x05\x00\xe8\x03\xe9\x03' > "$dir/all"; printf '\x00\x3c' > "$dir/plain" ;;
    native)  # saved-workout files as workoutd writes them: points with every optional field
      printf '%s' '{"format":"workoutd-workout/1","source":"imported:a.fit","summary":{"id":"20261118T054640Z-0001","activity":"running","startedAt":"2026-11-18T05:46:40Z","elapsedSeconds":3},"events":[{"kind":"pause","time":"2026-11-18T05:46:41.000Z","cause":"device"}],"points":[[1795000000.000,47.000000000,8.000000000,512.300,3.100,90.00,3,4.00,9,0.90,120,80,0,null],
[1795000001.500,47.000010000,8.000000000,null,null,null,2,null,null,null,null,null,0,"stationary_jitter","gps",250,21]]}' > "$dir/two"
      printf '%s' '{"format":"workoutd-workout/1","summary":{},"points":[[1,2,3,null,null,null,3,null,null,null,null,null,0,null,null,null,null,7]]}' > "$dir/odd" ;;
    cpm)  # Cycling Power Measurement values: power only, power + crank, every field flagged
      printf '\x00\x00\xfa\x00' > "$dir/plain"; printf '\x20\x00\xfa\x00\xed\x0f\x57\x13' > "$dir/crank"
      printf '\xff\x1f\x85\xff\x6f\x34\x12\x04\x03\x02\x01\xcd\xab\xed\x0f\x57\x13\xf4\x01\x38\xff\x00\x01\xc0\xff\x23\xc1\xab\x14\x00\xc8\x00\xdb\x03' > "$dir/all" ;;
    csc)  # CSC Measurement values: wheel, crank, both
      printf '\x01\x78\x56\x01\x00\x00\x20' > "$dir/wheel"; printf '\x02\xff\x00\xf0\xff' > "$dir/crank"
      printf '\x03\x78\x56\x01\x00\x00\x20\xff\x00\xf0\xff' > "$dir/both" ;;
    rsc)  # RSC Measurement values (what the stand-in's footpod sends), and a stream of power and CSC notifications
      printf '\x07\x55\x03\xaa\x76\x00\x2a\x00\x00\x00' > "$dir/footpod"; printf '\x00\x00\x02\x96' > "$dir/plain"
      printf '\x08\x00\x20\x00\xfa\x00\x01\x00\x00\x00\x0b\x01\x03\x01\x00\x00\x00\x00\x04\x01\x00\x00\x04\x08\x00\x20\x00\xfa\x00\x02\x00\xab\x02' > "$dir/stream" ;;
    http)  # requests the pages' server meets: pages, a form POST, pipelining, refusals
      printf 'GET /?token=t0k HTTP/1.1\r\nHost: 127.0.0.1:8765\r\n\r\n' > "$dir/enter"
      printf 'GET /workouts/20261121T093000Z-3f9a?x=time HTTP/1.1\r\nHost: localhost:8765\r\nCookie: workoutd_8765=t0k\r\nConnection: keep-alive\r\n\r\nGET /live/events HTTP/1.1\r\nHost: [::1]:8765\r\n\r\n' > "$dir/pipelined"
      printf 'POST /workouts/20261121T093000Z-3f9a HTTP/1.1\r\nHost: 127.0.0.1:8765\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 33\r\n\r\ntoken=t0k&activity=cycling&x=%%41' > "$dir/post"
      printf 'GET / HTTP/1.1\r\nHost: evil.example\r\n folded\r\n\r\n' > "$dir/bad" ;;
    web)  # workouts as the web target reads them: point records, events, heart rate
      head -c 2048 /dev/urandom > "$dir/random"
      printf '\x00\x01\x10\x10\x01\x00\x0e\x00\x02\x01\x10\xf0\x01\x10\x2e\x96\x03\x04\x05\x02\x05\x00\x00\x00\x05\x00\x00\x00\x00\x00\x00\x00' > "$dir/few" ;;
    feed)  # the feed socket's lines (docs/protocol.md) and a piece of a real NMEA capture
      printf '%s\n' '{"class":"SIMULATION","speed":50,"recordedTrack":true}' '{"class":"FIX","time":"2026-11-21T09:30:00.5Z","lat":48.1,"lon":11.5,"alt":520,"speed":3.1,"track":90,"mode":3,"eph":4,"sats":9,"hdop":0.9,"hr":120,"cad":80,"power":230}' \
        '{"class":"HR","time":"2026-11-21T09:30:01Z","bpm":142,"rr":[0.42,0.43]}' '{"class":"SEGMENT"}' '{"class":"TPV","time":"2026-11-21T09:30:02+01:00","lat":-33.9,"lon":151.2,"mode":2}' > "$dir/json"
      for f in "$SHARED"/nmea/*.log; do head -n 30 "$f" > "$dir/$(basename "$f")"; done ;;
    journal)  # line bodies (the harness appends the checksum)
      printf '%s' '{"r":"start","id":"20261121T093000Z-0001","activity":"running","t":1795000000}' > "$dir/start"
      printf '%s' '{"r":"pause","t":1795000010.5,"cause":"user"}' > "$dir/pause"
      printf '%s' '{"r":"resume","t":1795000020}' > "$dir/resume"
      printf '%s' '{"r":"lap","t":1795000030}' > "$dir/lap"
      printf '%s' '{"r":"fix","p":[1795000001.500,47.000010000,8.000000000,512.300,3.100,90.00,3,4.00,9,0.90,120,80,0,null]}' > "$dir/fix"
      printf '%s' '{"r":"alive","t":1795000040}' > "$dir/alive" ;;
    strava)
      printf '\xef\xbb\xbfActivity ID,Activity Date,Activity Name,Activity Type,Activity Description,Elapsed Time,Distance,Filename\r\n1,"Nov 21, 2026, 9:30:00 AM","Morning ""Run"", easy",Run,"two\nlines",1800,5.1,activities/1.fit.gz\r\n2,x,Ride,Virtual Ride,,3600,30,./activities/2.tcx.gz\r\n3,x,Manual,Walk,,60,1,\r\n' > "$dir/export.csv" ;;
    tzif)
      for z in Europe/Berlin America/New_York Asia/Kathmandu Australia/Lord_Howe Pacific/Chatham UTC; do
        [ -f "/usr/share/zoneinfo/$z" ] && cp "/usr/share/zoneinfo/$z" "$dir/$(echo "$z" | tr / _)"
      done
      printf 'TZif2' > "$dir/short" ;;
    logfmt)
      printf '%s' '<6>Saved running workout event=workout.saved id=20261121T093000Z-0001 distance_m=5012.3 path="/home/a b/w.json"' > "$dir/journald"
      printf '%s' '2026-11-21T09:30:00Z info "Stopping on \"SIGTERM\"" event=daemon.stopping signal=SIGTERM' > "$dir/plain"
      printf '%s' 'Streak at risk event=streak.at_risk days=12 zone=Europe/Berlin' > "$dir/bare" ;;
    index)
      printf '%s\n' '{"put":{"id":"20261121T093000Z-0001","activity":"running","startedAt":"2026-11-21T09:30:00Z","elapsedSeconds":1800,"distanceMeters":5012.3}}' \
        '{"del":"20261121T093000Z-0001"}' '{"put":{"id":"20261122T093000Z-0001","activity":"cycling","startedAt":"2026-11-22T09:30:00Z"}}' > "$dir/index"
      printf '%s' '{"put":{"id":"torn' >> "$dir/index" ;;
    control)
      i=0
      while IFS= read -r line; do printf '%s' "$line" > "$dir/req$i"; i=$((i + 1)); done <<'REQ'
{"command":"status"}
{"command":"start","activity":"running"}
{"command":"pause"}
{"command":"marker","text":"water \u00e9\ud83d\ude00"}
{"command":"watch"}
{"command":"list","from":"2026-11-01","to":"2026-11-30T12:00:00.5Z","activity":"running","limit":10}
{"command":"show","id":"20261121-093000-running"}
{"command":"export","id":"20261121-093000-running","format":"gpx"}
{"command":"import","files":["/abs/path.gpx","/b.tcx"],"activity":"hiking"}
{"command":"delete","id":"20261121-093000-running"}
{"command":"streak"}
{"command":"reload"}
{"command":"toggle"}
[1, 2.5e-3, -0, true, null, {"a": [{}]}]
REQ
      ;;
  esac
  ls "$dir" | wc -l
}

max_len() { case $1 in gpx|tcx|fit) echo 65536 ;; web) echo 16384 ;; inflate|tzif) echo 32768 ;; nmea|gpsd|dbus|feed|index|strava) echo 8192 ;; hrm|cpm|csc) echo 64 ;; rsc) echo 512 ;; *) echo 4096 ;; esac; }

status=0
printf '%-8s %8s %10s %10s %8s %s\n' target seeds runs exec/s cov result
for t in "${TARGETS[@]}"; do
  n=$(seed "$t")
  log="$WORK/$t.log"
  # -fork is not used: one process, so the run count and coverage come from one place.
  SWIFT_BACKTRACE=enable=no FUZZ_TARGET=$t "$BIN" "$WORK/corpus-$t" \
    -max_total_time="$SECONDS_PER_TARGET" -max_len="$(max_len "$t")" -timeout="${FUZZ_UNIT_TIMEOUT:-10}" -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$OUT/$t-" >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | awk '{print $2}')
  if [ $rc -eq 0 ]; then result=ok; else result="FAILED (exit $rc)"; status=1; fi
  printf '%-8s %8s %10s %10s %8s %s\n' "$t" "$n" "${runs:-?}" "${speed:-?}" "${cov:-?}" "$result"
  if [ $rc -ne 0 ]; then
    grep -E 'ERROR|property violated|Fatal error|SUMMARY|artifact_prefix|Test unit written' "$log" | head -20
    ls -1 "$OUT/$t-"* 2>/dev/null | sed 's/^/  crash input: /'
  fi
done
exit $status
