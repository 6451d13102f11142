/// Weekly volume as an inline SVG (`data-chart="volume"`): the last `weeks` weeks (weeks start
/// on the user's first weekday), one bar per week of moving time, stacked by activity.
public struct VolumeChart: Sendable {
    public struct Week: Sendable, Equatable {
        public var first: StreakDay
        /// Moving seconds per activity, in `VolumeChart.activities` order.
        public var seconds: [ActivityType: Double]
        public var total: Double { seconds.values.reduce(0, +) }
    }

    public var weeks: [Week]
    /// The activities with time in these weeks, most time first.
    public var activities: [ActivityType]

    /// Buckets `summaries` into the `count` weeks ending with the one holding `now`.
    public init(summaries: [WorkoutSummary], now: Double, calendar: StreakCalculator, count: Int = 12) {
        let thisWeek = calendar.week(of: calendar.day(of: now))
        let firstWeek = thisWeek - count + 1
        var weeks = (0..<count).map { Week(first: calendar.firstDay(ofWeek: firstWeek + $0), seconds: [:]) }
        var perActivity: [ActivityType: Double] = [:]
        for s in summaries {
            let wk = calendar.week(of: calendar.day(of: s.startedAt)) - firstWeek
            guard wk >= 0, wk < count else { continue }
            let t = s.movingSeconds > 0 ? s.movingSeconds : s.timerSeconds
            guard t.isFinite, t > 0 else { continue }
            weeks[wk].seconds[s.activity, default: 0] += t
            perActivity[s.activity, default: 0] += t
        }
        self.weeks = weeks
        activities = perActivity.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.rawValue < $1.key.rawValue }.map(\.key)
    }

    public func render(into w: inout HTMLWriter) {
        let width = 640.0, height = 250.0, l = 36.0, r = 636.0, t = 22.0, b = 220.0
        let maxTotal = max(weeks.map(\.total).max() ?? 0, 3600)
        let ticks = ChartAxis.ticks(0, maxTotal / 3600 * 1.08, count: 4)
        let top = max(ticks.last ?? 1, maxTotal / 3600 * 1.08)
        let sy = (b - t) / (top * 3600)
        w.raw("<svg class=\"volume vol\" data-chart=\"volume\" viewBox=\"0 0 ")
        w.coordinate(width); w.raw(" "); w.coordinate(height)
        w.raw("\" role=\"img\" aria-label=\"Moving time per week, last "); w.int(weeks.count); w.raw(" weeks\"><g class=\"grid\">")
        for v in ticks {
            let y = b - v * 3600 * sy
            w.raw("<line x1=\""); w.coordinate(l); w.raw("\" x2=\""); w.coordinate(r); w.raw("\" y1=\""); w.coordinate(y); w.raw("\" y2=\""); w.coordinate(y); w.raw("\"/>")
        }
        w.raw("</g>")
        for v in ticks {
            w.raw("<text x=\""); w.coordinate(l - 6); w.raw("\" y=\""); w.coordinate(b - v * 3600 * sy + 4); w.raw("\" text-anchor=\"end\">")
            w.fixed(v, decimals: ChartAxis.decimals(forStep: ticks.count > 1 ? ticks[1] - ticks[0] : 1)); w.raw("h</text>")
        }
        let slot = (r - l) / Double(max(1, weeks.count))
        let barWidth = slot * 0.62
        for (k, week) in weeks.enumerated() {
            let x = l + slot * Double(k) + (slot - barWidth) / 2
            var y = b
            w.raw("<g><title>Week of "); w.text(WebFormat.shortDate(Double(week.first.dayNumber) * 86400 + 43200, .utc))
            w.raw(": "); w.text(WebFormat.hours(week.total))
            for a in activities where (week.seconds[a] ?? 0) > 0 {
                w.raw(", "); w.text(a.displayName); w.raw(" "); w.text(WebFormat.hours(week.seconds[a]!))
            }
            w.raw("</title>")
            for a in activities.reversed() {
                guard let s = week.seconds[a], s > 0 else { continue }
                let h = max(s * sy, 1.5)
                y -= h
                w.raw("<rect class=\"bar\" x=\""); w.coordinate(x); w.raw("\" y=\""); w.coordinate(y)
                w.raw("\" width=\""); w.coordinate(barWidth); w.raw("\" height=\""); w.coordinate(h)
                w.raw("\" fill=\""); w.raw(PageLayout.colour(a)); w.raw("\"/>")
            }
            if week.total > 0 {
                w.raw("<text class=\"val\" x=\""); w.coordinate(x + barWidth / 2); w.raw("\" y=\""); w.coordinate(y - 5)
                w.raw("\" text-anchor=\"middle\">"); w.text(WebFormat.hours(week.total)); w.raw("</text>")
            }
            w.raw("<text x=\""); w.coordinate(x + barWidth / 2); w.raw("\" y=\""); w.coordinate(b + 18); w.raw("\" text-anchor=\"middle\">")
            let c = CivilTime.civilFromDays(week.first.dayNumber)
            w.int(c.day); w.raw(" "); w.raw(WebFormat.monthNames[c.month - 1]); w.raw("</text></g>")
        }
        w.raw("</svg>")
    }
}
