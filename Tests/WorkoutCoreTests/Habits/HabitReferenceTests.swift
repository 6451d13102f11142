import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// Runs `habit_reference.py` (Python's zoneinfo; no code shared with the engine).
enum PythonReference {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("habit_reference.py").path

    /// python3 with zoneinfo (3.9+) is on PATH.
    static let available: Bool = {
        guard SharedData.hasCommand("python3") else { return false }
        return (try? SharedData.run(["python3", "-c", "import zoneinfo; zoneinfo.ZoneInfo('Europe/Berlin')"]).status) == 0
    }()

    /// Runs the reference over the cases; one answer per case.
    static func evaluate(_ cases: [[String: Any]]) throws -> [Answer] {
        var text = ""
        try json(["cases": cases], into: &text)
        let r = try SharedData.run(["python3", script], stdin: Data(text.utf8))
        guard r.status == 0 else { throw ReferenceError(message: "habit_reference.py exited \(r.status): \(r.stderr.prefix(2000))") }
        struct Results: Decodable { var results: [Answer] }
        let results = try JSONDecoder().decode(Results.self, from: Data(r.stdout.utf8)).results
        guard results.count == cases.count else { throw ReferenceError(message: "habit_reference.py gave \(results.count) answers for \(cases.count) cases") }
        return results
    }

    /// One case's answer, ours or the reference's, typed: compared field by field (before:
    /// both as sorted-key JSON text through JSONSerialization, 18 % of the test's CPU). Numbers
    /// compare as numbers (2 and 2.0 alike), a boolean is never a number.
    struct Answer: Decodable, Equatable, CustomStringConvertible {
        var today, periodStart, periodEnd: String
        var progress: Double
        var done, dueToday: Bool
        var dueDaysLeft: Int
        var current, best: Streak?
        var trailing: Int
        var coverable: Bool
        var risk: String

        /// `[start, end, length, skips, total]`.
        struct Streak: Decodable, Equatable {
            var start, end: String
            var length, skips: Int
            var total: Double
            init(start: String, end: String, length: Int, skips: Int, total: Double) {
                (self.start, self.end, self.length, self.skips, self.total) = (start, end, length, skips, total)
            }
            init(from decoder: Decoder) throws {
                var c = try decoder.unkeyedContainer()
                start = try c.decode(String.self); end = try c.decode(String.self)
                length = try c.decode(Int.self); skips = try c.decode(Int.self); total = try c.decode(Double.self)
                guard c.isAtEnd else { throw DecodingError.dataCorruptedError(in: c, debugDescription: "a streak has five fields") }
            }
        }

        init(today: String, periodStart: String, periodEnd: String, progress: Double, done: Bool, dueToday: Bool, dueDaysLeft: Int,
             current: Streak?, best: Streak?, trailing: Int, coverable: Bool, risk: String) {
            (self.today, self.periodStart, self.periodEnd, self.progress, self.done, self.dueToday, self.dueDaysLeft) =
                (today, periodStart, periodEnd, progress, done, dueToday, dueDaysLeft)
            (self.current, self.best, self.trailing, self.coverable, self.risk) = (current, best, trailing, coverable, risk)
        }

        var description: String {
            func streak(_ x: Streak?) -> String { x.map { "[\($0.start), \($0.end), \($0.length), \($0.skips), \($0.total)]" } ?? "null" }
            return "today \(today) period \(periodStart)...\(periodEnd) progress \(progress) done \(done) dueToday \(dueToday) "
                + "dueDaysLeft \(dueDaysLeft) current \(streak(current)) best \(streak(best)) trailing \(trailing) coverable \(coverable) risk \(risk)"
        }
    }

