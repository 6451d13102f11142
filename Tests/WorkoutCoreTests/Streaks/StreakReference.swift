import Foundation
@testable import WorkoutCore

/// An independent statement of docs/streaks.md in Foundation's terms: named zones from ICU,
/// dates as `YYYY-MM-DD` labels moved by `Calendar`, and a day-by-day walk where each missed day
/// either spends a rest day of its week or breaks the streak. It shares no code with
/// StreakCalculator beyond the input types.
struct StreakReference {
    var zone: TimeZone
    var minimumSeconds: Double
    var dayStartHour: Int
    var restDaysPerWeek: Int
    var weeklyTarget: Int
    /// 1 = Sunday ... 7 = Saturday (Foundation's numbering).
    var firstWeekday: Int

    struct Run: Equatable { var start: String; var end: String; var length: Int; var rest: Int; var workouts: Int = 0 }
    struct Result: Equatable {
        var today: String
        var todayDone: Bool
        var current: Run?
        var best: Run?
        var trailing: Int
        var coverable: Bool
        var weekCount: Int
        var currentWeekly: Run?
        var bestWeekly: Run?
    }

    static let utcCalendar: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()

    static func label(_ d: Date) -> String {
        let c = utcCalendar.dateComponents([.year, .month, .day], from: d)
        return label(c.year!, c.month!, c.day!)
    }
    /// "YYYY-MM-DD", spelled by hand: `String(format:)` and `split` were half of the CPU of the
    /// randomized streak tests (the calendar arithmetic stays Foundation's).
    static func label(_ year: Int, _ month: Int, _ day: Int) -> String {
        func pad(_ n: Int, _ width: Int) -> String { let s = String(n); return String(repeating: "0", count: max(0, width - s.count)) + s }
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }
    static func date(_ label: String) -> Date {
        var p = [0, 0, 0], k = 0
        for b in label.utf8 { if b == UInt8(ascii: "-") { k += 1 } else { p[k] = p[k] * 10 + Int(b - UInt8(ascii: "0")) } }
        return utcCalendar.date(from: DateComponents(year: p[0], month: p[1], day: p[2]))!
    }
    static func add(_ days: Int, to label: String) -> String {
        self.label(utcCalendar.date(byAdding: .day, value: days, to: date(label))!)
    }

    /// The local date of an instant, moved back a day when the wall clock is before dayStartHour.
    func dayLabel(_ t: Double, offset: Int?) -> String {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = offset.map { TimeZone(secondsFromGMT: $0)! } ?? zone
        let c = cal.dateComponents([.year, .month, .day, .hour], from: Date(timeIntervalSince1970: t))
        let l = Self.label(c.year!, c.month!, c.day!)
        return c.hour! < dayStartHour ? Self.add(-1, to: l) : l
    }

    func weekKey(_ label: String) -> String {
        let wd = Self.utcCalendar.component(.weekday, from: Self.date(label))
        return Self.add(-((wd - firstWeekday + 7) % 7), to: label)
    }

    func evaluate(_ history: [StreakWorkout], now: Double) -> Result {
        let today = dayLabel(now, offset: nil)
        var count: [String: Int] = [:]
        for w in history where w.durationSeconds >= minimumSeconds {
            let l = dayLabel(w.startedAt, offset: w.utcOffset)
            if l <= today { count[l, default: 0] += 1 }
        }
        // Daily: walk every date from the first workout to today.
        var best: Run? = nil
        var cur: Run? = nil
        var used: [String: Int] = [:]
        var trailing = 0
        if let first = count.keys.min() {
            var d = first
            while d <= today {
                if count[d] != nil {
                    if cur == nil { cur = Run(start: d, end: d, length: 1, rest: 0); used = [:] }
                    else { cur!.end = d; cur!.length += 1; cur!.rest += trailing }
                    trailing = 0
                    if best == nil || cur!.length > best!.length { best = cur }
                } else if d != today, cur != nil {
                    let k = weekKey(d)
                    if used[k, default: 0] < restDaysPerWeek { used[k, default: 0] += 1; trailing += 1 }
                    else { cur = nil; trailing = 0 }
                }
                d = Self.add(1, to: d)
            }
        }
        let todayDone = count[today] != nil
        let coverable = cur != nil && !todayDone && used[weekKey(today), default: 0] < restDaysPerWeek
        // Weekly.
        var perWeek: [String: Int] = [:]
        for (l, n) in count { perWeek[weekKey(l), default: 0] += n }
        let thisWeek = weekKey(today)
        var currentWeekly: Run? = nil
        var wk = (perWeek[thisWeek] ?? 0) >= weeklyTarget ? thisWeek : Self.add(-7, to: thisWeek)
        while (perWeek[wk] ?? 0) >= weeklyTarget {
            if currentWeekly == nil { currentWeekly = Run(start: wk, end: Self.add(6, to: wk), length: 0, rest: 0) }
            currentWeekly!.start = wk
            currentWeekly!.length += 1
            currentWeekly!.workouts += perWeek[wk]!
            wk = Self.add(-7, to: wk)
        }
        var bestWeekly: Run? = nil
        var run: Run? = nil
        if let first = perWeek.keys.min() {
            var w = first
            while w <= thisWeek {
                if (perWeek[w] ?? 0) >= weeklyTarget {
                    if run == nil { run = Run(start: w, end: w, length: 0, rest: 0) }
                    run!.end = Self.add(6, to: w); run!.length += 1; run!.workouts += perWeek[w]!
                    if bestWeekly == nil || run!.length > bestWeekly!.length { bestWeekly = run }
                } else { run = nil }
                w = Self.add(7, to: w)
            }
        }
        return Result(today: today, todayDone: todayDone, current: cur, best: best,
                      trailing: cur == nil ? 0 : trailing, coverable: coverable,
                      weekCount: perWeek[thisWeek] ?? 0, currentWeekly: currentWeekly, bestWeekly: bestWeekly)
    }
}

extension StreakReference.Result {
    /// The calculator's status in the reference's terms.
    init(_ s: StreakStatus) {
        func day(_ d: DayStreak?) -> StreakReference.Run? {
            d.map { .init(start: $0.start.iso, end: $0.end.iso, length: $0.days, rest: $0.restDays) }
        }
        func week(_ w: WeekStreak?) -> StreakReference.Run? {
            w.map { .init(start: $0.start.iso, end: $0.end.iso, length: $0.weeks, rest: 0, workouts: $0.workouts) }
        }
        self.init(today: s.today.iso, todayDone: s.todayDone, current: day(s.currentDaily),
                  best: day(s.bestDaily), trailing: s.trailingRestDays, coverable: s.todayCoverable,
                  weekCount: s.workoutsThisWeek, currentWeekly: week(s.currentWeekly), bestWeekly: week(s.bestWeekly))
    }
}
