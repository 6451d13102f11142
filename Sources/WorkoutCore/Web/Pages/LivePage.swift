/// The workout in progress as the live page shows it: the lifecycle's state name, the live
/// summary, the track so far and the events, as the shell last copied them from the loop.
public struct LiveSnapshot: Sendable {
    /// `status`'s state name (`idle`, `active`, `paused`, `saving`, ...).
    public var state: String
    /// nil when no workout is in progress.
    public var summary: WorkoutSummary?
    public var points: [TrackPoint]
    public var events: [WorkoutEvent]
    /// The GPS fix as `status` words it ("3D", "none").
    public var fix: String
    /// The plan's place (`status.plan`), nil without a plan.
    public var plan: PlanStatus?

    public init(state: String, summary: WorkoutSummary?, points: [TrackPoint] = [], events: [WorkoutEvent] = [], fix: String = "none", plan: PlanStatus? = nil) {
        self.state = state; self.summary = summary; self.points = points; self.events = events; self.fix = fix
        self.plan = plan
    }

    public var isRecording: Bool { summary != nil }
}

/// The live page (`/live`) and its Server-Sent Events (`/live/events`): the numbers of the
/// workout in progress and its route, growing. The page is complete without script (it then
/// reloads itself every 5 s); with it, an `EventSource` replaces the numbers and the route
/// every second.
public enum LivePage {
    public static func render(_ s: LiveSnapshot, _ c: WebPageContext) -> [UInt8] {
        var w = HTMLWriter(capacity: 32 << 10)
        PageLayout.begin(&w, title: "Live", section: .live, live: s.isRecording, refreshWithoutScript: 5)
        w.raw("<div data-live=\""); w.raw(s.isRecording ? "recording" : "idle"); w.raw("\">")
        guard let sum = s.summary else {
            w.raw("<h1>Live</h1><div class=\"card live-none\"><p><b>No workout in progress.</b></p><p>Start one with <code>workoutctl start running</code>; this page follows it as it records.</p>")
            w.raw("<p class=\"small\">GPS: <span data-field=\"fix\">"); w.text(s.fix); w.raw("</span> · <span data-field=\"state\">"); w.text(s.state); w.raw("</span></p></div></div>")
            PageLayout.end(&w, c)
            return w.bytes
        }
        w.raw("<h1>"); w.text(WebPages.title(sum, c.zone)); w.raw("</h1><p class=\"sub\"><span class=\"badge\" data-field=\"state\">"); w.text(s.state)
        w.raw("</span> started "); w.text(WebFormat.clock(sum.startedAt, c.zone)); w.raw(" · GPS <span data-field=\"fix\">"); w.text(s.fix); w.raw("</span></p>")
        w.raw("<section class=\"card\"><div class=\"stats\">")
        for (key, label, value) in fields(s, c) where key != "state" && key != "fix" {
            w.raw("<div class=\"stat\"><b data-field=\""); w.raw(key); w.raw("\">"); w.text(value); w.raw("</b><span>"); w.text(label); w.raw("</span></div>")
        }
        w.raw("</div></section><section class=\"card\"><h2>Route</h2><div id=\"liveroute\">")
        w.bytes.append(contentsOf: route(s, c))
        w.raw("</div></section></div>")
        PageLayout.end(&w, c)
        return w.bytes
    }

