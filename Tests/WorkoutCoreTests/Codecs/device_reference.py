#!/usr/bin/env python3
"""What the device said of each workout in an activity file: the figures DeviceCorpusTests
compares workoutd's import with (docs/metrics.md, "Every shared device file").

    device_reference.py FILE...   one JSON object per file, one per line:
      format         "fit", "gpx" or "tcx"
      sessions       per workout the file holds (a FIT session; a TCX file's laps; a GPX track):
        start          Unix seconds (FIT start_time; else the first timed point)
        elapsed        FIT total_elapsed_time; else the last timed point minus the first, or
                       minus the GPX metadata time when the file states its start up to 600 s
                       before its first point (an activity's start before its first fix)
        timer          FIT total_timer_time; TCX the laps' TotalTimeSeconds; GPX null
        distance       FIT total_distance; TCX the laps' DistanceMeters; GPX null. Null too for a
                       TCX file whose laps state more than twice its trackpoints' span and a
                       minute (a track cut short: the laps are not its track's); the timer null
                       too where the laps' time exceeds the track's span (a timer cannot run
                       longer than the clock: a sample cut out of a longer file)
        heart_rate     FIT avg_heart_rate; else the mean of the points' heart rates
        power          FIT avg_power; else the mean of the points' watts
        cadence        running or walking only: steps per minute, 2 x (FIT avg_cadence +
                       avg_fractional_cadence); else null
        positioned     FIT: the records with a position inside the session's span: from
                       start_time to start_time + total_elapsed_time and one second (records
                       hold whole seconds), short of the next session's start; else the points
        sport          FIT sport/sub_sport, TCX Sport, GPX type
        ascent         FIT total_ascent (m); GPX gpxpy's get_uphill_downhill() uphill over the
                       file's tracks; else null
FIT through Garmin's FIT SDK (garmin-fit-sdk), GPX through gpxpy, TCX through ElementTree (as
../shared/data/corpus/make_references.py reads them).
"""
import datetime as dt
import gzip
import json
import statistics
import sys
import xml.etree.ElementTree as ET

FIT_EPOCH = 631065600
SEMI = 180.0 / 2 ** 31


def opened(path):
    raw = open(path, "rb").read()
    return gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw


def mean(xs):
    return statistics.mean(xs) if xs else None


def do_fit(raw):
    from garmin_fit_sdk import Decoder, Stream
    # No CRC check: a CRC the SDK computes in Python byte by byte is 30 % of this script's CPU,
    # and the figures are the messages, which a file's CRC does not change (fit_reference.py,
    # FITImportTests, checks the CRCs against the SDK).
    m, _ = Decoder(Stream.from_byte_array(bytearray(raw))).read(convert_datetimes_to_dates=False, enable_crc_check=False)
    records = m.get("record_mesgs", [])
    out = []
    sessions = sorted([s for s in m.get("session_mesgs", []) if s.get("start_time") is not None], key=lambda s: s["start_time"])
    for k, s in enumerate(sessions):
        start = s["start_time"]
        elapsed = s.get("total_elapsed_time")
        end = start + elapsed + 1 if elapsed is not None else (s.get("timestamp") or start) + 1
        following = sessions[k + 1]["start_time"] if k + 1 < len(sessions) else float("inf")
        inside = [r for r in records if r.get("timestamp") is not None and start <= r["timestamp"] <= end and r["timestamp"] < following]
        positioned = [r for r in inside if r.get("position_lat") is not None and r.get("position_long") is not None]
        sport = str(s.get("sport"))
        cadence = None
        if sport in ("running", "walking") and s.get("avg_cadence") is not None:
            cadence = 2 * (s["avg_cadence"] + (s.get("avg_fractional_cadence") or 0))
        out.append({
            "start": start + FIT_EPOCH, "elapsed": elapsed, "timer": s.get("total_timer_time"),
            "distance": s.get("total_distance"), "heart_rate": s.get("avg_heart_rate"), "power": s.get("avg_power"),
            "cadence": cadence, "positioned": len(positioned), "sport": f"{sport}/{s.get('sub_sport')}",
            "ascent": s.get("total_ascent"),
            "records_heart_rate": mean([r["heart_rate"] for r in inside if r.get("heart_rate") is not None]),
        })
    return out


def span(times):
    ts = sorted(t.timestamp() for t in times if t is not None and t.year >= 1990)
    return (ts[0], ts[-1] - ts[0]) if ts else (None, None)


def do_gpx(raw):
    import gpxpy
    g = gpxpy.parse(raw.decode("utf-8-sig"))
    times, hrs, watts, n = [], [], [], 0
    for t in g.tracks:
        for seg in t.segments:
            for p in seg.points:
                n += 1
                times.append(p.time)
                for e in p.extensions:
                    for el in e.iter():
                        tag = el.tag.split("}")[-1].lower()
                        try:
                            if tag == "hr" and el.text:
                                hrs.append(float(el.text))
                            if tag in ("power", "watts") and el.text:
                                watts.append(float(el.text))
                        except ValueError:
                            pass
    start, elapsed = span(times)
    stated = g.time.timestamp() if g.time is not None else None
    if start is not None and stated is not None and start - 600 <= stated < start:
        elapsed += start - stated
        start = stated
    types = sorted({t.type for t in g.tracks if t.type})
    uphill = sum(t.get_uphill_downhill().uphill or 0 for t in g.tracks) if any(p.elevation is not None for t in g.tracks for s in t.segments for p in s.points) else None
    return [{"start": start, "elapsed": elapsed, "timer": None, "distance": None, "heart_rate": mean(hrs),
             "power": mean(watts), "cadence": None, "positioned": n, "sport": ";".join(types), "ascent": uphill}]


def do_tcx(raw):
    L = lambda e: e.tag.split("}")[-1]
    root = ET.fromstring(raw)
    out = []
    for a in [e for e in root.iter() if L(e) == "Activity"]:
        timer = distance = 0.0
        times, hrs, watts, n = [], [], [], 0
        for lap in [c for c in a if L(c) == "Lap"]:
            for c in lap:
                if L(c) == "TotalTimeSeconds":
                    timer += float(c.text)
                elif L(c) == "DistanceMeters":
                    distance += float(c.text)
            for tp in [e for e in lap.iter() if L(e) == "Trackpoint"]:
                for c in tp:
                    if L(c) == "Time":
                        times.append(dt.datetime.fromisoformat(c.text.strip().replace("Z", "+00:00")))
                    elif L(c) == "Position":
                        n += 1
                    elif L(c) == "HeartRateBpm":
                        hrs += [float(v.text) for v in c if L(v) == "Value"]
                for e in tp.iter():
                    if L(e) == "Watts" and e.text:
                        watts.append(float(e.text))
        start, elapsed = span(times)
        if elapsed is not None and timer > 2 * elapsed + 60:
            timer = distance = None
        elif elapsed is not None and timer > 1.01 * elapsed + 2:
            timer = None
        out.append({"start": start, "elapsed": elapsed, "timer": timer, "distance": distance, "heart_rate": mean(hrs),
                    "power": mean(watts), "cadence": None, "positioned": n, "sport": a.get("Sport") or ""})
    return out


for path in sys.argv[1:]:
    raw = opened(path)
    if raw[8:12] == b".FIT":
        kind, sessions = "fit", do_fit(raw)
    elif b"TrainingCenterDatabase" in raw[:1024]:
        kind, sessions = "tcx", do_tcx(raw)
    else:
        kind, sessions = "gpx", do_gpx(raw)
    print(json.dumps({"format": kind, "sessions": sessions}))
