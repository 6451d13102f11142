/// How a workout's page draws it: charts against distance or time, the route coloured by pace
/// or heart-rate zone (`?x=time&colour=hr`).
public struct WorkoutView: Sendable, Equatable {
    public enum XAxis: String, Sendable, CaseIterable { case distance, time }
    public var x: XAxis?
    public var colouring: RouteMap.Colouring?

    public init(x: XAxis? = nil, colouring: RouteMap.Colouring? = nil) { self.x = x; self.colouring = colouring }

    public init(query: some StringProtocol) {
        self.init()
        for (name, value) in PercentEncoding.form(query) {
            switch name {
            case "x": x = XAxis(rawValue: value)
            case "colour", "color": colouring = RouteMap.Colouring(rawValue: value)
            default: continue
            }
        }
    }

    func query(x: XAxis?, colouring: RouteMap.Colouring?) -> String {
        var parts: [String] = []
        if let x { parts.append("x=" + x.rawValue) }
        if let colouring { parts.append("colour=" + colouring.rawValue) }
        return parts.isEmpty ? "" : "?" + parts.joined(separator: "&")
    }
}

/// One workout's page (`/workouts/ID`): numbers, route, charts, splits, laps, zones, best
/// efforts, events, the edit form and downloads. Sections without data are left out.
public struct WorkoutPage: Sendable {
    public var workout: Workout
    /// The personal bests this workout set (marked in its best efforts).
    public var personalBests: [PersonalBest]
    public var view: WorkoutView
    /// The power curve of the activity's last 365 days (`power-curve`), drawn under a power
    /// workout's own; empty: none.
    public var season: [RangePowerPoint] = []
    /// 1 when `workout` holds every point; n when it holds every n-th (a workout of millions of
    /// points, thinned as it was read): the page says so, and its power curve is the summary's
    /// best powers, which were found from every point.
    public var pointStride = 1

    public init(workout: Workout, personalBests: [PersonalBest] = [], view: WorkoutView = WorkoutView()) {
        self.workout = workout; self.personalBests = personalBests; self.view = view
    }

    /// What drawing the page did, per chart (for benchmarks and docs: vertices and error).
    public struct Report: Sendable {
        public var charts: [(name: String, vertices: Int, maxErrorPixels: Double)] = []
        public init() {}
    }

    public func render(_ c: WebPageContext) -> [UInt8] {
        var report = Report()
        return render(c, report: &report)
    }

    public func render(_ c: WebPageContext, report: inout Report) -> [UInt8] {
        let s = workout.summary
        let title = WebPages.title(s, c.zone)
        var w = HTMLWriter(capacity: 160 << 10)
        PageLayout.begin(&w, title: title, section: .history)
        let series = WorkoutSeries(workout: workout)
        let hasRoute = series.hasPositions
        let xAxis: WorkoutView.XAxis = view.x == .distance && !series.hasDistance ? .time : view.x ?? (hasRoute && s.distanceMeters > 0 ? .distance : .time)
        let canColourByZone = !s.heartRateZoneBounds.isEmpty && series.heartRate.contains { !$0.isNaN }
        let colouring: RouteMap.Colouring = view.colouring == .heartRate && canColourByZone ? .heartRate : .pace
        let base = "/workouts/" + s.id.rawValue

        w.raw("<p class=\"sub small\"><a href=\"/\">History</a> › "); w.text(WebFormat.shortDate(s.startedAt, c.zone)); w.raw("</p>")
        w.raw("<h1>"); w.text(title); w.raw("</h1><p class=\"sub\"><span class=\"badge\">"); w.text(s.activity.displayName)
        w.raw("</span> "); w.text(WebFormat.date(s.startedAt, c.zone)); w.raw(" at "); w.text(WebFormat.clock(s.startedAt, c.zone))
        if let end = s.endedAt { w.raw("–"); w.text(WebFormat.clock(end, c.zone)) }
        if workout.source.hasPrefix("imported:") { w.raw(" · imported from "); w.text(String(workout.source.dropFirst("imported:".count))) }
        w.raw("</p>")
        if s.gear != nil || s.effort != nil {
            w.raw("<p class=\"sub\">")
            if let g = s.gear { w.raw("Gear: "); w.text(g) }
            if let e = s.effort { if s.gear != nil { w.raw(" · ") }; w.raw("Effort \(e)/10") }
            w.raw("</p>")
        }
        if let n = s.notes { w.raw("<p class=\"notes\">"); w.text(n); w.raw("</p>") }
        if !s.records.counts { w.raw("<p class=\"sub\">Kept out of records and personal bests.</p>") }
        for x in s.implausible {
            // Kept in the route and the charts; named here, as in `show`.
            w.raw("<p class=\"sub implausible\">Implausible at "); w.text(WebFormat.clock(x.start, c.zone)); w.raw(" for ")
            w.text(WebFormat.duration(x.seconds)); w.raw(": "); w.text(c.units.distance(x.meters)); w.raw(" up to "); w.text(c.units.speed(x.speed))
            w.raw(" ("); w.raw(x.reason.rawValue); w.raw("); not in max speed, best efforts or records.</p>")
        }

        if pointStride > 1 {
            w.raw("<p class=\"sub small\">Drawn from every "); w.int(pointStride); w.raw(ordinalSuffix(pointStride)); w.raw(" of its ")
            w.text(WebFormat.count(s.pointCount)); w.raw(" points; the numbers are from all of them.</p>")
        }
        stats(s, c, &w)

        if hasRoute {
            w.raw("<section class=\"card\"><div class=\"charthead\"><h2>Route</h2><span class=\"tabs\">")
            tab("Pace", base + view.query(x: view.x, colouring: nil), colouring == .pace, &w)
            if canColourByZone {
                tab("Heart-rate zone", base + view.query(x: view.x, colouring: .heartRate), colouring == .heartRate, &w)
            }
            w.raw("</span></div>")
            var map = RouteMap(series: series, colouring: colouring, zoneBounds: s.heartRateZoneBounds)
            map.implausible = s.implausible.map { ($0.start - s.startedAt)...($0.end - s.startedAt) }
            map.tiles = c.tiles
            let hoverX = chartX(series, xAxis, c)
            if let drawn = map.render(into: &w, label: "Route of " + title, hoverX: hoverX) {
                report.charts.append(("route", drawn.vertices, drawn.maxError))
            }
            legend(map, s, c, &w)
            w.raw("</section>")
        }

        charts(series, xAxis, base, c, &w, &report)
        powerCurve(s, &w)
        splitsAndZones(s, c, &w)
        plan(s, &w)
        laps(s, c, &w)
        events(c, &w)
        edit(s, c, &w)
        downloads(s, &w)
        PageLayout.end(&w, c)
        return w.bytes
    }

