#!/usr/bin/env python3
"""An independent statement of docs/streaks.md ("Habits") in Python terms: zone rules from
zoneinfo, local dates as datetime.date, and a period-by-period walk where each missed due period
either spends a skip of its bucket or ends the streak. Shares no code with the Swift engine.

Reads {"cases": [...]} as JSON on stdin (see HabitReferenceTests.swift), writes one result per
case as {"results": [...]} on stdout."""
import json
import math
import sys
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

ZONES = {}


def zone(name):
    if name not in ZONES:
        ZONES[name] = ZoneInfo(name)
    return ZONES[name]


def local(t, zone_name, offset, day_start):
    """(streak day, seconds into the streak day) of instant t."""
    tz = timezone(timedelta(seconds=offset)) if offset is not None else zone(zone_name)
    wall = datetime.fromtimestamp(t, tz).replace(tzinfo=None) - timedelta(hours=day_start)
    return wall.date(), wall.hour * 3600 + wall.minute * 60 + wall.second


def sunday_weekday(d):
    return (d.weekday() + 1) % 7  # 0 = Sunday


def week_first(d, week_start):
    return d - timedelta(days=(sunday_weekday(d) - week_start) % 7)


def period_key(d, per, week_start):
    if per == "day":
        return d
    if per == "week":
        return week_first(d, week_start)
    return date(d.year, d.month, 1)


def next_period(k, per):
    if per == "day":
        return k + timedelta(days=1)
    if per == "week":
        return k + timedelta(days=7)
    return date(k.year + (k.month == 12), k.month % 12 + 1, 1)


def period_last_day(k, per):
    return next_period(k, per) - timedelta(days=1)


def bucket(k, per, week_start):
    if per == "day":
        return ("w", week_first(k, week_start))
    if per == "week":
        return ("m", k.year, k.month)
    return ("y", k.year)


def pos(minute, day_start):
    return (minute - day_start * 60) % 1440


def evaluate(c):
    h = c["habit"]
    ds, ws, zn = c["dayStartHour"], c["weekStart"], c["zone"]
    per = h["per"]
    weekdays = set(h["weekdays"])
    due_day = lambda d: not weekdays or sunday_weekday(d) in weekdays
    win = None
    if h["window"] is not None:
        f, t = pos(h["window"][0], ds), pos(h["window"][1], ds)
        win = (f, 1440 if t == 0 else t)
    kind, amount = h["target"]
    today, now_into = local(c["now"], zn, None, ds)
    cur_key = period_key(today, per, ws)

    progress = {}
    for w in c["history"]:
        if w["duration"] < h["minimumSeconds"]:
            continue
        if h["minimumMeters"] > 0 and w["distance"] < h["minimumMeters"]:
            continue
        if h["activities"] and w["activity"] not in h["activities"]:
            continue
        d, into = local(w["start"], zn, w["offset"], ds)
        if d > today or not due_day(d):
            continue
        if win is not None and not (win[0] * 60 <= into < win[1] * 60):
            continue
        value = 1 if kind == "count" else (w["distance"] if kind == "distance" else w["duration"])
        k = period_key(d, per, ws)
        progress[k] = progress.get(k, 0) + value

    if per == "day":
        n_due = len(weekdays) if weekdays else 7
        budget = min(h["skips"], n_due - 1)
    else:
        budget = min(h["skips"], 3 if per == "week" else 11)

    def due(k):
        return per != "day" or due_day(k)

    met = lambda k: progress.get(k, 0) >= amount
    cur = best = None
    pending = 0
    used = {}
    met_keys = sorted(k for k in progress if met(k))
    if met_keys:
        k = met_keys[0]
        while k <= cur_key:
            if not due(k):
                pass
            elif met(k):
                if cur is None:
                    cur = {"first": k, "last": k, "length": 1, "skips": 0, "total": progress[k]}
                    used = {}
                else:
                    cur = dict(cur, last=k, length=cur["length"] + 1, skips=cur["skips"] + pending,
                               total=cur["total"] + progress[k])
                pending = 0
                if best is None or cur["length"] > best["length"]:
                    best = cur
            elif k != cur_key and cur is not None:
                b = bucket(k, per, ws)
                if used.get(b, 0) < budget:
                    used[b] = used.get(b, 0) + 1
                    pending += 1
                else:
                    cur, pending = None, 0
            k = next_period(k, per)

    done = met(cur_key)
    due_today = due_day(today)
    coverable = cur is not None and not done and due(cur_key) and used.get(bucket(cur_key, per, ws), 0) < budget
    last_day = period_last_day(cur_key, per)
    due_left, d = 0, today
    while d <= last_day:
        due_left += due_day(d)
        d += timedelta(days=1)
    left = max(0, amount - progress.get(cur_key, 0))

    def streak(s):
        if s is None:
            return None
        return [s["first"].isoformat(), period_last_day(s["last"], per).isoformat(), s["length"], s["skips"], s["total"]]

    # The at-risk decision, in the documented order.
    last = c["lastWarned"]
    if last is not None and date.fromisoformat(last) >= cur_key:
        risk = "alreadyWarned"
    elif done:
        risk = "done"
    elif cur is None:
        risk = "noStreak"
    elif coverable:
        risk = "skipAvailable"
    elif not due_today:
        risk = "notDueToday"
    else:
        deadline = 1440 if win is None else win[1]
        if win is not None:
            hours = max(1, math.ceil(h["minimumSeconds"] / 3600))
            remind = max(win[0], win[1] - hours * 60)
        else:
            remind = pos(c["defaultRemindMinute"], ds)
        if h["remindAt"] is not None:
            remind = pos(h["remindAt"], ds)
        remind = min(remind, deadline - 1)
        needed = math.ceil(left) if kind == "count" else 1
        if now_into >= deadline * 60:
            risk = "windowClosed"
        elif due_left > needed:
            risk = "notUrgent"
        elif now_into < remind * 60:
            risk = "beforeReminder"
        else:
            risk = "warn:%d:%d" % (due_left, (deadline * 60 - now_into + 59) // 60)

    return {"today": today.isoformat(), "periodStart": cur_key.isoformat(), "periodEnd": last_day.isoformat(),
            "progress": progress.get(cur_key, 0), "done": done, "dueToday": due_today, "dueDaysLeft": due_left,
            "current": streak(cur), "best": streak(best), "trailing": pending if cur is not None else 0,
            "coverable": coverable, "risk": risk}


def main():
    cases = json.load(sys.stdin)["cases"]
    json.dump({"results": [evaluate(c) for c in cases]}, sys.stdout)


if __name__ == "__main__":
    main()
