#!/usr/bin/env python3
"""Compares workoutd's FIT import with Garmin's FIT SDK (garmin-fit-sdk), the oracle.

    scripts/fit-oracle.py [FILE.fit ...]     (default: every FIT activity in ../shared/data/fit)
    BIN=.build/debug scripts/fit-oracle.py   (the binaries; default .build-release/release)
    --markdown                               print the table as Markdown (docs/metrics.md)

Starts a fresh daemon with an empty history in a temp dir, imports each file with
`workoutctl --json import`, reads each workout with `show`, and compares, session by session
(a workout is matched to the session that starts within 2 s of it):

  distance   our distanceMeters       vs the session's total_distance   (pass: within 0.5 %)
  timer      our elapsedSeconds       vs the session's total_timer_time (pass: within 1 %)
             (workoutd's elapsed time is the wall span minus the pauses, and a device's timer
             stops are imported as pauses: it is the device's timer time)
  wall       endedAt - startedAt      vs the session's total_elapsed_time (shown, not judged)
  calories   our calories             vs the session's total_calories   (pass: within 10 %, where present)
  fixes      our accepted points      vs the SDK's records with a position in that session
             (pass: at least 95 %)
  sessions   every session of the file is a workout (transitions too)

A file the SDK reads with errors (CRC, an undefined local type, a truncation) is judged on
what the SDK decodes, and workoutd must warn (the SDK's "compressed timestamp messages are not
currently supported" is its own limit, not damage). Each file goes into an empty history (the
shared files repeat one activity). Exit status 1 when any check fails.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

from garmin_fit_sdk import Decoder, Stream

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("BIN", os.path.join(ROOT, ".build-release/release"))
if not os.path.isabs(BIN):
    BIN = os.path.join(ROOT, BIN)
SHARED = os.environ.get("SHARED", os.path.join(ROOT, "../shared/data"))
FIT_EPOCH = 631065600


def sdk(path):
    messages, errors = Decoder(Stream.from_file(path)).read(convert_datetimes_to_dates=False)
    return messages, [str(e) for e in errors]


def ctl(env, *args):
    r = subprocess.run([os.path.join(BIN, "workoutctl"), "--json", *args], env=env, capture_output=True, text=True, timeout=600)
    try:
        return json.loads(r.stdout)  # `import` exits 1 when a file fails, with its results
    except ValueError:
        raise RuntimeError(f"workoutctl {' '.join(args)}: {r.stderr.strip()}")


def pct(ours, ref):
    if ref is None or ours is None:
        return None
    if ref == 0:
        return 0.0 if abs(ours) < 1e-9 else float("inf")
    return 100.0 * (ours - ref) / ref


def main(argv):
    markdown = "--markdown" in argv
    files = [a for a in argv if not a.startswith("--")]
    if not files:
        d = os.path.join(SHARED, "fit")
        files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".fit"))
    rows, failures = [], 0
    daemon = None
    home = None

    def fresh_daemon():
        """A daemon with an empty history (the shared files repeat one activity: each must be
        imported, not found a duplicate of the one before)."""
        nonlocal daemon, home
        stop_daemon()
        home = tempfile.mkdtemp(prefix="wfo.", dir="/tmp")
        os.makedirs(home + "/run", mode=0o700)
        env = dict(os.environ, HOME=home, XDG_RUNTIME_DIR=home + "/run", XDG_DATA_HOME=home + "/data",
                   XDG_STATE_HOME=home + "/state", XDG_CONFIG_HOME=home + "/config")
        daemon = subprocess.Popen([os.path.join(BIN, "workoutd")], env=env, stdout=open(home + "/log", "w"), stderr=subprocess.STDOUT)
        for _ in range(400):
            if os.path.exists(home + "/run/workoutd/control.sock"):
                break
            time.sleep(0.025)
        return env

    def stop_daemon():
        if daemon is not None:
            daemon.terminate()
            daemon.wait()
            subprocess.run(["rm", "-rf", home])

    try:
        for path in files:
            name = os.path.basename(path)
            messages, errors = sdk(path)
            # The SDK stops at compressed-timestamp headers, which it does not support: not damage.
            errors = [e for e in errors if "Compressed timestamp messages are not currently supported" not in e]
            file_types = [str(f.get("type")) for f in messages.get("file_id_mesgs", [])]
            if file_types and file_types[0] != "activity":
                continue  # monitoring, settings: refused by name (tested elsewhere)
            sessions = messages.get("session_mesgs", [])
            records = messages.get("record_mesgs", [])
            env = fresh_daemon()
            results = ctl(env, "import", path)["results"]
            imported = [r for r in results if r.get("id")]
            warnings = [w for r in results for w in r.get("warnings", [])]
            workouts = [ctl(env, "show", r["id"]) for r in imported]
            workouts = [w.get("workout", w) for w in workouts]
            if not sessions:
                ok = bool(workouts) or not any(r.get("position_lat") is not None for r in records)
                rows.append((name, "-", "no session", "", "", "", "", "", "", "pass" if ok else "FAIL"))
                failures += 0 if ok else 1
                continue
            for k, s in enumerate(sessions):
                start = s.get("start_time", 0) + FIT_EPOCH
                end = start + (s.get("total_elapsed_time") or 0)
                w = next((w for w in workouts if abs(iso(w["startedAt"]) - start) <= 2), None)
                positioned = sum(1 for r in records if r.get("position_lat") is not None and r.get("position_long") is not None
                                 and start <= r["timestamp"] + FIT_EPOCH <= end + 1)
                label = f"{k + 1}/{len(sessions)} {s.get('sport')}" + (f"/{s.get('sub_sport')}" if s.get("sub_sport") not in (None, "generic") else "")
                if w is None:
                    rows.append((name, label, "no workout", "", "", "", "", "", "", "FAIL"))
                    failures += 1
                    continue
                checks = []
                dist = s.get("total_distance")
                d = pct(w["distanceMeters"], dist)
                if d is not None:
                    checks.append(abs(d) <= 0.5)
                timer = s.get("total_timer_time")
                t = pct(w["elapsedSeconds"], timer)
                if t is not None:
                    checks.append(abs(t) <= 1.0)
                wall = (iso(w["endedAt"]) - iso(w["startedAt"])) if w.get("endedAt") else None
                cal = s.get("total_calories")
                c = pct(w.get("calories"), cal) if cal else None
                if cal:
                    checks.append(c is not None and abs(c) <= 10)
                fixes = w.get("acceptedCount", 0)
                if positioned:
                    checks.append(fixes >= 0.95 * positioned)
                if errors:
                    checks.append(bool(warnings))
                ok = all(checks)
                failures += 0 if ok else 1
                rows.append((name, label,
                             f"{w['distanceMeters']:.0f} / {dist:.0f} ({d:+.2f} %)" if d is not None else f"{w['distanceMeters']:.0f} / -",
                             f"{w['elapsedSeconds']:.0f} / {timer:.0f} ({t:+.2f} %)" if t is not None else "-",
                             f"{wall:.0f} / {s.get('total_elapsed_time'):.0f}" if wall is not None and s.get("total_elapsed_time") else "-",
                             f"{w.get('calories'):.0f} / {cal} ({c:+.1f} %)" if c is not None else (f"- / {cal}" if cal else "-"),
                             f"{fixes} / {positioned}",
                             w.get("distanceSource", "gps"),
                             ("SDK: " + errors[0][:60] + "; ours: " + (warnings[0][:80] if warnings else "no warning")) if errors else "",
                             "pass" if ok else "FAIL"))
    finally:
        stop_daemon()
    head = ("file", "session", "distance m (ours / device)", "timer s (elapsed / total_timer_time)", "wall s (ours / total_elapsed_time)",
            "kcal (ours / device)", "fixes (ours / SDK)", "distanceSource", "damage", "")
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in rows:
            print("| " + " | ".join(str(x) for x in r) + " |")
    else:
        for r in [head] + rows:
            print("  ".join(str(x) for x in r))
    print(f"{len(rows)} sessions, {failures} failed", file=sys.stderr)
    return 1 if failures else 0


def iso(text):
    from datetime import datetime
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