    /// JSON text of the cases (strings, numbers, booleans, null, arrays, objects), written
    /// directly: JSONSerialization spent ~25 s of CPU bridging these 4,000 cases to NSDictionary
    /// and back (73 % of the test). Numbers are spelled as JSONSerialization spells them (a
    /// whole Double as an integer), so Python reads the same values.
    static func json(_ value: Any, into out: inout String) throws {
        // NSNull last: `is NSNull` on a Swift dictionary or array bridges it to an object first.
        switch value {
        case let s as String:
            out += "\""
            for u in s.unicodeScalars {
                switch u {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case _ where u.value < 0x20: out += "\\u" + String(repeating: "0", count: 4 - String(u.value, radix: 16).count) + String(u.value, radix: 16)
                default: out.unicodeScalars.append(u)
                }
            }
            out += "\""
        case let b as Bool: out += b ? "true" : "false"
        case let i as Int: out += String(i)
        case let d as Double: try number(d, into: &out)
        case let h as [StreakWorkout]: try history(h, into: &out)
        case let o as [String: Any]:
            out += "{"
            for (k, (key, v)) in o.enumerated() { if k > 0 { out += "," }; try json(key, into: &out); out += ":"; try json(v, into: &out) }
            out += "}"
        case let a as [Any]:
            out += "["
            for (k, v) in a.enumerated() { if k > 0 { out += "," }; try json(v, into: &out) }
            out += "]"
        case is NSNull: out += "null"
        default: throw ReferenceError(message: "no JSON for \(type(of: value))")
        }
    }

    /// A number as JSONSerialization spells it: a whole Double as an integer.
    static func number(_ d: Double, into out: inout String) throws {
        guard d.isFinite else { throw ReferenceError(message: "no JSON for \(d)") }
        out += d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : "\(d)"
    }

    /// A history (the bulk of the cases: ~800,000 workouts) written by typed code: walking it
    /// as `[String: Any]` took ~45 % of the test's CPU in dynamic casts (debug build).
    static func history(_ h: [StreakWorkout], into out: inout String) throws {
        out += "["
        for (k, w) in h.enumerated() {
            if k > 0 { out += "," }
            guard let activity = w.activity else { throw ReferenceError(message: "a reference workout has no activity") }
            out += "{\"start\":"; try number(w.startedAt, into: &out)
            out += ",\"duration\":"; try number(w.durationSeconds, into: &out)
            out += ",\"distance\":"; try number(w.distanceMeters, into: &out)
            out += ",\"activity\":"; try json(activity.rawValue, into: &out)
            out += ",\"offset\":" + (w.utcOffset.map { String($0) } ?? "null") + "}"
        }
        out += "]"
    }

    struct ReferenceError: Error, CustomStringConvertible { var message: String; var description: String { message } }
}