    // MARK: - Sections

    func stats(_ s: WorkoutSummary, _ c: WebPageContext, _ w: inout HTMLWriter) {
        w.raw("<section class=\"card\"><div class=\"stats\">")
        func stat(_ value: String, _ label: StaticString, field: StaticString? = nil) {
            w.raw("<div class=\"stat\"><b"); if let field { w.raw(" data-field=\""); w.raw(field); w.raw("\"") }
            w.raw(">"); w.text(value); w.raw("</b><span>"); w.raw(label); w.raw("</span></div>")
        }
        if s.distanceMeters > 0 { stat(c.units.distance(s.distanceMeters), "Distance") }
        stat(WebFormat.duration(s.movingSeconds), "Moving time")
        stat(WebFormat.duration(s.elapsedSeconds), "Elapsed time")
        if abs(s.timerSeconds - s.elapsedSeconds) >= 1 { stat(WebFormat.duration(s.timerSeconds), "Timer time") }
        if let swim = s.swim {
            // A swim: pace per 100 of its pool's unit, lengths and SWOLF (as `show` prints them), no km/h.
            if let pace = swim.pacePer100 { stat(WebFormat.duration(pace) + " /100 " + swim.paceUnit.rawValue, "Average pace") }
            if let n = swim.lengths, let pool = swim.poolLengthMeters {
                let unit = swim.poolUnit ?? .meters
                stat("\(swim.activeLengths ?? n) × " + formatFixed(pool / unit.meters, decimals: 0) + " " + unit.rawValue, "Lengths")
            }
            if let swolf = swim.averageSwolf { stat(formatFixed(swolf, decimals: 0), "SWOLF") }
            if let strokes = swim.strokes { stat("\(strokes)", "Strokes") }
            if let stroke = swim.mainStroke { stat(stroke.rawValue.prefix(1).uppercased() + stroke.rawValue.dropFirst(), "Stroke") }
        } else if s.distanceMeters > 0, let e = WebFormat.effort(s.movingAverageSpeed, s.activity, c.units) {
            switch s.activity.pageEffort {
            case .pace: stat(e, "Average pace")
            case .speed, .none: stat(e, "Average speed")
            }
            if s.maxSpeed > 0 { stat(c.units.speed(s.maxSpeed), "Max speed") }
        }
        if s.elevationGainMeters > 0 { stat(c.units.elevation(s.elevationGainMeters), "Elevation gain") }
        if let g = s.deviceElevationGainMeters, g > 0 { stat(c.units.elevation(g), "Elevation gain (device)") }
        if let hr = s.averageHeartRate { stat("\(Int(hr.rounded())) bpm", "Average heart rate") }
        if let hr = s.maxHeartRate { stat("\(hr) bpm", "Max heart rate") }
        if let p = s.averagePower { stat("\(Int(p.rounded())) W", "Average power") }
        if let p = s.maxPower { stat("\(p) W", "Max power") }
        if let p = s.normalizedPower { stat("\(Int(p.rounded())) W", "Normalized power") }
        if let f = s.intensityFactor { stat(formatFixed(f, decimals: 2), "Intensity factor") }
        if let t = s.trainingStress {
            switch s.trainingStressMethod {
            case .power?, nil: stat(formatFixed(t, decimals: 0), "Training stress (TSS)")
            case .heartRate?: stat(formatFixed(t, decimals: 0), "Training stress (heart rate)")
            case .pace?: stat(formatFixed(t, decimals: 0), "Training stress (pace)")
            }
        }
        if let kj = s.workKilojoules { stat("\(Int(kj.rounded())) kJ", "Work") }
        if let cad = s.averageCadence { stat("\(Int(cad.rounded())) " + s.activity.cadenceUnit, "Average cadence") }
        if let kcal = s.calories, kcal > 0 { stat("\(Int(kcal.rounded())) kcal", "Calories") }
        w.raw("</div></section>")
    }