    /// The numbers shown: (key, label, value); `state` and `fix` too.
    static func fields(_ s: LiveSnapshot, _ c: WebPageContext) -> [(String, String, String)] {
        var out: [(String, String, String)] = [("state", "State", s.state), ("fix", "GPS", s.fix)]
        guard let sum = s.summary else { return out }
        out.append(("elapsed", "Elapsed time", WebFormat.duration(sum.elapsedSeconds)))
        out.append(("moving", "Moving time", WebFormat.duration(sum.movingSeconds)))
        if sum.activity.supportsGPS || sum.distanceMeters > 0 {
            out.append(("distance", "Distance", c.units.distance(sum.distanceMeters)))
            switch sum.activity.pageEffort {
            case .pace:
                out.append(("current", "Current pace", c.units.pace(speed: sum.currentSpeed)))
                out.append(("average", "Average pace", c.units.pace(speed: sum.movingAverageSpeed > 0 ? sum.movingAverageSpeed : nil)))
            case .speed, .none:
                out.append(("current", "Current speed", c.units.speed(sum.currentSpeed ?? 0)))
                out.append(("average", "Average speed", c.units.speed(sum.movingAverageSpeed)))
            }
            out.append(("climb", "Elevation gain", c.units.elevation(sum.elevationGainMeters)))
        }
        out.append(("hr", "Heart rate", sum.heartRate.map { "\($0) bpm" } ?? "–"))
        if sum.averagePower != nil { out.append(("power", "Average power", "\(Int((sum.averagePower ?? 0).rounded())) W")) }
        out.append(("points", "GPS points", "\(sum.pointCount)"))
        if let p = s.plan { out += planFields(p, s.points.last?.fix.power) }
        return out
    }

    /// The plan beside the ride: the step and what it asks, what is left of it, the power
    /// asked against the power now (with a power target), and what comes next.
    static func planFields(_ p: PlanStatus, _ powerNow: Int?) -> [(String, String, String)] {
        let reply = PlanReply(p)
        var step = "\(p.stepIndex + 1) of \(p.stepCount): " + PlanReply.words(reply.step, now: true, duration: WebFormat.duration)
        switch p.phase {
        case .running: break
        case .paused: step += " (paused)"
        case .finished: step += " (done)"
        }
        var out: [(String, String, String)] = [("planstep", "Plan: " + p.name, step)]
        let left = p.remainingSeconds.map(WebFormat.duration) ?? p.remainingMeters.map { formatFixed($0, decimals: 0) + " m" } ?? "until next"
        out.append(("planleft", "Left in step", left))
        if let watts = p.watts {
            out.append(("plantarget", "Target power", "\(watts) W"))
            out.append(("planactual", "Power now", powerNow.map { "\($0) W" } ?? "–"))
        }
        out.append(("plannext", "Next", reply.next.map { PlanReply.words($0, now: false, duration: WebFormat.duration) } ?? "the end of the plan"))
        return out
    }

    /// The route so far (an SVG), or a line saying there is none yet.
    static func route(_ s: LiveSnapshot, _ c: WebPageContext) -> [UInt8] {
        var w = HTMLWriter(capacity: 16 << 10)
        if let sum = s.summary {
            let series = WorkoutSeries(workout: Workout(summary: sum, points: s.points, events: s.events))
            var map = RouteMap(series: series, colouring: .pace, zoneBounds: sum.heartRateZoneBounds)
            map.tiles = c.tiles
            if map.render(into: &w, label: "Route so far") != nil {
                return w.bytes
            }
        }
        w.raw("<p class=\"muted\">No position yet.</p>")
        return w.bytes
    }

    /// One Server-Sent Event (`event: status`): the fields, the route, and `reload` when the
    /// page's structure must change (a workout started or ended since `wasRecording`).
    public static func event(_ s: LiveSnapshot, _ c: WebPageContext, wasRecording: Bool, includeRoute: Bool = true) -> [UInt8] {
        var j = JSONWriter(capacity: 16 << 10)
        j.raw("{\"reload\":"); j.raw(s.isRecording != wasRecording ? "true" : "false")
        j.raw(",\"fields\":{")
        for (k, (key, _, value)) in fields(s, c).enumerated() {
            if k > 0 { j.raw(",") }
            j.string(key); j.raw(":"); j.string(value)
        }
        j.raw("}")
        if includeRoute, s.isRecording {
            j.raw(",\"route\":")
            j.string(String(decoding: route(s, c), as: UTF8.self))
        }
        j.raw("}")
        var out: [UInt8] = Array("event: status\ndata: ".utf8)
        // JSON text has no raw newline (JSONWriter escapes them), so it is one data line.
        out.append(contentsOf: j.bytes)
        out.append(contentsOf: "\n\n".utf8)
        return out
    }
}
