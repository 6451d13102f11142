#!/usr/bin/env bash
# Screenshots of every web page for docs/web.md (docs/web/*.png), taken in headless Chromium by
# Tests/IntegrationTests/Web/cdp_pages.py from a fresh daemon holding real files from
# ../shared/data, a 12-week history of synthetic workouts (so the volume chart, calendar and
# records have something to show) and a ride recording meanwhile (for the live page).
#
#   scripts/web-screenshots.sh [BIN_DIR]     default: .build/debug
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build/debug}
ROOT=$PWD
OUT=$ROOT/docs/web
DATA=../shared/data
mkdir -p "$OUT"
[ -x /usr/lib/chromium/chromium ] || { echo "needs chromium (apt-get install chromium)"; exit 1; }
[ -d "$DATA" ] || { echo "needs ../shared/data"; exit 1; }

H=$(mktemp -d /tmp/wss.XXXXXX)
mkdir -p "$H/run" "$H/config/workoutd" && chmod 700 "$H/run"
export HOME=$H XDG_RUNTIME_DIR=$H/run XDG_DATA_HOME=$H/data XDG_STATE_HOME=$H/state XDG_CONFIG_HOME=$H/config TZ=Europe/Zurich
cat > "$H/config/workoutd/config.json" <<'CFG'
{"feeds": [{"kind": "socket", "path": "$XDG_RUNTIME_DIR/workoutd/feed.sock"}], "web": {"listen": "127.0.0.1:0"},
 "timeZone": "Europe/Zurich", "age": 38, "heartRate": {"maxBpm": 186, "restingBpm": 52},
 "habits": [{"name": "run 3 times a week", "activities": ["running", "trail_running"], "times": 3, "per": "week"},
            {"name": "10 hours a month", "totalSeconds": 36000, "per": "month"}]}
CFG
"$ROOT/$BIN/workoutd" > "$H/log" 2>&1 & DPID=$!
trap 'kill $DPID 2>/dev/null; wait $DPID 2>/dev/null; rm -rf "$H"' EXIT
for _ in $(seq 2000); do [[ -S $H/run/workoutd/control.sock ]] && break; sleep 0.005; done
CTL=$ROOT/$BIN/workoutctl

# Real files, and a history of synthetic ones: GPX tracks around a lake, one a day or two.
"$CTL" import "$DATA"/fit/garmin-fenix-5-bike.fit "$DATA"/fit/garmin-fenix-5-run.fit "$DATA"/tcx/gtrnctr_power.tcx \
  "$DATA"/gpx/garmin-oregon-700-output.gpx "$DATA"/fit/2019-02-17-062644-ELEMNT-297E-195-0.fit >/dev/null
python3 - "$H/hist" <<'PY'
import math, os, sys, time
out = sys.argv[1]; os.makedirs(out)
now = time.time()
kinds = [("running", 3.1, 1800), ("cycling", 7.5, 3600), ("running", 3.3, 2700), ("walking", 1.4, 2400), ("hiking", 1.1, 5400)]
k = 0
for day in range(1, 92):
    if day % 7 in (2, 5) and day > 3 or (day * 37) % 11 == 0: continue
    kind, speed, secs = kinds[k % len(kinds)]; k += 1
    secs = int(secs * (0.5 + ((day * 53) % 10) / 8))
    start = now - day * 86400 - 3600 * (7 + (day % 5))
    lat0, lon0 = 47.30 + (k % 4) * 0.01, 8.60 + (k % 3) * 0.02
    pts = []
    for s in range(0, secs, 5):
        a = s * speed / 2500
        ele = 410 + 30 * math.sin(s / 600) + (k % 5) * 10
        hr = 120 + 30 * math.sin(s / 900) + (15 if kind != "walking" else -10)
        t = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start + s))
        pts.append('<trkpt lat="%.6f" lon="%.6f"><ele>%.1f</ele><time>%s</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>%d</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>'
                   % (lat0 + 0.012 * math.sin(a), lon0 + 0.018 * math.sin(a) * math.cos(a), ele, t, hr))
    with open("%s/%03d.gpx" % (out, day), "w") as f:
        f.write('<?xml version="1.0"?><gpx version="1.1" creator="w" xmlns="http://www.topografix.com/GPX/1/1" '
                'xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><type>%s</type><trkseg>%s</trkseg></trk></gpx>' % (kind, "".join(pts)))
PY
"$CTL" import "$H/hist" >/dev/null

# A ride recording now, for the live page.
"$CTL" start cycling >/dev/null
python3 - "$H/run/workoutd/feed.sock" <<'PY' &
import math, socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
t0 = time.time() - 900
for k in range(900 + 60):
    t = t0 + k
    a = k / 400
    line = '{"class":"FIX","time":"%s","lat":%.7f,"lon":%.7f,"alt":%.1f,"speed":7.2,"mode":3,"eph":4,"hr":%d}\n' % (
        time.strftime("%Y-%m-%dT%H:%M:%S.0Z", time.gmtime(t)), 47.36 + 0.01 * math.sin(a), 8.55 + 0.02 * a / 2.3, 420 + 10 * math.sin(k / 90), 135 + 10 * math.sin(k / 120))
    s.sendall(line.encode())
    if k >= 900: time.sleep(1)
PY
FEEDER=$!
sleep 3
URL=$("$CTL" open --print)
BASE=${URL%%/?token=*}
ID_BIKE=$("$CTL" --json list --activity cycling | python3 -c 'import json,sys; w=json.load(sys.stdin)["workouts"]; print(max(w, key=lambda x: x["pointCount"])["id"])')
ID_RUN=$("$CTL" --json list --activity running | python3 -c 'import json,sys; w=json.load(sys.stdin)["workouts"]; print(max(w, key=lambda x: x["distanceMeters"])["id"])')
rm -f "$OUT"/*.png
python3 Tests/IntegrationTests/Web/cdp_pages.py --screenshots "$OUT" --width 1280 \
  "$URL" "$BASE/workouts/$ID_BIKE" "$BASE/workouts/$ID_RUN?colour=hr" "$BASE/records" "$BASE/calendar" "$BASE/live"
cd "$OUT"
mv 00.png history.png; mv 01.png workout.png; mv 02.png workout-hr.png; mv 03.png records.png; mv 04.png calendar.png; mv 05.png live.png
kill $FEEDER 2>/dev/null || true
"$CTL" stop >/dev/null || true
ls -la "$OUT"
