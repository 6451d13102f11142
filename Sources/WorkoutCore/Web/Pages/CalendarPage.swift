/// The calendar page (`/calendar?year=2026`): a year of days as a heat map of moving time
/// (`data-chart="calendar"`), the year's totals, the streaks and the habits of this period.
public struct CalendarPage: Sendable {
    public var summaries: [WorkoutSummary]
    /// The year shown (local calendar); nil = this year.
    public var year: Int?
    public var streaks: StreakStatus?
    public var habits: [HabitStatus]

    public init(summaries: [WorkoutSummary], year: Int?, streaks: StreakStatus?, habits: [HabitStatus]) {
        self.summaries = summaries; self.year = year; self.streaks = streaks; self.habits = habits
    }

    /// Minutes of moving time that start each level of the heat map (level 0 = no workout).
    public static let levelMinutes: [Double] = [0, 30, 60, 90, 150]

    /// The streaks the page shows for `year`: today's for this year (or none asked), and for a
    /// past year those of its own workouts as they stood at its last moment (the best streaks
    /// within that year, not today's).
    public static func streaks(year: Int?, summaries: [WorkoutSummary], calendar: StreakCalculator, now: Double) -> StreakStatus {
        let thisYear = CivilTime.civilFromDays(calendar.day(of: now).dayNumber).year
        guard let y = year, y < thisYear else {
            return calendar.status(history: summaries.map { StreakWorkout($0, utcOffset: nil) }, now: now)
        }
        let nextYear = Double(StreakDay(year: y + 1, month: 1, day: 1).dayNumber) * 86_400
        let end = nextYear - Double(calendar.zone.utcOffset(at: nextYear)) - 1
        let first = StreakDay(year: y, month: 1, day: 1), last = StreakDay(year: y, month: 12, day: 31)
        let inYear = summaries.filter { let d = calendar.day(of: $0.startedAt); return d >= first && d <= last }
        return calendar.status(history: inYear.map { StreakWorkout($0, utcOffset: nil) }, now: end)
    }

    static func level(_ seconds: Double) -> Int {
        guard seconds > 0 else { return 0 }
        return levelMinutes.lastIndex { seconds / 60 >= $0 }! + 1
    }

    public func render(_ c: WebPageContext, recording: Bool = false) -> [UInt8] {
        let today = c.calendar.day(of: c.now)
        let thisYear = CivilTime.civilFromDays(today.dayNumber).year
        let y = min(max(year ?? thisYear, 1970), 9999)
        var w = HTMLWriter(capacity: 96 << 10)
        PageLayout.begin(&w, title: "Calendar \(y)", section: .calendar, live: recording)

        let first = StreakDay(year: y, month: 1, day: 1), last = StreakDay(year: y, month: 12, day: 31)
        var perDay: [Int: (count: Int, seconds: Double, meters: Double)] = [:]
        var names: [Int: [String]] = [:]
        for s in summaries {
            let d = c.calendar.day(of: s.startedAt)
            guard d >= first, d <= last else { continue }
            var e = perDay[d.dayNumber] ?? (0, 0, 0)
            e.count += 1
            e.seconds += max(0, s.movingSeconds > 0 ? s.movingSeconds : s.timerSeconds)
            e.meters += max(0, s.distanceMeters)
            perDay[d.dayNumber] = e
            names[d.dayNumber, default: []].append(WebPages.title(s, c.zone) + (s.distanceMeters > 0 ? " " + c.units.distance(s.distanceMeters) : ""))
        }
        let totalSeconds = perDay.values.reduce(0) { $0 + $1.seconds }
        let totalMeters = perDay.values.reduce(0) { $0 + $1.meters }
        let workouts = perDay.values.reduce(0) { $0 + $1.count }

        w.raw("<div class=\"charthead\"><h1>"); w.int(y); w.raw("</h1><span class=\"tabs\"><a href=\"/calendar?year="); w.int(y - 1)
        w.raw("\">← "); w.int(y - 1); w.raw("</a>")
        if y != thisYear { w.raw("<a href=\"/calendar\">This year</a>") }
        if y < thisYear { w.raw("<a href=\"/calendar?year="); w.int(y + 1); w.raw("\">"); w.int(y + 1); w.raw(" →</a>") }
        w.raw("</span></div><section class=\"card\"><div class=\"stats\">")
        func stat(_ v: String, _ l: StaticString) { w.raw("<div class=\"stat\"><b>"); w.text(v); w.raw("</b><span>"); w.raw(l); w.raw("</span></div>") }
        stat("\(workouts)", "Workouts")
        stat("\(perDay.count)", "Active days")
        stat(WebFormat.hours(totalSeconds), "Moving time")
        if totalMeters > 0 { stat(c.units.distance(totalMeters), "Distance") }
        w.raw("</div>")
        heatMap(y, first, last, today, perDay, names, c, &w)
        w.raw("<div class=\"legend\"><span>Less</span>")
        for k in 0...5 {
            w.raw("<span><svg class=\"dot\" viewBox=\"0 0 10 10\"><rect class=\"d"); w.int(k); w.raw("\" width=\"10\" height=\"10\" rx=\"2\"/></svg></span>")
        }
        w.raw("<span>More (moving time per day: 30, 60, 90, 150 min)</span></div></section>")

        if let s = streaks, y < thisYear {
            // A past year: its own streaks (`CalendarPage.streaks`), nothing of today.
            w.raw("<section class=\"card\"><h2>Streaks in "); w.int(y); w.raw("</h2><div class=\"stats\">")
            stat(days(s.bestDaily?.days ?? 0), "Best daily streak")
            stat(weeks(s.bestWeekly?.weeks ?? 0), "Best weekly streak")
            stat(days(s.currentDaily?.days ?? 0), "Daily streak at the year's end")
            w.raw("</div></section>")
        } else if let s = streaks {
            w.raw("<section class=\"card\"><h2>Streaks</h2><div class=\"stats\">")
            stat(days(s.currentDaily?.days ?? 0), "Current daily streak")
            stat(days(s.bestDaily?.days ?? 0), "Best daily streak")
            stat(weeks(s.currentWeekly?.weeks ?? 0), "Current weekly streak")
            stat(weeks(s.bestWeekly?.weeks ?? 0), "Best weekly streak")
            stat(s.todayDone ? "Done" : "Not yet", "Today")
            stat("\(s.workoutsThisWeek)", "Workouts this week")
            w.raw("</div></section>")
        }
        if !habits.isEmpty && y >= thisYear {
            w.raw("<section class=\"card\"><h2>Habits this period</h2><div class=\"habits\">")
            for h in habits { habit(h, c, &w) }
            w.raw("</div></section>")
        }
        PageLayout.end(&w, c)
        return w.bytes
    }

