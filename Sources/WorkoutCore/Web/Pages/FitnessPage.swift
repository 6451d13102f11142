/// The fitness page (`/fitness?days=N`): the chart of load, fitness, fatigue and form over the
/// last N days (`FitnessChart`), a range selector that works without JavaScript, and today's
/// figures. The days come from the control protocol's `fitness` (the same numbers as
/// `workoutctl fitness`).
public struct FitnessPage: Sendable {
    /// The ranges offered (days).
    public static let spans = [42, 90, 180, 365, 730]
    public static let defaultSpan = 90

    public var days: [FitnessDay]
    public var today: StreakDay
    public var span: Int

    public init(days: [FitnessDay], today: StreakDay, span: Int) { self.days = days; self.today = today; self.span = span }

    /// The span a query asks for (`days=N`, one of `spans`), else the default.
    public static func span(query: Substring) -> Int {
        PercentEncoding.form(query).first { $0.name == "days" }.flatMap { Int($0.value) }.flatMap { spans.contains($0) ? $0 : nil } ?? defaultSpan
    }

    public func render(_ c: WebPageContext, recording: Bool = false) -> [UInt8] {
        var w = HTMLWriter(capacity: 32 << 10)
        PageLayout.begin(&w, title: "Fitness", section: .fitness, live: recording)
        w.raw("<h1>Fitness</h1><p class=\"sub\">Training load per day; fitness (42 days), fatigue (7 days) and form (fitness minus fatigue).</p>")
        RangeSelector.render(path: "/fitness", spans: Self.spans.map { ($0, "\($0) days") }, current: span, into: &w)
        if let d = days.last(where: { $0.date <= today }) ?? days.last {
            w.raw("<div class=\"stats\">")
            for (label, v) in [("Fitness", d.fitness), ("Fatigue", d.fatigue), ("Form", d.form)] {
                w.raw("<div class=\"stat\"><b>"); w.fixed(v, decimals: 0); w.raw("</b><span>"); w.text(label); w.raw(" · "); w.text(d.date.iso); w.raw("</span></div>")
            }
            w.raw("</div>")
        }
        w.raw("<section class=\"card chart\">")
        FitnessChart(days: days, today: today).render(into: &w)
        w.raw("</section>")
        if days.allSatisfy({ $0.load == 0 }) {
            w.raw("<div class=\"card empty\"><p>No training stress in this range. It comes from power with <code>ftpWatts</code>, heart rate with <code>thresholdHeartRate</code>, or a run's pace with <code>thresholdPaceSecondsPerKm</code> in the configuration.</p></div>")
        }
        PageLayout.end(&w, c)
        return w.bytes
    }
}

/// Links to the same page over other ranges (`?days=N`), the current one marked.
enum RangeSelector {
    static func render(path: StaticString, spans: [(Int?, String)], current: Int?, into w: inout HTMLWriter) {
        w.raw("<nav class=\"range\" aria-label=\"Range\">")
        for (n, label) in spans {
            w.raw("<a href=\""); w.raw(path)
            if let n { w.raw("?days="); w.int(n) } else { w.raw("?days=all") }
            w.raw("\""); if n == current { w.raw(" class=\"on\" aria-current=\"page\"") }
            w.raw(">"); w.text(label); w.raw("</a> ")
        }
        w.raw("</nav>")
    }
}
