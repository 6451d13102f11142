/// The power page (`/power?days=N|all`): the power curve of the last N days against the N days
/// before and all time (`PowerCurveChart`), the critical-power model fitted to this range, and
/// the best powers with their workouts. The curves come from the control protocol's
/// `power-curve` (the same numbers as `workoutctl power-curve`).
public struct PowerPage: Sendable {
    public static let spans: [Int?] = [42, 90, 365, nil]
    public static let defaultSpan: Int? = 90

    public var current: [RangePowerPoint]
    public var previous: [RangePowerPoint]
    public var allTime: [RangePowerPoint]
    /// nil: all time.
    public var span: Int?

    public init(current: [RangePowerPoint], previous: [RangePowerPoint], allTime: [RangePowerPoint], span: Int?) {
        self.current = current; self.previous = previous; self.allTime = allTime; self.span = span
    }

    /// The span a query asks for (`days=N` of `spans`, or `all`), else the default.
    public static func span(query: Substring) -> Int? {
        guard let v = PercentEncoding.form(query).first(where: { $0.name == "days" })?.value else { return defaultSpan }
        if v == "all" { return nil }
        return Int(v).flatMap { n in spans.contains(n) ? n : nil } ?? defaultSpan
    }

    public func render(_ c: WebPageContext, recording: Bool = false) -> [UInt8] {
        var w = HTMLWriter(capacity: 32 << 10)
        PageLayout.begin(&w, title: "Power", section: .power, live: recording)
        w.raw("<h1>Power</h1><p class=\"sub\">Best mean power for each duration, 1 s to 5 h.</p>")
        RangeSelector.render(path: "/power", spans: Self.spans.map { ($0, $0.map { "\($0) days" } ?? "All time") }, current: span, into: &w)
        let model = CriticalPowerModel.fit(current.map { (seconds: $0.seconds, watts: $0.watts) })
        if let m = model {
            w.raw("<div class=\"stats\">")
            for (label, v, unit) in [("Critical power", m.criticalPower, " W"), ("W'", m.wPrime / 1000, " kJ"), ("eFTP", m.estimatedFTP, " W")] {
                w.raw("<div class=\"stat\"><b>"); w.fixed(v, decimals: unit == " kJ" ? 1 : 0); w.text(unit); w.raw("</b><span>"); w.text(label); w.raw("</span></div>")
            }
            w.raw("</div>")
        }
        var lines = [PowerCurveChart.Line(name: span.map { "Last \($0) days" } ?? "All time", colour: "#ea580c", points: current.map { ($0.seconds, $0.watts) })]
        if let n = span {
            lines.append(PowerCurveChart.Line(name: "The \(n) days before", colour: "#2563eb", points: previous.map { ($0.seconds, $0.watts) }))
            lines.append(PowerCurveChart.Line(name: "All time", colour: "#94a3b8", points: allTime.map { ($0.seconds, $0.watts) }))
        }
        w.raw("<section class=\"card chart\">")
        PowerCurveChart(lines: lines, model: model).render(into: &w)
        w.raw("</section>")
        if current.isEmpty {
            w.raw("<div class=\"card empty\"><p>No workouts with power in this range.</p></div>")
        } else {
            w.raw("<section class=\"card\"><table><thead><tr><th>Duration</th><th class=\"num\">Best power</th><th>Workout</th></tr></thead><tbody>")
            for p in current where PowerAnalysis.curveSeconds.contains(p.seconds) || [1, 180, 720].contains(p.seconds) {
                w.raw("<tr><td>"); w.text(WebFormat.durationName(p.seconds)); w.raw("</td><td class=\"num\"><b>"); w.int(Int(p.watts.rounded()))
                w.raw(" W</b></td><td><a href=\"/workouts/"); w.text(p.id.rawValue); w.raw("\">"); w.text(WebFormat.shortDate(p.startedAt, c.zone)); w.raw("</a></td></tr>")
            }
            w.raw("</tbody></table></section>")
        }
        PageLayout.end(&w, c)
        return w.bytes
    }
}

extension RangePowerPoint {
    /// A `curve` item of the `power-curve` reply; nil when it is not one.
    public init?(json j: JSON) {
        guard let s = j["seconds"]?.intValue, let watts = j["watts"]?.doubleValue, let id = j["id"]?.stringValue.flatMap(WorkoutID.init(rawValue:)),
              let t = j["startedAt"]?.stringValue.flatMap({ ISO8601.parse($0) }) else { return nil }
        self.init(seconds: s, watts: watts, id: id, startedAt: t)
    }
}
