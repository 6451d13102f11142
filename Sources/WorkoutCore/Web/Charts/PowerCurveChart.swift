import func Glibc.log

/// Power curves as an inline SVG (`data-chart="power-curve"`): watts against duration on a
/// logarithmic axis from 1 s to 5 h, one line per curve (the first drawn strongest), and the
/// critical-power model's line (CP + W'/t) dashed from 2 min.
public struct PowerCurveChart: Sendable {
    public struct Line: Sendable {
        public var name: String
        public var colour: StaticString
        public var points: [(seconds: Int, watts: Double)]
        public init(name: String, colour: StaticString, points: [(seconds: Int, watts: Double)]) {
            self.name = name; self.colour = colour; self.points = points
        }
    }

    public var lines: [Line]
    public var model: CriticalPowerModel?

    public init(lines: [Line], model: CriticalPowerModel?) { self.lines = lines; self.model = model }

    static let marks: [(Int, StaticString)] = [(1, "1s"), (5, "5s"), (15, "15s"), (60, "1m"), (300, "5m"), (1200, "20m"), (3600, "1h"), (18000, "5h")]

    public func render(into w: inout HTMLWriter) {
        let width = 720.0, height = 280.0, l = 44.0, r = 712.0, t = 16.0, b = 244.0
        let all = lines.flatMap { $0.points.map(\.watts) }
        let hi = max(all.max() ?? 0, 100)
        let ticks = ChartAxis.ticks(0, hi * 1.05, count: 5)
        let top = max(ticks.last ?? hi, hi)
        let sy = (b - t) / top
        let span = log(18000.0)
        func x(_ s: Double) -> Double { l + log(max(s, 1)) / span * (r - l) }
        func y(_ v: Double) -> Double { b - v * sy }
        w.raw("<svg class=\"power-curve\" data-chart=\"power-curve\" viewBox=\"0 0 "); w.coordinate(width); w.raw(" "); w.coordinate(height)
        w.raw("\" role=\"img\" aria-label=\"Best mean power by duration\"><g class=\"grid\">")
        for v in ticks {
            w.raw("<line x1=\""); w.coordinate(l); w.raw("\" x2=\""); w.coordinate(r); w.raw("\" y1=\""); w.coordinate(y(v)); w.raw("\" y2=\""); w.coordinate(y(v)); w.raw("\"/>")
        }
        for (s, _) in Self.marks {
            w.raw("<line x1=\""); w.coordinate(x(Double(s))); w.raw("\" x2=\""); w.coordinate(x(Double(s))); w.raw("\" y1=\""); w.coordinate(t)
            w.raw("\" y2=\""); w.coordinate(b); w.raw("\"/>")
        }
        w.raw("</g>")
        for v in ticks {
            w.raw("<text x=\""); w.coordinate(l - 6); w.raw("\" y=\""); w.coordinate(y(v) + 4); w.raw("\" text-anchor=\"end\">"); w.fixed(v, decimals: 0); w.raw("</text>")
        }
        for (s, label) in Self.marks {
            w.raw("<text x=\""); w.coordinate(x(Double(s))); w.raw("\" y=\""); w.coordinate(b + 18); w.raw("\" text-anchor=\"middle\">"); w.raw(label); w.raw("</text>")
        }
        if let m = model {
            w.raw("<polyline class=\"model\" fill=\"none\" stroke=\"#64748b\" stroke-width=\"1.5\" stroke-dasharray=\"5 4\" points=\"")
            var s = 120.0, first = true
            while s <= 18000 {
                if !first { w.raw(" ") }
                first = false
                w.coordinate(x(s)); w.raw(","); w.coordinate(y(min(m.watts(seconds: s), top)))
                s *= 1.25
            }
            w.raw("\"><title>Critical power "); w.fixed(m.criticalPower, decimals: 0); w.raw(" W, W' ")
            w.fixed(m.wPrime / 1000, decimals: 1); w.raw(" kJ</title></polyline>")
        }
        for (i, line) in lines.enumerated().reversed() where !line.points.isEmpty {
            w.raw("<polyline fill=\"none\" stroke=\""); w.raw(line.colour); w.raw("\" stroke-width=\""); w.raw(i == 0 ? "2.5" : "1.5")
            w.raw("\" points=\"")
            for (k, p) in line.points.enumerated() {
                if k > 0 { w.raw(" ") }
                w.coordinate(x(Double(p.seconds))); w.raw(","); w.coordinate(y(p.watts))
            }
            w.raw("\"><title>"); w.text(line.name); w.raw("</title></polyline>")
        }
        w.raw("<g class=\"legend\">")
        for (i, line) in lines.enumerated() {
            let lx = l + 10 + Double(i) * 130
            w.raw("<rect x=\""); w.coordinate(lx); w.raw("\" y=\""); w.coordinate(height - 14); w.raw("\" width=\"12\" height=\"4\" fill=\"")
            w.raw(line.colour); w.raw("\"/><text x=\""); w.coordinate(lx + 16); w.raw("\" y=\""); w.coordinate(height - 9); w.raw("\">"); w.text(line.name); w.raw("</text>")
        }
        w.raw("</g></svg>")
    }
}