    /// The workout's own power curve (`PowerCurveChart`, 1 s to its length) against the
    /// season's (`season`) with the model of its own when it can be fitted; nothing without power.
    func powerCurve(_ s: WorkoutSummary, _ w: inout HTMLWriter) {
        guard s.averagePower != nil else { return }
        let curve = pointStride > 1 ? s.powerCurve : PowerCurve.of(workout, settings: MetricsSettings())
        guard !curve.isEmpty else { return }
        let model = CriticalPowerModel.fit(curve.map { (seconds: $0.seconds, watts: $0.watts) })
        w.raw("<section class=\"card\"><div class=\"charthead\"><h2>Power curve</h2><span>")
        w.text(curve.filter { PowerAnalysis.curveSeconds.contains($0.seconds) }.map { WebFormat.durationName($0.seconds) + " " + String(Int($0.watts.rounded())) + " W" }
            .joined(separator: " · "))
        w.raw("</span></div>")
        var lines = [PowerCurveChart.Line(name: "This workout", colour: "#ea580c", points: curve.map { ($0.seconds, $0.watts) })]
        if !season.isEmpty {
            lines.append(.init(name: "Last 365 days", colour: "#94a3b8", points: season.map { ($0.seconds, $0.watts) }))
        }
        PowerCurveChart(lines: lines, model: model).render(into: &w)
        w.raw("</section>")
    }

    func tab(_ label: String, _ href: String, _ on: Bool, _ w: inout HTMLWriter) {
        w.raw("<a href=\""); w.text(href); w.raw("\""); if on { w.raw(" class=\"on\"") }
        w.raw(">"); w.text(label); w.raw("</a>")
    }

    func legend(_ map: RouteMap, _ s: WorkoutSummary, _ c: WebPageContext, _ w: inout HTMLWriter) {
        w.raw("<div class=\"legend\">")
        switch map.colouring {
        case .pace:
            let th = map.speedThresholds()
            guard th.count == 4 else { break }
            let pace = s.activity.pageEffort == .pace
            func label(_ v: Double) -> String { pace ? c.units.pace(speed: v) : c.units.speed(v) }
            let names = [pace ? "slower than " + label(th[0]) : "under " + label(th[0])] +
                (0..<3).map { label(th[$0]) + " – " + label(th[$0 + 1]) } +
                [pace ? "faster than " + label(th[3]) : "over " + label(th[3])]
            for (k, n) in names.enumerated() { w.raw("<span><i class=\"c"); w.int(k + 1); w.raw("\"></i>"); w.text(n); w.raw("</span>") }
        case .heartRate:
            let b = s.heartRateZoneBounds
            w.raw("<span><i class=\"z0\"></i>below "); w.int(b.first ?? 0); w.raw(" bpm</span>")
            for (k, lower) in b.enumerated() {
                w.raw("<span><i class=\"z"); w.int(k + 1); w.raw("\"></i>Z"); w.int(k + 1); w.raw(" ")
                w.int(lower); if k + 1 < b.count { w.raw("–"); w.int(b[k + 1] - 1) } else { w.raw("+") }
                w.raw(" bpm</span>")
            }
        }
        w.raw("<span><svg class=\"dot\" viewBox=\"0 0 10 10\"><circle class=\"start\" cx=\"5\" cy=\"5\" r=\"4\"/></svg> start</span>")
        w.raw("<span><svg class=\"dot\" viewBox=\"0 0 10 10\"><circle class=\"finish\" cx=\"5\" cy=\"5\" r=\"4\"/></svg> finish</span>")
        if workout.events.contains(where: \.isManualPause) {
            w.raw("<span><svg class=\"dot\" viewBox=\"0 0 10 10\"><g class=\"pause\"><circle cx=\"5\" cy=\"5\" r=\"4.2\"/><path d=\"M3.8 3v4M6.2 3v4\"/></g></svg> paused</span>")
        }
        if workout.summary.laps.count > 1 { w.raw("<span><svg class=\"dot\" viewBox=\"0 0 10 10\"><g class=\"lapmark\"><circle cx=\"5\" cy=\"5\" r=\"4.2\"/></g></svg> lap</span>") }
        if !map.implausible.isEmpty { w.raw("<span><i class=\"implausible\"></i>implausible (kept, not counted)</span>") }
        w.raw("</div>")
    }

    /// Each sample's x value in display units (distance unit or seconds).
    func chartX(_ series: WorkoutSeries, _ x: WorkoutView.XAxis, _ c: WebPageContext) -> [Double] {
        switch x {
        case .distance: let u = c.units.metersPerDistanceUnit; return series.distance.map { $0 / u }
        case .time: return series.time
        }
    }