/// The habit engine against the Python reference over seeded random habits and histories:
/// several zones (DST in both hemispheres, 30/45-minute zones, a skipped date), day-start hours,
/// week starts, weekday sets, windows, skip budgets, targets of every kind, and instants both in
/// the transition tables and in POSIX-footer territory after 2038.
/// Skipped with a reason without python3/zoneinfo; under CI=true it must run.
@Suite(.requires(.program(.zoneinfo), .python(.zoneinfo)))
struct HabitReferenceTests {
    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Apia", "Asia/Kathmandu",
                        "America/Sao_Paulo", "Pacific/Kiritimati", "UTC"]
    static let casesPerZone = 500
    static let activities: [ActivityType] = [.running, .cycling, .yoga, .walking]

    /// The engine's answer in the reference's shape.
    static func ours(_ s: HabitStatus, risk: HabitRiskCheck.Decision) -> PythonReference.Answer {
        func streak(_ x: HabitStreak?) -> PythonReference.Answer.Streak? {
            x.map { .init(start: $0.start.iso, end: $0.end.iso, length: $0.length, skips: $0.skips, total: $0.total) }
        }
        let r: String
        switch risk {
        case .quiet(let q): r = q.rawValue
        case .warn(let w): r = "warn:\(w.daysToGo):\(w.minutesLeft)"
        }
        return .init(today: s.today.iso, periodStart: s.periodStart.iso, periodEnd: s.periodEnd.iso, progress: s.progress,
                     done: s.done, dueToday: s.dueToday, dueDaysLeft: s.dueDaysLeft, current: streak(s.current),
                     best: streak(s.best), trailing: s.trailingSkips, coverable: s.coverable, risk: r)
    }

    static func randomHabit(dayStart: Int, using rng: inout SeededRandom) -> Habit {
        var h = Habit(name: "h")
        h.per = [HabitPeriod.day, .day, .week, .week, .month].randomElement(using: &rng)!
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: h.target = .distance(meters: Double(Int.random(in: 3000...40000, using: &rng)))
        case 1: h.target = .duration(seconds: Double(Int.random(in: 1200...12000, using: &rng)))
        default:
            switch h.per {
            case .day: h.target = .count([1, 1, 1, 2].randomElement(using: &rng)!)
            case .week: h.target = .count(Int.random(in: 1...4, using: &rng))
            case .month: h.target = .count(Int.random(in: 2...12, using: &rng))
            }
        }
        if Bool.random(using: &rng) { h.activities = Set((0..<Int.random(in: 1...2, using: &rng)).map { _ in activities.randomElement(using: &rng)! }) }
        h.minimumSeconds = [0, 600, 600, 1800, 3700].randomElement(using: &rng)!
        h.minimumMeters = [0, 0, 0, 2000].randomElement(using: &rng)!
        if Int.random(in: 0..<3, using: &rng) == 0 {
            while h.weekdays.isEmpty { h.weekdays = Set((0..<7).filter { _ in Bool.random(using: &rng) }) }
        }
        if Int.random(in: 0..<3, using: &rng) == 0 {
            // A window inside the streak day: positions from < to, as wall-clock minutes.
            let from = Int.random(in: 0...1380, using: &rng) / 15 * 15
            let to = Int.random(in: (from + 60)...1440, using: &rng) / 15 * 15
            h.window = HabitWindow(fromMinute: (from + dayStart * 60) % 1440, toMinute: (max(to, from + 15) + dayStart * 60) % 1440)
        }
        let cap: Int
        switch h.per {
        case .day: cap = (h.weekdays.isEmpty ? 7 : h.weekdays.count) - 1
        case .week, .month: cap = h.per.maximumSkips
        }
        h.skips = [0, 0, 1, 2, cap].randomElement(using: &rng)!.clamped(0, cap)
        if Int.random(in: 0..<4, using: &rng) == 0 { h.remindAtMinute = Int.random(in: 0..<1440, using: &rng) }
        return h
    }

    static func randomHistory(now: Double, per: HabitPeriod, using rng: inout SeededRandom) -> [StreakWorkout] {
        let span: Int
        switch per {
        case .day: span = Int.random(in: 3...80, using: &rng)
        case .week: span = Int.random(in: 10...200, using: &rng)
        case .month: span = Int.random(in: 40...420, using: &rng)
        }
        let p = Double.random(in: 0.5...0.97, using: &rng)
        let withOffsets = Int.random(in: 0..<4, using: &rng) == 0
        var out: [StreakWorkout] = []
        for k in -span...1 where Double.random(in: 0..<1, using: &rng) < p {
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let start = (now + Double(k) * 86400 + Double.random(in: -43200...43200, using: &rng)).rounded(.down)
                let offset: Int? = withOffsets && Bool.random(using: &rng)
                    ? [-36000, -18000, 0, 3600, 19800, 46800, 50400].randomElement(using: &rng)! : nil
                out.append(StreakWorkout(startedAt: start, durationSeconds: Double([599, 600, 1800, 3600, 3700, 120, 5400].randomElement(using: &rng)!),
                                         utcOffset: offset, activity: activities.randomElement(using: &rng)!,
                                         distanceMeters: Double(Int.random(in: 0...25000, using: &rng))))
            }
        }
        out.shuffle(using: &rng)
        return out
    }

    @Test func engineMatchesPythonReference() throws {
        try #require(PythonReference.available, "python3 with zoneinfo is required under CI=true")
        var rng = SeededRandom(seed: 0x4AB1)
        var cases: [[String: Any]] = []
        var answers: [PythonReference.Answer] = []
        var labels: [String] = []
        for zoneName in Self.zones {
            let rules = try ZoneFiles.rules(zoneName)
            for n in 0..<Self.casesPerZone {
                let dayStart = [0, 0, 3, 5, 23, 12].randomElement(using: &rng)!
                let weekStart = WeekStart.allCases.randomElement(using: &rng)!
                let habit = Self.randomHabit(dayStart: dayStart, using: &rng)
                // Mostly 2024...2027 (transition tables); every 5th after 2038 (POSIX footer rules).
                let now = (n % 5 == 4 ? Double.random(in: 2_200_000_000...2_400_000_000, using: &rng)
                                      : Double.random(in: 1_704_067_200...1_830_000_000, using: &rng)).rounded(.down)
                var history = Self.randomHistory(now: now, per: habit.per, using: &rng)
                // Every third history stops some hours before `now`: streaks alive, periods not
                // done, so the at-risk decision goes past its first questions.
                if n % 3 == 0 {
                    let cut = Double.random(in: 0...110_000, using: &rng)
                    history = history.filter { $0.startedAt < now - cut }
                }
                let engine = HabitEngine(calendar: HabitCalendar(zone: rules, dayStartHour: dayStart, weekStart: weekStart))
                let remind = Int.random(in: 0..<1440, using: &rng)
                let status = engine.status(habit, history: history, now: now)
                let lastWarned: StreakDay? = [nil, nil, nil, nil, nil, nil, status.periodStart, status.periodStart.adding(days: -1)].randomElement(using: &rng)!
                let risk = HabitRiskCheck.evaluate(status, now: now, engine: engine, defaultRemindMinute: remind, lastWarnedPeriod: lastWarned)
                answers.append(Self.ours(status, risk: risk))
                labels.append("\(zoneName) #\(n) ds=\(dayStart) ws=\(weekStart) now=\(ISO8601.format(now)) \(habit)")
                let target: [Any]
                switch habit.target {
                case .count(let k): target = ["count", k]
                case .distance(let m): target = ["distance", m]
                case .duration(let s): target = ["duration", s]
                }
                cases.append([
                    "zone": zoneName, "dayStartHour": dayStart, "weekStart": weekStart.weekday, "now": now,
                    "defaultRemindMinute": remind, "lastWarned": lastWarned?.iso ?? NSNull(),
                    "habit": ["per": habit.per.rawValue, "target": target, "activities": habit.activities.map(\.rawValue),
                              "minimumSeconds": habit.minimumSeconds, "minimumMeters": habit.minimumMeters,
                              "weekdays": Array(habit.weekdays), "skips": habit.skips,
                              "window": habit.window.map { [$0.fromMinute, $0.toMinute] } ?? NSNull(),
                              "remindAt": habit.remindAtMinute ?? NSNull()] as [String: Any],
                    "history": history,
                ])
            }
        }
        let theirs = try PythonReference.evaluate(cases)
        var mismatches = 0
        var warned = 0, streaks = 0
        var reasons: [String: Int] = [:]
        for (k, (a, b)) in zip(answers, theirs).enumerated() {
            let r = a.risk
            if r.hasPrefix("warn") { warned += 1 }
            reasons[r.hasPrefix("warn") ? "warn" : r, default: 0] += 1
            if a.current != nil { streaks += 1 }
            if a != b {
                mismatches += 1
                if mismatches <= 3 { Issue.record("\(labels[k])\nours:   \(a)\ntheirs: \(b)") }
            }
        }
        print("habit reference: \(cases.count) histories, \(mismatches) mismatches, \(streaks) with a current streak, \(warned) at-risk warnings; risk decisions \(reasons.sorted { $0.key < $1.key })")
        expectEqual(mismatches, 0)
        // The random cases must exercise the interesting paths, not only empty results.
        expectGreater(streaks, cases.count / 4)
        expectGreater(warned, 40)
        expectEqual(reasons.count, 9, "every at-risk answer occurs: \(reasons)")
    }
}

extension Int {
    func clamped(_ lo: Int, _ hi: Int) -> Int { Swift.min(Swift.max(self, lo), hi) }
}
