#!/usr/bin/env python3
"""Power, cadence, speed and distance in a FIT file as Garmin's FIT SDK (garmin-fit-sdk) reads
them, for the sensor export tests.

    fit_power.py FILE   one JSON object:
      integrity   Decoder.check_integrity()
      errors      the decoder's errors, as text
      records     [[timestamp (FIT s), power, cadence, heart_rate, distance (m), speed (m/s)], ...]
                  in file order (null where the record has none)
      sessions    [{sport, sub_sport, avg_power, max_power, normalized_power, avg_cadence,
                    total_distance, total_work, training_stress_score, intensity_factor,
                    threshold_power}]
      texts       [{name: text}] per session: its developer fields, by their field_description names
"""
import json
import sys

from garmin_fit_sdk import Decoder, Stream

SESSION_KEYS = ("sport", "sub_sport", "avg_power", "max_power", "normalized_power", "avg_cadence", "max_cadence",
                "total_distance", "total_work", "training_stress_score", "intensity_factor", "threshold_power")


def plain(v):
    return v if isinstance(v, (int, float)) or v is None else str(v)


def main(path):
    integrity = Decoder(Stream.from_file(path)).check_integrity()
    messages, errors = Decoder(Stream.from_file(path)).read(convert_datetimes_to_dates=False)
    records = [[r.get("timestamp"), r.get("power"), r.get("cadence"), r.get("heart_rate"), r.get("distance"),
                r.get("enhanced_speed", r.get("speed"))]
               for r in messages.get("record_mesgs", [])]
    sessions = [{k: plain(s.get(k)) for k in SESSION_KEYS} for s in messages.get("session_mesgs", [])]
    names = {d.get("key"): d.get("field_name") for d in messages.get("field_description_mesgs", [])}
    texts = [{names.get(k, str(k)): plain(v) for k, v in s.get("developer_fields", {}).items()}
             for s in messages.get("session_mesgs", [])]
    print(json.dumps({"integrity": bool(integrity), "errors": [str(e) for e in errors], "records": records,
                      "sessions": sessions, "texts": texts}))


if __name__ == "__main__":
    main(sys.argv[1])
