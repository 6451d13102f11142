/// The `streak` reply's object (docs/streaks.md, "JSON"): the daily and weekly streaks, today,
/// the time zone and one entry per habit. Typed once, each level a field list (`JSONFields`):
/// the daemon writes it (`json()`), workoutctl and the status bar read it (`init(json:)`). Keys
/// in the order the daemon writes them; never renamed. Days are `YYYY-MM-DD` in the streak's
/// time zone. Reading is tolerant: what is missing is nil, zero or empty.
public struct StreakReply: JSONFields, Sendable, Equatable {
    public struct Daily: JSONFields, Sendable, Equatable {
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

        public init() { self.init(current: 0, best: 0, currentStart: nil, currentEnd: nil, bestStart: nil, bestEnd: nil, todayDone: nil, restDaysUsed: 0) }

        public mutating func fields<V: JSONFieldVisitor>(_ v: inout V) {
            StreakReply.runs(&v, &current, &best, &currentStart, &currentEnd, &bestStart, &bestEnd)
            v.field("todayDone", &todayDone)
            v.field("restDaysUsed", &restDaysUsed)
        }
    }

    public struct Weekly: JSONFields, Sendable, Equatable {
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

        public init() { self.init(current: 0, best: 0, currentStart: nil, bestStart: nil, bestEnd: nil, workoutsThisWeek: 0, target: 0) }

        public mutating func fields<V: JSONFieldVisitor>(_ v: inout V) {
            v.field("current", &current)
            v.field("best", &best)
            v.field("currentStart", &currentStart)
            v.field("bestStart", &bestStart)
            v.field("bestEnd", &bestEnd)
            v.field("workoutsThisWeek", &workoutsThisWeek)
            v.field("target", &target)
        }
    }

    /// One configured habit where it stands (docs/streaks.md, "Habits").
    public struct Habit: JSONFields, Sendable, Equatable {
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

        /// What a reply without the habit's members reads as.
        public init() {
            self.init(name: "?", per: "period", activities: [], kind: "", target: 0, progress: 0, left: 0, leftText: nil, done: false,
                      dueToday: nil, daysToGo: nil, periodStart: nil, periodEnd: nil, current: 0, best: 0, currentStart: nil, currentEnd: nil,
                      bestStart: nil, bestEnd: nil, skipsUsed: 0, skipAvailable: false, atRisk: false)
        }

        public mutating func fields<V: JSONFieldVisitor>(_ v: inout V) {
            v.field("name", &name)
            v.field("per", &per)
            v.field("activities", &activities)
            v.field("kind", &kind)
            v.field("target", &target)
            v.field("progress", &progress)
            v.field("left", &left)
            v.field("leftText", &leftText)
            v.field("done", &done)
            v.field("dueToday", &dueToday)
            v.field("daysToGo", &daysToGo)
            v.field("periodStart", &periodStart)
            v.field("periodEnd", &periodEnd)
            StreakReply.runs(&v, &current, &best, &currentStart, &currentEnd, &bestStart, &bestEnd)
            v.field("skipsUsed", &skipsUsed)
            v.field("skipAvailable", &skipAvailable)
            v.field("atRisk", &atRisk)
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

    public init() { self.init(daily: nil, weekly: nil, today: nil, timeZone: nil, habits: []) }

    /// The members the daily streak and a habit share: the current and the best run, with
    /// their first and last days.
    static func runs<V: JSONFieldVisitor>(_ v: inout V, _ current: inout Int, _ best: inout Int, _ currentStart: inout String?,
                                          _ currentEnd: inout String?, _ bestStart: inout String?, _ bestEnd: inout String?) {
        v.field("current", &current)
        v.field("best", &best)
        v.field("currentStart", &currentStart)
        v.field("currentEnd", &currentEnd)
        v.field("bestStart", &bestStart)
        v.field("bestEnd", &bestEnd)
    }

    public mutating func fields<V: JSONFieldVisitor>(_ v: inout V) {
        v.field("daily", omittedWhenNil: &daily)
        v.field("weekly", omittedWhenNil: &weekly)
        v.field("today", &today)
        v.field("timeZone", &timeZone)
        v.field("habits", &habits)
    }
}