    func days(_ n: Int) -> String { n == 1 ? "1 day" : "\(n) days" }
    func weeks(_ n: Int) -> String { n == 1 ? "1 week" : "\(n) weeks" }

    func heatMap(_ y: Int, _ first: StreakDay, _ last: StreakDay, _ today: StreakDay, _ perDay: [Int: (count: Int, seconds: Double, meters: Double)],
                 _ names: [Int: [String]], _ c: WebPageContext, _ w: inout HTMLWriter) {
        let cell = 17.0, gap = 3.0, left = 34.0, top = 22.0
        let weekStart = c.calendar.settings.weekStart.weekday
        let firstColumnDay = first.dayNumber - (first.weekday - weekStart + 7) % 7
        let columns = (last.dayNumber - firstColumnDay) / 7 + 1
        let width = left + Double(columns) * (cell + gap) + 4
        let height = top + 7 * (cell + gap) + 4
        w.raw("<svg class=\"calendar cal\" data-chart=\"calendar\" viewBox=\"0 0 "); w.coordinate(width); w.raw(" "); w.coordinate(height)
        w.raw("\" role=\"img\" aria-label=\"Moving time per day in "); w.int(y); w.raw("\">")
        for row in [1, 3, 5] {
            w.raw("<text x=\"0\" y=\""); w.coordinate(top + Double(row) * (cell + gap) + 12); w.raw("\">")
            w.raw(WebFormat.weekdayNames[(weekStart + row) % 7]); w.raw("</text>")
        }
        for m in 1...12 {
            let d = StreakDay(year: y, month: m, day: 1)
            let col = (d.dayNumber - firstColumnDay) / 7
            w.raw("<text x=\""); w.coordinate(left + Double(col) * (cell + gap)); w.raw("\" y=\"14\">"); w.raw(WebFormat.monthNames[m - 1]); w.raw("</text>")
        }
        for day in first.dayNumber...last.dayNumber {
            let col = (day - firstColumnDay) / 7, row = (day - firstColumnDay) % 7
            let e = perDay[day]
            let iso = StreakDay(dayNumber: day).iso
            if e != nil { w.raw("<a href=\"/?from="); w.raw(iso); w.raw("&amp;to="); w.raw(iso); w.raw("\">") }
            w.raw("<rect class=\"d"); w.int(CalendarPage.level(e?.seconds ?? 0)); if day == today.dayNumber { w.raw(" today") }
            w.raw("\" x=\""); w.coordinate(left + Double(col) * (cell + gap)); w.raw("\" y=\""); w.coordinate(top + Double(row) * (cell + gap))
            w.raw("\" width=\""); w.coordinate(cell); w.raw("\" height=\""); w.coordinate(cell); w.raw("\" rx=\"3\"><title>")
            let civil = CivilTime.civilFromDays(day)
            w.raw(WebFormat.weekdayNames[StreakDay(dayNumber: day).weekday]); w.raw(" "); w.int(civil.day); w.raw(" "); w.raw(WebFormat.monthNames[civil.month - 1])
            if let e {
                w.raw(": "); w.int(e.count); w.raw(e.count == 1 ? " workout, " : " workouts, "); w.text(WebFormat.hours(e.seconds))
                if e.meters > 0 { w.raw(", "); w.text(c.units.distance(e.meters)) }
                for n in names[day] ?? [] { w.raw("&#10;· "); w.text(n) }
            } else {
                w.raw(": rest")
            }
            w.raw("</title></rect>")
            if e != nil { w.raw("</a>") }
        }
        w.raw("</svg>")
    }

    func habit(_ h: HabitStatus, _ c: WebPageContext, _ w: inout HTMLWriter) {
        w.raw("<div class=\"habit\"><b>"); w.text(h.habit.name); w.raw("</b><div class=\"meter\"><svg viewBox=\"0 0 100 8\" preserveAspectRatio=\"none\"><rect height=\"8\" width=\"")
        w.fixed(h.target > 0 ? min(100, h.progress / h.target * 100) : 0, decimals: 1); w.raw("\"/></svg></div><span class=\"small muted\">")
        w.text(amount(h.progress, h.habit.target, c)); w.raw(" of "); w.text(amount(h.target, h.habit.target, c)); w.raw(" this "); w.raw(h.habit.per.noun)
        if h.done { w.raw(" · done") }
        w.raw("<br>streak "); w.int(h.current?.length ?? 0); w.raw(" · best "); w.int(h.best?.length ?? 0); w.raw("</span></div>")
    }

    func amount(_ v: Double, _ target: HabitTarget, _ c: WebPageContext) -> String {
        switch target {
        case .count: return "\(Int(v.rounded()))"
        case .distance: return c.units.distance(v)
        case .duration: return WebFormat.hours(v)
        }
    }
}