    func charts(_ series: WorkoutSeries, _ x: WorkoutView.XAxis, _ base: String, _ c: WebPageContext, _ w: inout HTMLWriter, _ report: inout Report) {
        guard series.count >= 2 else { return }
        let s = workout.summary
        let xs = chartX(series, x, c)
        let xAxis: LineChart.Axis = x == .distance ? .init(format: .number, unit: c.units.distanceUnit, decimals: 2) : .init(format: .duration, unit: "")
        let lapXs = s.laps.dropLast().compactMap { lap -> Double? in
            switch x {
            case .distance:
                guard let k = series.time.lastIndex(where: { $0 <= lap.endTime - s.startedAt }) else { return nil }
                return xs[k]
            case .time: return lap.endTime - s.startedAt
            }
        }
        // Implausible stretches as x ranges, shaded on the pace or speed chart.
        let stretches = s.implausible.compactMap { x -> ClosedRange<Double>? in
            let (a, b) = (x.start - s.startedAt, x.end - s.startedAt)
            guard let i = series.time.firstIndex(where: { $0 >= a }), let j = series.time.lastIndex(where: { $0 <= b }), i <= j else { return nil }
            return xs[i]...xs[j]
        }
        var any = false
        func chart(_ kind: LineChart.Kind, _ title: String, _ detail: String, _ y: [Double], _ axis: LineChart.Axis, configure: (inout LineChart) -> Void = { _ in }) {
            var lc = LineChart(kind: kind, x: xs, y: y, runs: series.runs, xAxis: xAxis, yAxis: axis)
            lc.laps = s.swim == nil ? lapXs : []  // a swim's laps are its lengths and rests: its intervals are listed instead
            configure(&lc)
            guard lc.yRange() != nil else { return }
            if !any {
                w.raw("<section class=\"card\"><div class=\"charthead\"><h2>Charts</h2><span class=\"tabs\">")
                if series.hasDistance, s.distanceMeters > 0 {
                    // A track's charts default to distance; an indoor workout's to time.
                    tab("Distance", base + view.query(x: series.hasPositions ? nil : .distance, colouring: view.colouring), x == .distance, &w)
                    tab("Time", base + view.query(x: series.hasPositions ? .time : nil, colouring: view.colouring), x == .time, &w)
                }
                w.raw("</span></div>")
                any = true
            }
            w.raw("<div class=\"charthead\"><h3>"); w.text(title); w.raw("</h3><span>"); w.text(detail); w.raw("</span></div>")
            if let d = lc.render(into: &w, label: title) { report.charts.append((kind.rawValue, d.vertices, d.maxError)) }
        }
        let u = c.units
        if series.elevation.contains(where: { !$0.isNaN }) {
            let toUnit = u.system == .metric ? 1 : 1 / UnitFormatter.metersPerFoot
            let unit = u.system == .metric ? "m" : "ft"
            chart(.elevation, "Elevation", "gain " + u.elevation(s.elevationGainMeters) + " · loss " + u.elevation(s.elevationLossMeters),
                  series.elevation.map { $0 * toUnit }, .init(format: .number, unit: unit)) { $0.filled = true }
        }
        if let swim = s.swim, series.speed.contains(where: { !$0.isNaN && $0 > 0 }) {
            // A swim's pace per 100 of its pool's unit, never km/h.
            let per = 100 * swim.paceUnit.meters
            let paces = series.speed.map { $0 >= 0.2 ? min(per / $0, 600) : Double.nan }
            chart(.pace, "Pace", swim.pacePer100.map { "average " + WebFormat.duration($0) + " /100 " + swim.paceUnit.rawValue } ?? "",
                  paces, .init(format: .pace, unit: "/100 " + swim.paceUnit.rawValue)) { $0.inverted = true; $0.implausible = stretches }
        } else if series.speed.contains(where: { !$0.isNaN && $0 > 0 }) {
            switch s.activity.pageEffort {
            case .pace:
                let per = u.metersPerDistanceUnit
                var paces = series.speed.map { $0 >= 0.5 ? per / $0 : Double.nan }
                let sorted = paces.filter { !$0.isNaN }.sorted()
                if !sorted.isEmpty {
                    // Standing still is an endless pace: the axis stops at about twice the median.
                    let limit = max(sorted[sorted.count / 2] * 2, sorted[sorted.count / 2] + 180)
                    for k in paces.indices where paces[k] > limit { paces[k] = limit }
                }
                chart(.pace, "Pace", "average " + u.pace(speed: s.movingAverageSpeed), paces, .init(format: .pace, unit: "/" + u.distanceUnit)) {
                    $0.inverted = true; $0.implausible = stretches
                }
            case .speed, .none:
                let f = u.system == .metric ? 3.6 : 3600 / UnitFormatter.metersPerMile
                chart(.speed, "Speed", "average " + u.speed(s.movingAverageSpeed) + " · max " + u.speed(s.maxSpeed),
                      series.speed.map { $0 * f }, .init(format: .number, unit: u.system == .metric ? "km/h" : "mph", decimals: 1)) {
                    $0.fromZero = true; $0.implausible = stretches
                }
            }
        }
        if series.heartRate.contains(where: { !$0.isNaN }) {
            var detail = s.averageHeartRate.map { "average \(Int($0.rounded())) bpm" } ?? ""
            if let m = s.maxHeartRate { detail += " · max \(m) bpm" }
            chart(.heartrate, "Heart rate", detail, series.heartRate, .init(format: .number, unit: "bpm")) { $0.zoneBounds = s.heartRateZoneBounds }
        }
        if series.power.contains(where: { !$0.isNaN }) {
            let detail = s.averagePower.map { "average \(Int($0.rounded())) W" } ?? ""
            chart(.power, "Power", detail, series.power, .init(format: .number, unit: "W")) { $0.fromZero = true }
        }
        if series.cadence.contains(where: { !$0.isNaN }) {
            let detail = s.averageCadence.map { "average \(Int($0.rounded())) " + s.activity.cadenceUnit } ?? ""
            chart(.cadence, "Cadence", detail, series.cadence.map { $0 * s.activity.cadenceFactor }, .init(format: .number, unit: s.activity.cadenceUnit))
        }
        if any {
            w.raw("<p class=\"muted small\">Gaps are pauses. Pace, speed, power and cadence are averaged over ")
            w.int(Int(series.smoothingSeconds.rounded())); w.raw(" s.</p></section>")
        }
    }

