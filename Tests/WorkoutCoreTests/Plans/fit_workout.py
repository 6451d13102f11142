#!/usr/bin/env python3
"""FIT workout files written and read by Garmin's FIT SDK (garmin-fit-sdk), for the plan tests.

    fit_workout.py encode OUT   reads a JSON list of messages on stdin, each {"mesg_num": N, FIELD: VALUE, ...}
                                with the profile's field names (enum values by name), and writes them with
                                the SDK's Encoder to OUT (header, definitions, CRC: all the SDK's)
    fit_workout.py decode FILE  one JSON object as the SDK reads the file:
      integrity   Decoder.check_integrity()
      errors      the decoder's errors, as text
      file_type   file_id.type
      workout     the workout message's fields
      steps       the workout_step messages' fields, sub-fields expanded (duration_time in s,
                  duration_distance in m, custom_target_power_low, repeat_steps, ...)
      laps        each lap message's wkt_step_index (an activity that followed a workout)
"""
import json
import sys

from garmin_fit_sdk import Decoder, Encoder, Stream


def plain(v):
    return v if isinstance(v, (int, float, str)) or v is None else str(v)


def encode(path):
    encoder = Encoder()
    for mesg in json.load(sys.stdin):
        encoder.write_mesg(mesg)
    with open(path, "wb") as f:
        f.write(encoder.close())


def decode(path):
    integrity = Decoder(Stream.from_file(path)).check_integrity()
    messages, errors = Decoder(Stream.from_file(path)).read(convert_datetimes_to_dates=False)
    file_ids = messages.get("file_id_mesgs", [])
    workouts = messages.get("workout_mesgs", [])
    print(json.dumps({
        "integrity": bool(integrity),
        "errors": [str(e) for e in errors],
        "file_type": plain(file_ids[0].get("type")) if file_ids else None,
        "workout": {k: plain(v) for k, v in workouts[0].items()} if workouts else None,
        "steps": [{k: plain(v) for k, v in s.items()} for s in messages.get("workout_step_mesgs", [])],
        "laps": [plain(lap.get("wkt_step_index")) for lap in messages.get("lap_mesgs", [])],
    }))


if __name__ == "__main__":
    {"encode": encode, "decode": decode}[sys.argv[1]](sys.argv[2])
