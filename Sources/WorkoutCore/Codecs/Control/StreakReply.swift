/// The `streak` reply's object (docs/streaks.md, "JSON"): the daily and weekly streaks, today,
/// the time zone and one entry per habit. Typed once: the daemon writes it (`json()`),
/// workoutctl and the status bar read it (`init(json:)`). Keys in the order the daemon writes
/// them; never renamed. Days are `YYYY-MM-DD` in the streak's time zone.
public struct StreakReply: Sendable, Equatable {
    public struct Daily: Sendable, Equatable {
        public var current: Int
        public var best: Int
        public var currentStart: String?
        public var currentEnd: String?
        public var bestStart: String?
        public var bestEnd: String?
        /// Nil from a reply that does not say.
        public var todayDone: Bool?
        public var restDaysUsed: Int

        public init(current: Int, best: Int, currentStart: String?, currentEnd: String?, bestStart: String?, bestEnd: String?,
                    todayDone: Bool?, restDaysUsed: Int) {
            self.current = current; self.best = best; self.currentStart = currentStart; self.currentEnd = currentEnd
            self.bestStart = bestStart; self.bestEnd = bestEnd; self.todayDone = todayDone; self.restDaysUsed = restDaysUsed
        }
    }

    public struct Weekly: Sendable, Equatable {
        public var current: Int
        public var best: Int
        public var currentStart: String?
        public var bestStart: String?
        public var bestEnd: String?
        public var workoutsThisWeek: Int
        public var target: Int

        public init(current: Int, best: Int, currentStart: String?, bestStart: String?, bestEnd: String?, workoutsThisWeek: Int, target: Int) {
            self.current = current; self.best = best; self.currentStart = currentStart; self.bestStart = bestStart; self.bestEnd = bestEnd
            self.workoutsThisWeek = workoutsThisWeek; self.target = target
        }
    }

    /// One configured habit where it stands (docs/streaks.md, "Habits").
    public struct Habit: Sendable, Equatable {
        public var name: String
        /// `day`, `week`, `month`.
        public var per: String
        public var activities: [String]
        public var kind: String
        public var target: Double
        public var progress: Double
        public var left: Double
        /// What is left in words ("2.5 km left"); nil from a reply without it.
        public var leftText: String?
        public var done: Bool
        /// Nil from a reply that does not say (read as due).
        public var dueToday: Bool?
        public var daysToGo: Int?
        public var periodStart: String?
        public var periodEnd: String?
        public var current: Int
        public var best: Int
        public var currentStart: String?
        public var currentEnd: String?
        public var bestStart: String?
        public var bestEnd: String?
        public var skipsUsed: Int
        public var skipAvailable: Bool
        public var atRisk: Bool

        public init(name: String, per: String, activities: [String], kind: String, target: Double, progress: Double, left: Double,
                    leftText: String?, done: Bool, dueToday: Bool?, daysToGo: Int?, periodStart: String?, periodEnd: String?,
                    current: Int, best: Int, currentStart: String?, currentEnd: String?, bestStart: String?, bestEnd: String?,
                    skipsUsed: Int, skipAvailable: Bool, atRisk: Bool) {
            self.name = name; self.per = per; self.activities = activities; self.kind = kind; self.target = target
            self.progress = progress; self.left = left; self.leftText = leftText; self.done = done; self.dueToday = dueToday
            self.daysToGo = daysToGo; self.periodStart = periodStart; self.periodEnd = periodEnd; self.current = current
            self.best = best; self.currentStart = currentStart; self.currentEnd = currentEnd; self.bestStart = bestStart
            self.bestEnd = bestEnd; self.skipsUsed = skipsUsed; self.skipAvailable = skipAvailable; self.atRisk = atRisk
        }
    }

    public var daily: Daily?
    public var weekly: Weekly?
    public var today: String?
    public var timeZone: String?
    public var habits: [Habit]

    public init(daily: Daily?, weekly: Weekly?, today: String?, timeZone: String?, habits: [Habit]) {
        self.daily = daily; self.weekly = weekly; self.today = today; self.timeZone = timeZone; self.habits = habits
    }