    func splitsAndZones(_ s: WorkoutSummary, _ c: WebPageContext, _ w: inout HTMLWriter) {
        let hasZones = s.heartRateZoneSeconds.contains { $0 > 0 } && !s.heartRateZoneBounds.isEmpty
        let hasBests = !s.bestEfforts.isEmpty
        let hasPowerZones = s.powerZoneSeconds.contains { $0 > 0 } && s.powerZoneBounds.count == s.powerZoneSeconds.count
        let splitPower = s.splits.contains { $0.averagePower != nil }
        guard !s.splits.isEmpty || hasZones || hasBests || hasPowerZones else { return }
        w.raw("<div class=\"grid2\">")
        if !s.splits.isEmpty {
            w.raw("<section class=\"card\"><h2>Splits</h2><div class=\"scroll\"><table><thead><tr><th>")
            w.text(c.units.distanceUnit); w.raw("</th><th class=\"num\">Moving</th><th class=\"num\">Elapsed</th><th>")
            w.raw(s.activity.pageEffort == .pace || s.swim != nil ? "Pace" : "Speed")
            w.raw("</th><th class=\"num\">Climb</th><th class=\"num\">HR</th>")
            if splitPower { w.raw("<th class=\"num\">Power</th>") }
            w.raw("</tr></thead><tbody>")
            let speeds = s.splits.map(\.paceSpeed)  // without implausible stretches
            let fastest = speeds.max() ?? 1
            for (k, sp) in s.splits.enumerated() {
                let v = speeds[k]
                w.raw("<tr><td>"); w.int(sp.index + 1)
                if sp.distanceMeters < c.units.metersPerDistanceUnit * 0.98 { w.raw(" <span class=\"muted small\">("); w.text(c.units.distance(sp.distanceMeters)); w.raw(")</span>") }
                w.raw("</td><td class=\"num\">"); w.text(WebFormat.duration(sp.movingSeconds))
                w.raw("</td><td class=\"num muted\">"); w.text(WebFormat.duration(sp.elapsedSeconds)); w.raw("</td><td>")
                w.raw("<svg viewBox=\"0 0 100 10\" width=\"90\" height=\"9\" aria-hidden=\"true\"><rect width=\"")
                w.fixed(fastest > 0 ? max(4, v / fastest * 100) : 0, decimals: 1); w.raw("\" height=\"10\" rx=\"2\" fill=\"#2563eb\" opacity=\".75\"/></svg> ")
                if let swim = s.swim {
                    w.text(v > 0 ? WebFormat.duration(100 * swim.paceUnit.meters / v) + " /100 " + swim.paceUnit.rawValue : "–")
                } else {
                    w.text(WebFormat.effort(v, s.activity, c.units) ?? c.units.speed(v))
                }
                leftOut(sp, c, &w)
                w.raw("</td><td class=\"num\">"); w.text(c.units.elevation(sp.elevationGainMeters))
                w.raw("</td><td class=\"num\">"); if let hr = sp.averageHeartRate { w.int(hr) } else { w.raw("–") }
                if splitPower { w.raw("</td><td class=\"num\">"); if let p = sp.averagePower { w.int(p); w.raw(" W") } else { w.raw("–") } }
                w.raw("</td></tr>")
            }
            w.raw("</tbody></table></div>")
            leftOutNote(s.splits, &w)
            w.raw("</section>")
        }
        if hasZones || hasBests || hasPowerZones {
            w.raw("<div>")
            if hasZones { zones(s, &w) }
            if hasPowerZones { powerZones(s, &w) }
            if hasBests { bests(s, c, &w) }
            w.raw("</div>")
        }
        w.raw("</div>")
    }

    /// Time in Coggan's seven power zones (`powerZoneBounds`, from `ftpWatts`).
    func powerZones(_ s: WorkoutSummary, _ w: inout HTMLWriter) {
        let total = s.powerZoneSeconds.reduce(0, +)
        guard total > 0 else { return }
        let b = s.powerZoneBounds
        w.raw("<section class=\"card power-zones\"><h2>Time in power zones</h2><table><tbody>")
        for (k, secs) in s.powerZoneSeconds.enumerated() {
            w.raw("<tr><td>Z"); w.int(k + 1); w.raw(" "); w.int(b[k]); if k + 1 < b.count { w.raw("–"); w.int(b[k + 1]) } else { w.raw("+") }
            w.raw(" W</td><td class=\"num\">"); w.text(WebFormat.duration(secs)); w.raw("</td><td class=\"num\">")
            w.int(Int((secs / total * 100).rounded())); w.raw(" %</td></tr>")
        }
        w.raw("</tbody></table></section>")
    }

