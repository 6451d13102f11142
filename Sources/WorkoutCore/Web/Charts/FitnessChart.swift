/// Fitness, fatigue and form as an inline SVG (`data-chart="fitness"`): one bar per day of
/// load, three lines over it (fitness, fatigue, form) on one axis, today marked.
public struct FitnessChart: Sendable {
    public var days: [FitnessDay]
    public var today: StreakDay

    public init(days: [FitnessDay], today: StreakDay) { self.days = days; self.today = today }

    public func render(into w: inout HTMLWriter) {
        let width = 720.0, height = 280.0, l = 40.0, r = 712.0, t = 16.0, b = 244.0
        let values = days.flatMap { [$0.load, $0.fitness, $0.fatigue, $0.form] }
        let lo = min(values.min() ?? 0, 0), hi = max(values.max() ?? 0, 10)
        let ticks = ChartAxis.ticks(lo, hi, count: 5)
        let bottom = min(ticks.first ?? lo, lo), top = max(ticks.last ?? hi, hi)
        let sy = (b - t) / (top - bottom)
        func y(_ v: Double) -> Double { b - (v - bottom) * sy }
        let slot = (r - l) / Double(max(1, days.count))
        func x(_ k: Int) -> Double { l + slot * (Double(k) + 0.5) }
        w.raw("<svg class=\"fitness\" data-chart=\"fitness\" viewBox=\"0 0 "); w.coordinate(width); w.raw(" "); w.coordinate(height)
        w.raw("\" role=\"img\" aria-label=\"Daily training load, fitness, fatigue and form, ")
        w.text(days.first?.date.iso ?? ""); w.raw(" to "); w.text(days.last?.date.iso ?? ""); w.raw("\"><g class=\"grid\">")
        for v in ticks {
            w.raw("<line x1=\""); w.coordinate(l); w.raw("\" x2=\""); w.coordinate(r); w.raw("\" y1=\""); w.coordinate(y(v))
            w.raw("\" y2=\""); w.coordinate(y(v)); w.raw("\"/>")
        }
        w.raw("</g>")
        for v in ticks {
            w.raw("<text x=\""); w.coordinate(l - 6); w.raw("\" y=\""); w.coordinate(y(v) + 4); w.raw("\" text-anchor=\"end\">")
            w.fixed(v, decimals: 0); w.raw("</text>")
        }
        // Load: a bar per day with training stress.
        w.raw("<g class=\"load\">")
        let barWidth = max(slot * 0.7, 0.6)
        for (k, d) in days.enumerated() where d.load > 0 {
            w.raw("<rect x=\""); w.coordinate(x(k) - barWidth / 2); w.raw("\" y=\""); w.coordinate(y(d.load))
            w.raw("\" width=\""); w.coordinate(barWidth); w.raw("\" height=\""); w.coordinate(max(y(0) - y(d.load), 0.5))
            w.raw("\" fill=\"#cbd5e1\"><title>"); w.text(d.date.iso); w.raw(": load "); w.fixed(d.load, decimals: 0); w.raw("</title></rect>")
        }
        w.raw("</g>")
        let lines: [(String, StaticString, KeyPath<FitnessDay, Double>)] = [("Fitness", "#2563eb", \.fitness), ("Fatigue", "#db2777", \.fatigue),
                                                                            ("Form", "#16a34a", \.form)]
        for (name, colour, path) in lines {
            w.raw("<polyline class=\""); w.raw(name.lowercased()); w.raw("\" fill=\"none\" stroke=\""); w.raw(colour)
            w.raw("\" stroke-width=\"2\" points=\"")
            for (k, d) in days.enumerated() {
                if k > 0 { w.raw(" ") }
                w.coordinate(x(k)); w.raw(","); w.coordinate(y(d[keyPath: path]))
            }
            w.raw("\"><title>"); w.text(name); w.raw("</title></polyline>")
        }
        if let k = days.firstIndex(where: { $0.date == today }) {
            w.raw("<g class=\"today\"><line x1=\""); w.coordinate(x(k)); w.raw("\" x2=\""); w.coordinate(x(k)); w.raw("\" y1=\""); w.coordinate(t)
            w.raw("\" y2=\""); w.coordinate(b); w.raw("\" stroke=\"#ea580c\" stroke-dasharray=\"3 3\"/><text x=\""); w.coordinate(x(k) - 4)
            w.raw("\" y=\""); w.coordinate(t + 10); w.raw("\" text-anchor=\"end\">today</text></g>")
        }
        // Dates under the axis: the first, the last and about four between.
        let step = max(1, days.count / 5)
        for k in stride(from: 0, to: days.count, by: step) {
            let c = CivilTime.civilFromDays(days[k].date.dayNumber)
            w.raw("<text x=\""); w.coordinate(x(k)); w.raw("\" y=\""); w.coordinate(b + 18); w.raw("\" text-anchor=\"middle\">")
            w.int(c.day); w.raw(" "); w.raw(WebFormat.monthNames[c.month - 1]); w.raw("</text>")
        }
        w.raw("<g class=\"legend\">")
        for (i, (name, colour, _)) in lines.enumerated() {
            let lx = l + 10 + Double(i) * 90
            w.raw("<rect x=\""); w.coordinate(lx); w.raw("\" y=\""); w.coordinate(height - 14); w.raw("\" width=\"12\" height=\"4\" fill=\"")
            w.raw(colour); w.raw("\"/><text x=\""); w.coordinate(lx + 16); w.raw("\" y=\""); w.coordinate(height - 9); w.raw("\">"); w.text(name); w.raw("</text>")
        }
        w.raw("</g></svg>")
    }
}
