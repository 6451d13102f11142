#!/usr/bin/env python3
"""The figures the FIT tests compare with, from Garmin's FIT SDK (garmin-fit-sdk) and geographiclib.

    fit_reference.py [--no-geodesic] FILE...   one JSON object per file, one per line:
      integrity      Decoder.check_integrity()
      errors         the decoder's errors, as text
      file_types     file_id.type of each file_id message
      records        record messages; positioned: those with position_lat and position_long
      geodesic       WGS84 geodesic length (geographiclib) through the positioned records in order
      geodesic_running  the same without the steps that span a time the device's timer was
                     stopped (timer stop -> start events): what workoutd measures, as it
                     imports those spans as pauses
                     (both null with --no-geodesic: a third of the CPU on a large file)
      hr_sum/hr_count, power_sum/power_count   over the positioned records that carry them
      sessions       [start (Unix s), total_elapsed_time, total_timer_time, sport, total_distance,
                     total_calories, sub_sport, num_lengths] per session
      laps           number of lap messages
"""
import json
import sys
from bisect import bisect_right

from garmin_fit_sdk import Decoder, Stream
from geographiclib.geodesic import Geodesic

SEMI = 180.0 / 2 ** 31


def figures(path, geodesic=True):
    integrity = Decoder(Stream.from_file(path)).check_integrity()
    messages, errors = Decoder(Stream.from_file(path)).read(convert_datetimes_to_dates=False)
    records = messages.get("record_mesgs", [])
    pos = [r for r in records if r.get("position_lat") is not None and r.get("position_long") is not None]
    g = Geodesic.WGS84
    stopped, since = [], None
    timer = sorted((e["timestamp"], e.get("event_type")) for e in messages.get("event_mesgs", [])
                   if e.get("event") == "timer" and e.get("timestamp") is not None)
    for t, kind in timer:
        if kind == "start":
            if since is not None and t > since:
                stopped.append((since, t))
            since = None
        elif kind in ("stop", "stop_all", "stop_disable", "stop_disable_all") and since is None:
            since = t
    if since is not None:
        stopped.append((since, float("inf")))
    # A step (ta, tb) spans a stopped time when min(e, tb) > max(s, ta) for a stopped (s, e).
    # The stopped spans are sorted and disjoint (s < e <= the next s), so their ends are sorted
    # too and the only candidate is the first span ending after ta: a bisection, not a scan of
    # every span for every step (1.5 s of a 700 KB file's 4 s).
    ends = [e for _, e in stopped]
    length = running = 0.0
    for a, b in zip(pos, pos[1:]) if geodesic else ():
        d = g.Inverse(a["position_lat"] * SEMI, a["position_long"] * SEMI,
                      b["position_lat"] * SEMI, b["position_long"] * SEMI, Geodesic.DISTANCE)["s12"]
        length += d
        ta, tb = a["timestamp"], b["timestamp"]
        k = bisect_right(ends, ta)
        if not (k < len(stopped) and tb > ta and stopped[k][0] < tb):
            running += d
    hr = [r["heart_rate"] for r in pos if r.get("heart_rate") is not None]
    power = [r["power"] for r in pos if r.get("power") is not None]
    fit_epoch = 631065600
    sessions = [[s.get("start_time", 0) + fit_epoch, s.get("total_elapsed_time"), s.get("total_timer_time"), str(s.get("sport")),
                 s.get("total_distance"), s.get("total_calories"), str(s.get("sub_sport")), s.get("num_lengths")]
                for s in messages.get("session_mesgs", [])]
    return {
        "integrity": bool(integrity), "errors": [str(e) for e in errors],
        "file_types": [str(f.get("type")) for f in messages.get("file_id_mesgs", [])],
        "records": len(records), "positioned": len(pos), "geodesic": length if geodesic else None, "geodesic_running": running if geodesic else None,
        "hr_sum": sum(hr), "hr_count": len(hr), "power_sum": sum(power), "power_count": len(power),
        "sessions": sessions, "laps": len(messages.get("lap_mesgs", [])),
        "events": len(messages.get("event_mesgs", [])),
        "lengths": len(messages.get("length_mesgs", [])),
    }


args = sys.argv[1:]
with_geodesic = "--no-geodesic" not in args
for p in (a for a in args if a != "--no-geodesic"):
    print(json.dumps(figures(p, with_geodesic)))
