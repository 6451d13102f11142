/// The records page (`/records`): per activity, the all-time best effort over each standard
/// distance, the best mean power over 5 s, 1, 5, 20 and 60 min, and the longest,
/// longest-lasting and hilliest workouts, each linking to its workout. The same records answer
/// `workoutctl records` (`TrainingRecords`). Workouts that do not count in records
/// (`WorkoutSummary.countsInRecords`) are left out.
public struct RecordsPage: Sendable {
    public var summaries: [WorkoutSummary]

    public init(summaries: [WorkoutSummary]) { self.summaries = summaries }

    /// One activity's records.
    public struct Records: Sendable {
        public var activity: ActivityType
        public var count = 0
        /// Per distance (m, ascending): the fastest effort and its workout.
        public var bests: [(effort: BestEffort, workout: WorkoutSummary)] = []
        /// Per duration (s, ascending): the best mean power and its workout.
        public var power: [(point: PowerCurvePoint, workout: WorkoutSummary)] = []
        public var longest: WorkoutSummary?
        public var longestTime: WorkoutSummary?
        public var mostClimb: WorkoutSummary?
        public var fastest: WorkoutSummary?
    }

    /// The records of every activity with a workout, most workouts first.
    public func records() -> [Records] {
        var byActivity: [ActivityType: Records] = [:]
        var bests: [ActivityType: [Double: (BestEffort, WorkoutSummary)]] = [:]
        var power: [ActivityType: [Int: (PowerCurvePoint, WorkoutSummary)]] = [:]
        for s in summaries where s.countsInRecords {
            var r = byActivity[s.activity] ?? Records(activity: s.activity)
            r.count += 1
            if s.distanceMeters > 0, s.distanceMeters > (r.longest?.distanceMeters ?? 0) { r.longest = s }
            if s.movingSeconds > (r.longestTime?.movingSeconds ?? 0) { r.longestTime = s }
            if s.elevationGainMeters >= 1, s.elevationGainMeters > (r.mostClimb?.elevationGainMeters ?? 0) { r.mostClimb = s }
            // Fastest average over a workout of at least 1 km (shorter ones are warm-ups).
            if s.distanceMeters >= 1000, s.movingAverageSpeed.isFinite, s.movingAverageSpeed > (r.fastest?.movingAverageSpeed ?? 0) { r.fastest = s }
            byActivity[s.activity] = r
            for e in s.bestEfforts where e.seconds > 0 && e.seconds.isFinite {
                let key = (e.distanceMeters * 2).rounded() / 2
                if let old = bests[s.activity]?[key], old.0.seconds <= e.seconds { continue }
                bests[s.activity, default: [:]][key] = (e, s)
            }
            for p in s.powerCurve where p.watts.isFinite && p.watts > 0 {
                if let old = power[s.activity]?[p.seconds], old.0.watts >= p.watts { continue }
                power[s.activity, default: [:]][p.seconds] = (p, s)
            }
        }
        for (a, b) in power {
            byActivity[a]?.power = b.sorted { $0.key < $1.key }.map { (point: $0.value.0, workout: $0.value.1) }
        }
        for (a, b) in bests {
            byActivity[a]?.bests = b.sorted { $0.key < $1.key }.map { (effort: $0.value.0, workout: $0.value.1) }
        }
        return byActivity.values.sorted { $0.count != $1.count ? $0.count > $1.count : $0.activity.rawValue < $1.activity.rawValue }
    }

    public func render(_ c: WebPageContext, recording: Bool = false) -> [UInt8] {
        var w = HTMLWriter(capacity: 32 << 10)
        PageLayout.begin(&w, title: "Records", section: .records, live: recording)
        w.raw("<h1>Records</h1><p class=\"sub\">Your all-time bests, per activity.</p>")
        let all = records()
        if all.isEmpty {
            w.raw("<div class=\"card empty\"><p>No records yet: they appear with your first saved workout.</p></div>")
        }
        for r in all {
            w.raw("<section class=\"card\"><h2><span class=\"act\"><svg class=\"dot\" viewBox=\"0 0 10 10\"><rect width=\"10\" height=\"10\" rx=\"3\" fill=\"")
            w.raw(PageLayout.colour(r.activity)); w.raw("\"/></svg>"); w.text(r.activity.displayName)
            w.raw("</span> <span class=\"muted small\">· "); w.int(r.count); w.raw(r.count == 1 ? " workout" : " workouts"); w.raw("</span></h2>")
            w.raw("<div class=\"stats\">")
            if let s = r.longest { highlight(c.units.distance(s.distanceMeters), "Longest", s, c, &w) }
            if let s = r.longestTime { highlight(WebFormat.duration(s.movingSeconds), "Longest time", s, c, &w) }
            if let s = r.mostClimb { highlight(c.units.elevation(s.elevationGainMeters), "Most climbing", s, c, &w) }
            if let s = r.fastest, let e = WebFormat.effort(s.movingAverageSpeed, s.activity, c.units) { highlight(e, "Fastest average", s, c, &w) }
            w.raw("</div>")
            if !r.bests.isEmpty {
                w.raw("<table><thead><tr><th>Distance</th><th class=\"num\">Best time</th><th class=\"num\">")
                w.raw(r.activity.pageEffort == .pace ? "Pace" : "Speed")
                w.raw("</th><th>Workout</th></tr></thead><tbody>")
                for (e, s) in r.bests {
                    w.raw("<tr><td>"); w.text(UnitFormatter.bestEffortName(e.distanceMeters)); w.raw("</td><td class=\"num\"><b>")
                    w.text(WebFormat.duration(e.seconds)); w.raw("</b></td><td class=\"num\">")
                    w.text(WebFormat.effort(e.distanceMeters / e.seconds, r.activity, c.units) ?? c.units.speed(e.distanceMeters / e.seconds))
                    w.raw("</td><td>"); link(s, c, &w); w.raw("</td></tr>")
                }
                w.raw("</tbody></table>")
            }
            if !r.power.isEmpty {
                w.raw("<table class=\"power-records\"><thead><tr><th>Duration</th><th class=\"num\">Best power</th><th>Workout</th></tr></thead><tbody>")
                for (p, s) in r.power {
                    w.raw("<tr><td>"); w.text(WebFormat.durationName(p.seconds)); w.raw("</td><td class=\"num\"><b>")
                    w.int(Int(p.watts.rounded())); w.raw(" W</b></td><td>"); link(s, c, &w); w.raw("</td></tr>")
                }
                w.raw("</tbody></table>")
            }
            w.raw("</section>")
        }
        PageLayout.end(&w, c)
        return w.bytes
    }

    func highlight(_ value: String, _ label: StaticString, _ s: WorkoutSummary, _ c: WebPageContext, _ w: inout HTMLWriter) {
        w.raw("<div class=\"stat\"><b>"); w.text(value); w.raw("</b><span>"); w.raw(label); w.raw(" · ")
        link(s, c, &w); w.raw("</span></div>")
    }

    func link(_ s: WorkoutSummary, _ c: WebPageContext, _ w: inout HTMLWriter) {
        w.raw("<a href=\"/workouts/"); w.text(s.id.rawValue); w.raw("\">"); w.text(WebFormat.shortDate(s.startedAt, c.zone)); w.raw("</a>")
    }
}