    func zones(_ s: WorkoutSummary, _ w: inout HTMLWriter) {
        let total = s.heartRateZoneSeconds.reduce(0, +)
        guard total > 0 else { return }
        let b = s.heartRateZoneBounds
        w.raw("<section class=\"card\"><h2>Time in heart-rate zones</h2><svg class=\"zones\" viewBox=\"0 0 400 ")
        let rows = min(s.heartRateZoneSeconds.count, b.count + 1)
        w.int(rows * 26); w.raw("\" width=\"100%\" role=\"img\" aria-label=\"Time in heart-rate zones\">")
        for slot in (0..<rows).reversed() {
            let y = Double((rows - 1 - slot) * 26)
            let secs = s.heartRateZoneSeconds[slot]
            let frac = secs / total
            w.raw("<text x=\"0\" y=\""); w.coordinate(y + 15); w.raw("\">")
            if slot == 0 { w.raw("below Z1") } else {
                w.raw("Z"); w.int(slot); w.raw(" "); w.int(b[slot - 1]); if slot < b.count { w.raw("–"); w.int(b[slot] - 1) } else { w.raw("+") }
            }
            w.raw("</text><rect class=\"barbg\" x=\"110\" y=\""); w.coordinate(y + 5); w.raw("\" width=\"200\" height=\"12\" rx=\"3\"/>")
            w.raw("<rect class=\"z"); w.int(slot); w.raw("\" x=\"110\" y=\""); w.coordinate(y + 5); w.raw("\" width=\""); w.coordinate(200 * frac)
            w.raw("\" height=\"12\" rx=\"3\"/><text x=\"318\" y=\""); w.coordinate(y + 15); w.raw("\">"); w.text(WebFormat.duration(secs))
            w.raw(" · "); w.int(Int((frac * 100).rounded())); w.raw("%</text>")
        }
        w.raw("</svg></section>")
    }

    func bests(_ s: WorkoutSummary, _ c: WebPageContext, _ w: inout HTMLWriter) {
        w.raw("<section class=\"card\"><h2>Best efforts</h2><table><thead><tr><th>Distance</th><th class=\"num\">Time</th><th class=\"num\">")
        w.raw(s.activity.pageEffort == .pace ? "Pace" : "Speed"); w.raw("</th></tr></thead><tbody>")
        for e in s.bestEfforts {
            w.raw("<tr><td>"); w.text(UnitFormatter.bestEffortName(e.distanceMeters))
            if personalBests.contains(where: { abs($0.effort.distanceMeters - e.distanceMeters) < 1 }) { w.raw("<span class=\"pb\">PERSONAL BEST</span>") }
            w.raw("</td><td class=\"num\">"); w.text(WebFormat.duration(e.seconds)); w.raw("</td><td class=\"num\">")
            w.text(WebFormat.effort(e.seconds > 0 ? e.distanceMeters / e.seconds : 0, s.activity, c.units) ?? "–")
            w.raw("</td></tr>")
        }
        w.raw("</tbody></table></section>")
    }

    /// A swim's intervals: runs of laps with distance, each ended by a lap without (a rest).
    static func intervals(_ laps: [LapSummary]) -> [(laps: Int, meters: Double, seconds: Double, restAfter: Double)] {
        var out: [(laps: Int, meters: Double, seconds: Double, restAfter: Double)] = []
        var open: (laps: Int, meters: Double, seconds: Double, restAfter: Double)?
        for lap in laps {
            if lap.distanceMeters > 0 {
                open = (laps: (open?.laps ?? 0) + 1, meters: (open?.meters ?? 0) + lap.distanceMeters,
                        seconds: (open?.seconds ?? 0) + lap.elapsedSeconds, restAfter: 0)
            } else if var o = open {
                o.restAfter = lap.elapsedSeconds
                out.append(o)
                open = nil
            }
        }
        if let o = open { out.append(o) }
        return out
    }

    /// A pool swim's intervals from the device's lengths: runs of active lengths, each ended by
    /// the rest lengths after it.
    static func intervals(_ pool: PoolSwim) -> [(laps: Int, meters: Double, seconds: Double, restAfter: Double)] {
        var out: [(laps: Int, meters: Double, seconds: Double, restAfter: Double)] = []
        for l in pool.lengths {
            if l.active {
                if let last = out.last, last.restAfter == 0 {
                    out[out.count - 1] = (last.laps + 1, last.meters + pool.poolLengthMeters, last.seconds + l.seconds, 0)
                } else {
                    out.append((1, pool.poolLengthMeters, l.seconds, 0))
                }
            } else if !out.isEmpty {
                out[out.count - 1].restAfter += l.seconds
            }
        }
        return out
    }

    func swimIntervals(_ s: WorkoutSummary, _ swim: SwimSummary, _ c: WebPageContext, _ w: inout HTMLWriter) {
        let all = workout.device?.pool.map(Self.intervals) ?? Self.intervals(s.laps)
        guard !all.isEmpty else { return }
        let unit = swim.paceUnit
        w.raw("<section class=\"card\"><h2>Intervals</h2><table><thead><tr><th>Interval</th><th class=\"num\">Lengths</th><th class=\"num\">Distance</th>")
        w.raw("<th class=\"num\">Time</th><th class=\"num\">Pace /100 "); w.text(unit.rawValue); w.raw("</th><th class=\"num\">Rest</th></tr></thead><tbody>")
        for (k, iv) in all.enumerated() {
            w.raw("<tr><td>"); w.int(k + 1); w.raw("</td><td class=\"num\">"); w.int(iv.laps)
            w.raw("</td><td class=\"num\">"); w.text(formatFixed(iv.meters / unit.meters, decimals: 0) + " " + unit.rawValue)
            w.raw("</td><td class=\"num\">"); w.text(WebFormat.duration(iv.seconds))
            w.raw("</td><td class=\"num\">"); w.text(WebFormat.duration(iv.seconds / (iv.meters / unit.meters / 100)))
            w.raw("</td><td class=\"num\">"); if iv.restAfter > 0 { w.text(WebFormat.duration(iv.restAfter)) } else { w.raw("–") }
            w.raw("</td></tr>")
        }
        w.raw("</tbody></table></section>")
    }