    public func json() -> JSON {
        var o = JSONObject()
        if let d = daily {
            o["daily"] = [
                "current": .int(d.current), "best": .int(d.best), "currentStart": .string(d.currentStart), "currentEnd": .string(d.currentEnd),
                "bestStart": .string(d.bestStart), "bestEnd": .string(d.bestEnd), "todayDone": d.todayDone.map(JSON.bool) ?? .null,
                "restDaysUsed": .int(d.restDaysUsed),
            ]
        }
        if let w = weekly {
            o["weekly"] = [
                "current": .int(w.current), "best": .int(w.best), "currentStart": .string(w.currentStart), "bestStart": .string(w.bestStart),
                "bestEnd": .string(w.bestEnd), "workoutsThisWeek": .int(w.workoutsThisWeek), "target": .int(w.target),
            ]
        }
        o["today"] = .string(today)
        o["timeZone"] = .string(timeZone)
        o["habits"] = .array(habits.map { h in
            [
                "name": .string(h.name), "per": .string(h.per), "activities": .array(h.activities.map { .string($0) }),
                "kind": .string(h.kind), "target": .number(h.target), "progress": .number(h.progress), "left": .number(h.left),
                "leftText": .string(h.leftText), "done": .bool(h.done), "dueToday": h.dueToday.map(JSON.bool) ?? .null,
                "daysToGo": .int(h.daysToGo), "periodStart": .string(h.periodStart), "periodEnd": .string(h.periodEnd),
                "current": .int(h.current), "best": .int(h.best), "currentStart": .string(h.currentStart), "currentEnd": .string(h.currentEnd),
                "bestStart": .string(h.bestStart), "bestEnd": .string(h.bestEnd), "skipsUsed": .int(h.skipsUsed),
                "skipAvailable": .bool(h.skipAvailable), "atRisk": .bool(h.atRisk),
            ]
        })
        return .object(o)
    }

    /// Reads the object. Tolerant: what is missing is nil, zero or empty.
    public init(json s: JSON) {
        daily = s["daily"].flatMap { d in
            d.objectValue == nil ? nil : Daily(
                current: d["current"]?.intValue ?? 0, best: d["best"]?.intValue ?? 0, currentStart: d["currentStart"]?.stringValue,
                currentEnd: d["currentEnd"]?.stringValue, bestStart: d["bestStart"]?.stringValue, bestEnd: d["bestEnd"]?.stringValue,
                todayDone: d["todayDone"]?.boolValue, restDaysUsed: d["restDaysUsed"]?.intValue ?? 0)
        }
        weekly = s["weekly"].flatMap { w in
            w.objectValue == nil ? nil : Weekly(
                current: w["current"]?.intValue ?? 0, best: w["best"]?.intValue ?? 0, currentStart: w["currentStart"]?.stringValue,
                bestStart: w["bestStart"]?.stringValue, bestEnd: w["bestEnd"]?.stringValue,
                workoutsThisWeek: w["workoutsThisWeek"]?.intValue ?? 0, target: w["target"]?.intValue ?? 0)
        }
        today = s["today"]?.stringValue
        timeZone = s["timeZone"]?.stringValue
        habits = (s["habits"]?.arrayValue ?? []).map { h in
            Habit(name: h["name"]?.stringValue ?? "?", per: h["per"]?.stringValue ?? "period",
                  activities: (h["activities"]?.arrayValue ?? []).compactMap(\.stringValue), kind: h["kind"]?.stringValue ?? "",
                  target: h["target"]?.doubleValue ?? 0, progress: h["progress"]?.doubleValue ?? 0, left: h["left"]?.doubleValue ?? 0,
                  leftText: h["leftText"]?.stringValue, done: h["done"]?.boolValue ?? false, dueToday: h["dueToday"]?.boolValue,
                  daysToGo: h["daysToGo"]?.intValue, periodStart: h["periodStart"]?.stringValue, periodEnd: h["periodEnd"]?.stringValue,
                  current: h["current"]?.intValue ?? 0, best: h["best"]?.intValue ?? 0, currentStart: h["currentStart"]?.stringValue,
                  currentEnd: h["currentEnd"]?.stringValue, bestStart: h["bestStart"]?.stringValue, bestEnd: h["bestEnd"]?.stringValue,
                  skipsUsed: h["skipsUsed"]?.intValue ?? 0, skipAvailable: h["skipAvailable"]?.boolValue ?? false,
                  atRisk: h["atRisk"]?.boolValue ?? false)
        }
    }
}
