#!/usr/bin/env python3
"""Heart rate in a FIT file as Garmin's FIT SDK (garmin-fit-sdk) reads it, for the heart-rate
export tests.

    fit_heart_rate.py FILE   one JSON object:
      integrity   Decoder.check_integrity()
      errors      the decoder's errors, as text
      records     [[timestamp (FIT s), heart_rate or null, has position (bool)], ...] in file order
      sessions    [{sport, sub_sport, avg_heart_rate, max_heart_rate, start_time, total_elapsed_time}]
      laps        [[avg_heart_rate, max_heart_rate], ...]
"""
import json
import sys

from garmin_fit_sdk import Decoder, Stream


def main(path):
    integrity = Decoder(Stream.from_file(path)).check_integrity()
    messages, errors = Decoder(Stream.from_file(path)).read(convert_datetimes_to_dates=False)
    records = [[r.get("timestamp"), r.get("heart_rate"),
                r.get("position_lat") is not None and r.get("position_long") is not None]
               for r in messages.get("record_mesgs", [])]
    sessions = [{k: (s.get(k) if isinstance(s.get(k), (int, float)) or s.get(k) is None else str(s.get(k)))
                 for k in ("sport", "sub_sport", "avg_heart_rate", "max_heart_rate", "start_time", "total_elapsed_time")}
                for s in messages.get("session_mesgs", [])]
    laps = [[l.get("avg_heart_rate"), l.get("max_heart_rate")] for l in messages.get("lap_mesgs", [])]
    print(json.dumps({"integrity": bool(integrity), "errors": [str(e) for e in errors], "records": records,
                      "sessions": sessions, "laps": laps}))


if __name__ == "__main__":
    main(sys.argv[1])