    /// The plan the workout followed against the ride: each step's target beside what was
    /// done, its score, and the compliance (docs/plans.md, "What was done").
    func plan(_ s: WorkoutSummary, _ w: inout HTMLWriter) {
        guard let plan = s.plan else { return }
        w.raw("<section class=\"card\"><h2>Plan: "); w.text(plan.name); w.raw("</h2><p>")
        w.text("\(plan.steps.count) of \(plan.stepCount) steps")
        if let c = plan.compliance { w.text(", compliance " + formatFixed(c, decimals: 1) + " %") }
        w.raw("</p><table><thead><tr><th>Step</th><th>Kind</th><th class=\"num\">Target</th><th class=\"num\">Actual</th>")
        w.raw("<th class=\"num\">Time</th><th class=\"num\">Score</th></tr></thead><tbody>")
        for st in plan.steps {
            let (target, actual) = st.figures
            w.raw("<tr><td>"); w.int(st.index + 1); w.raw("</td><td>"); w.text(st.kind.words)
            w.raw("</td><td class=\"num\">"); w.text(target); w.raw("</td><td class=\"num\">"); w.text(actual)
            w.raw("</td><td class=\"num\">"); w.text(WebFormat.duration(st.seconds))
            w.raw("</td><td class=\"num\">"); w.text(st.compliance.map { formatFixed($0, decimals: 0) + " %" } ?? "–"); w.raw("</td></tr>")
        }
        w.raw("</tbody></table></section>")
    }

    func laps(_ s: WorkoutSummary, _ c: WebPageContext, _ w: inout HTMLWriter) {
        if let swim = s.swim { swimIntervals(s, swim, c, &w); return }
        guard s.laps.count > 1 else { return }
        w.raw("<section class=\"card\"><h2>Laps</h2><table><thead><tr><th>Lap</th><th class=\"num\">Distance</th><th class=\"num\">Moving</th><th class=\"num\">Elapsed</th><th class=\"num\">")
        w.raw(s.activity.pageEffort == .pace ? "Pace" : "Speed")
        w.raw("</th><th class=\"num\">Climb</th><th class=\"num\">Avg HR</th><th class=\"num\">Max HR</th><th class=\"num\">Power</th><th>Trigger</th></tr></thead><tbody>")
        for lap in s.laps {
            w.raw("<tr><td>"); w.int(lap.index + 1); w.raw("</td><td class=\"num\">"); w.text(c.units.distance(lap.distanceMeters))
            w.raw("</td><td class=\"num\">"); w.text(WebFormat.duration(lap.movingSeconds))
            w.raw("</td><td class=\"num muted\">"); w.text(WebFormat.duration(lap.elapsedSeconds)); w.raw("</td><td class=\"num\">")
            w.text(WebFormat.effort(lap.paceSpeed, s.activity, c.units) ?? "–")
            leftOut(lap, c, &w)
            w.raw("</td><td class=\"num\">"); w.text(c.units.elevation(lap.elevationGainMeters))
            w.raw("</td><td class=\"num\">"); if let h = lap.averageHeartRate { w.int(h) } else { w.raw("–") }
            w.raw("</td><td class=\"num\">"); if let h = lap.maxHeartRate { w.int(h) } else { w.raw("–") }
            w.raw("</td><td class=\"num\">"); if let p = lap.averagePower { w.int(p); w.raw(" W") } else { w.raw("–") }
            w.raw("</td><td class=\"muted\">"); w.raw(lap.trigger.rawValue); w.raw("</td></tr>")
        }
        w.raw("</tbody></table>")
        leftOutNote(s.laps, &w)
        w.raw("</section>")
    }

    /// A mark after a split's or lap's pace when implausible stretches were left out of it.
    func leftOut(_ lap: LapSummary, _ c: WebPageContext, _ w: inout HTMLWriter) {
        guard lap.implausibleMeters > 0 || lap.implausibleSeconds > 0 else { return }
        w.raw(" <span class=\"implausible\" title=\"without "); w.text(c.units.distance(lap.implausibleMeters)); w.raw(" in ")
        w.text(WebFormat.duration(lap.implausibleSeconds)); w.raw(" of implausible track\">*</span>")
    }

    /// The note under a table with a mark (`leftOut`).
    func leftOutNote(_ laps: [LapSummary], _ w: inout HTMLWriter) {
        guard laps.contains(where: { $0.implausibleMeters > 0 || $0.implausibleSeconds > 0 }) else { return }
        w.raw("<p class=\"muted small\"><span class=\"implausible\">*</span> pace without the implausible stretches in it (their distance and time stay in the row).</p>")
    }

    /// Most events listed (a long workout auto-paused at every traffic light has hundreds).
    public static let maxEvents = 200

    func events(_ c: WebPageContext, _ w: inout HTMLWriter) {
        let shown = workout.events.filter { e in
            switch e.kind {
            case .pause, .resume, .lap, .marker, .signalLost, .signalRegained, .recovered, .suspended, .segment: return true
            case .motionPaused, .motionResumed: return false
            }
        }
        guard !shown.isEmpty else { return }
        let autoPauses = workout.events.filter { $0.kind == .motionPaused }.count
        w.raw("<section class=\"card\"><h2>Events</h2>")
        if autoPauses > 0 { w.raw("<p class=\"muted small\">Auto-paused "); w.int(autoPauses); w.raw(autoPauses == 1 ? " time" : " times"); w.raw(" (not listed).</p>") }
        w.raw("<table><tbody>")
        for e in shown.prefix(WorkoutPage.maxEvents) {
            w.raw("<tr><td class=\"muted\">"); w.text(WebFormat.clock(e.time, c.zone)); w.raw("</td><td>"); w.text(WorkoutPage.describe(e)); w.raw("</td></tr>")
        }
        w.raw("</tbody></table>")
        if shown.count > WorkoutPage.maxEvents { w.raw("<p class=\"muted small\">and "); w.int(shown.count - WorkoutPage.maxEvents); w.raw(" more</p>") }
        w.raw("</section>")
    }

    static func describe(_ e: WorkoutEvent) -> String {
        var text: String
        switch e.kind {
        case .pause:
            switch e.cause {
            case .manual?, nil: text = "Paused"
            case .auto?: text = "Paused automatically"
            case .signalLost?: text = "Paused: GPS signal lost"
            case .recovered?: text = "Paused: the daemon stopped"
            case .device?: text = "Paused on the device"
            }
        case .resume: text = "Resumed"
        case .lap: text = "Lap"
        case .marker: text = "Marker"
        case .motionPaused: text = "Stopped moving"
        case .motionResumed: text = "Moving again"
        case .segment: text = "Track jumped (new segment)"
        case .signalLost: text = "GPS signal lost"
        case .signalRegained: text = "GPS signal back"
        case .recovered: text = "Recovered after the daemon stopped"
        case .suspended: text = "The machine was suspended"
        }
        if let t = e.text, !t.isEmpty { text += ": " + t }
        return text
    }

    func edit(_ s: WorkoutSummary, _ c: WebPageContext, _ w: inout HTMLWriter) {
        w.raw("<section class=\"card\"><details><summary>Edit this workout</summary><form class=\"editform\" method=\"post\" action=\"/workouts/")
        w.text(s.id.rawValue); w.raw("\"><input type=\"hidden\" name=\"token\" value=\""); w.text(c.formToken); w.raw("\">")
        w.raw("<label>Activity<select name=\"activity\">")
        for a in ActivityType.allCases {
            w.raw("<option value=\""); w.raw(a.rawValue); w.raw("\""); if a == s.activity { w.raw(" selected") }
            w.raw(">"); w.text(a.displayName); w.raw("</option>")
        }
        w.raw("</select></label><label>Title<input name=\"title\" maxlength=\"\(WorkoutAnnotation.maxTitleLength)\" value=\""); w.text(s.title ?? ""); w.raw("\"></label>")
        w.raw("<label>Gear<input name=\"gear\" maxlength=\"\(WorkoutAnnotation.maxTitleLength)\" value=\""); w.text(s.gear ?? ""); w.raw("\"></label>")
        w.raw("<label>Effort<select name=\"effort\"><option value=\"\">—</option>")
        for e in WorkoutAnnotation.effortRange {
            w.raw("<option value=\"\(e)\""); if e == s.effort { w.raw(" selected") }
            w.raw(">\(e)</option>")
        }
        w.raw("</select></label><label class=\"wide\">Notes<textarea name=\"notes\" rows=\"4\" maxlength=\"\(WorkoutAnnotation.maxNotesLength)\">"); w.text(s.notes ?? ""); w.raw("</textarea></label>")
        w.raw("<div class=\"wide\"><button type=\"submit\">Save</button> <span class=\"muted small\">A new activity recomputes the workout's numbers from its points; an emptied field is cleared.</span></div></form></details></section>")
    }

    func downloads(_ s: WorkoutSummary, _ w: inout HTMLWriter) {
        w.raw("<section class=\"card\"><h2>Download</h2><div class=\"downloads\">")
        let positions = workout.points.contains(where: \.isAccepted)
        for (ext, label) in [("gpx", "GPX"), ("tcx", "TCX"), ("fit", "FIT")] where ext != "gpx" || positions {
            w.raw("<a class=\"button ghost\" download href=\"/workouts/"); w.text(s.id.rawValue); w.raw("."); w.raw(ext); w.raw("\">"); w.raw(label); w.raw("</a>")
        }
        w.raw("</div><p class=\"muted small\">Files for other apps: every point of the recorded track, with heart rate.</p></section>")
    }
}

/// "st", "nd", "rd" or "th" after a number: every 2nd, 21st, 12th.
func ordinalSuffix(_ n: Int) -> StaticString {
    switch (n % 10, n % 100) {
    case (_, 11...13): return "th"
    case (1, _): return "st"
    case (2, _): return "nd"
    case (3, _): return "rd"
    default: return "th"
    }
}
