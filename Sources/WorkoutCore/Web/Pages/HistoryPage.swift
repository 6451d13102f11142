/// What the history page lists: an activity, a range of local days, and a page of the list.
public struct HistoryFilter: Sendable, Equatable {
    public var activity: ActivityType?
    public var from: StreakDay?
    public var to: StreakDay?
    /// 0 = the newest `HistoryPage.pageSize` workouts.
    public var page: Int

    public init(activity: ActivityType? = nil, from: StreakDay? = nil, to: StreakDay? = nil, page: Int = 0) {
        self.activity = activity; self.from = from; self.to = to; self.page = page
    }

    /// From a query (`activity=running&from=2026-01-01&to=2026-03-31&page=2`); unknown or
    /// malformed values are ignored (an empty field means no filter).
    public init(query: some StringProtocol) {
        self.init()
        for (name, value) in PercentEncoding.form(query) {
            switch name {
            case "activity": activity = ActivityType(rawValue: value)
            case "from": from = StreakDay(iso: value)
            case "to": to = StreakDay(iso: value)
            case "page": page = min(max(Int(value) ?? 0, 0), 1_000_000)
            default: continue
            }
        }
    }

    /// The query that gives this filter on another page of the list.
    func query(page p: Int) -> String {
        var parts: [String] = []
        if let a = activity { parts.append("activity=" + a.rawValue) }
        if let f = from { parts.append("from=" + f.iso) }
        if let t = to { parts.append("to=" + t.iso) }
        if p > 0 { parts.append("page=\(p)") }
        return parts.isEmpty ? "/" : "/?" + parts.joined(separator: "&")
    }
}

/// The history page (`/`): filter, weekly volume of the last 12 weeks, lifetime totals per
/// activity, and the filtered workouts newest first, `pageSize` at a time.
public struct HistoryPage: Sendable {
    public var summaries: [WorkoutSummary]
    public var filter: HistoryFilter
    public var recording: Bool

    public static let pageSize = 50

    /// `summaries`: every saved workout, in any order.
    public init(summaries: [WorkoutSummary], filter: HistoryFilter, recording: Bool = false) {
        self.summaries = summaries; self.filter = filter; self.recording = recording
    }

    struct Totals {
        var count = 0
        var distance = 0.0
        var seconds = 0.0
        var climb = 0.0
    }

    public func render(_ c: WebPageContext) -> [UInt8] {
        var w = HTMLWriter(capacity: 64 << 10)
        PageLayout.begin(&w, title: "History", section: .history, live: recording)
        var totals: [ActivityType: Totals] = [:]
        var matching: [WorkoutSummary] = []
        for s in summaries {
            totals[s.activity, default: Totals()].count += 1
            totals[s.activity]!.distance += s.distanceMeters.isFinite ? s.distanceMeters : 0
            totals[s.activity]!.seconds += s.movingSeconds.isFinite ? s.movingSeconds : 0
            totals[s.activity]!.climb += s.elevationGainMeters.isFinite ? s.elevationGainMeters : 0
            if matches(s, c) { matching.append(s) }
        }
        matching.sort { $0.startedAt > $1.startedAt }

        w.raw("<h1>History</h1><p class=\"sub\">"); w.int(summaries.count); w.raw(summaries.count == 1 ? " workout" : " workouts")
        if let first = summaries.min(by: { $0.startedAt < $1.startedAt }) { w.raw(" since "); w.text(WebFormat.shortDate(first.startedAt, c.zone)) }
        w.raw("</p>")

        if summaries.isEmpty {
            w.raw("<div class=\"card empty\"><p>No workouts yet.</p><p>Record one with <code>workoutctl start running</code>, or bring your files in with <code>workoutctl import FILE...</code> (GPX, TCX, FIT).</p></div>")
            PageLayout.end(&w, c)
            return w.bytes
        }

        w.raw("<div class=\"grid2 even\"><section class=\"card\"><h2>Moving time, last 12 weeks</h2>")
        let volume = VolumeChart(summaries: summaries, now: c.now, calendar: c.calendar)
        volume.render(into: &w)
        w.raw("<div class=\"legend\">")
        for a in volume.activities {
            w.raw("<span><svg class=\"dot\" viewBox=\"0 0 10 10\"><rect width=\"10\" height=\"10\" rx=\"3\" fill=\""); w.raw(PageLayout.colour(a)); w.raw("\"/></svg> ")
            w.text(a.displayName); w.raw("</span>")
        }
        w.raw("</div></section><section class=\"card\"><h2>Lifetime</h2><table><thead><tr><th>Activity</th><th class=\"num\">Count</th><th class=\"num\">Distance</th><th class=\"num\">Time</th><th class=\"num\">Climb</th></tr></thead><tbody>")
        for (a, t) in totals.sorted(by: { $0.value.seconds > $1.value.seconds }) {
            w.raw("<tr><td>"); activityCell(a, &w); w.raw("</td><td class=\"num\">"); w.int(t.count)
            w.raw("</td><td class=\"num\">"); if t.distance > 0 { w.text(c.units.distance(t.distance)) } else { w.raw("–") }
            w.raw("</td><td class=\"num\">"); w.text(WebFormat.hours(t.seconds))
            w.raw("</td><td class=\"num\">"); if t.climb > 0 { w.text(c.units.elevation(t.climb)) } else { w.raw("–") }
            w.raw("</td></tr>")
        }
        w.raw("</tbody></table></section></div>")

        // Filter (a GET form: works without script) and the list.
        w.raw("<section class=\"card\"><form class=\"filter\" method=\"get\" action=\"/\"><label>Activity<select name=\"activity\"><option value=\"\">All activities</option>")
        for a in totals.keys.sorted(by: { $0.displayName < $1.displayName }) {
            w.raw("<option value=\""); w.raw(a.rawValue); w.raw("\""); if a == filter.activity { w.raw(" selected") }
            w.raw(">"); w.text(a.displayName); w.raw("</option>")
        }
        w.raw("</select></label><label>From<input type=\"date\" name=\"from\" value=\""); if let f = filter.from { w.raw(f.iso) }
        w.raw("\"></label><label>To<input type=\"date\" name=\"to\" value=\""); if let t = filter.to { w.raw(t.iso) }
        w.raw("\"></label><button type=\"submit\">Filter</button>")
        if filter.activity != nil || filter.from != nil || filter.to != nil { w.raw("<a class=\"button ghost\" href=\"/\">Clear</a>") }
        w.raw("</form></section>")

        let pages = max(1, (matching.count + HistoryPage.pageSize - 1) / HistoryPage.pageSize)
        let page = min(filter.page, pages - 1)
        let slice = matching.dropFirst(page * HistoryPage.pageSize).prefix(HistoryPage.pageSize)
        w.raw("<section class=\"card\"><h2>"); w.int(matching.count); w.raw(matching.count == 1 ? " workout" : " workouts")
        if page > 0 || pages > 1 { w.raw(" <span class=\"muted small\">· page "); w.int(page + 1); w.raw(" of "); w.int(pages); w.raw("</span>") }
        w.raw("</h2>")
        if slice.isEmpty {
            w.raw("<p class=\"empty\">No workout matches this filter.</p>")
        } else {
            w.raw("<table><thead><tr><th>Date</th><th>Workout</th><th class=\"num\">Distance</th><th class=\"num\">Time</th><th class=\"num\">Pace / speed</th><th class=\"num\">Climb</th><th class=\"num\">Heart rate</th></tr></thead><tbody>")
            for s in slice { row(s, c, &w) }
            w.raw("</tbody></table>")
        }
        if pages > 1 {
            w.raw("<div class=\"pager\"><span>")
            if page > 0 { w.raw("<a href=\""); w.text(filter.query(page: page - 1)); w.raw("\">← Newer</a>") }
            w.raw("</span><span>")
            if page + 1 < pages { w.raw("<a href=\""); w.text(filter.query(page: page + 1)); w.raw("\">Older →</a>") }
            w.raw("</span></div>")
        }
        w.raw("</section>")
        PageLayout.end(&w, c)
        return w.bytes
    }

    func matches(_ s: WorkoutSummary, _ c: WebPageContext) -> Bool {
        if let a = filter.activity, s.activity != a { return false }
        guard filter.from != nil || filter.to != nil else { return true }
        let day = c.calendar.day(of: s.startedAt)
        if let f = filter.from, day < f { return false }
        if let t = filter.to, day > t { return false }
        return true
    }

    func row(_ s: WorkoutSummary, _ c: WebPageContext, _ w: inout HTMLWriter) {
        w.raw("<tr><td>"); w.text(WebFormat.shortDate(s.startedAt, c.zone)); w.raw(" <span class=\"muted\">"); w.text(WebFormat.clock(s.startedAt, c.zone))
        w.raw("</span></td><td><a href=\"/workouts/"); w.text(s.id.rawValue); w.raw("\">"); w.text(WebPages.title(s, c.zone))
        w.raw("</a><br><span class=\"muted small\">"); w.text(s.activity.displayName); w.raw("</span></td><td class=\"num\">")
        if s.distanceMeters > 0 { w.text(c.units.distance(s.distanceMeters)) } else { w.raw("–") }
        w.raw("</td><td class=\"num\">"); w.text(WebFormat.duration(s.movingSeconds > 0 ? s.movingSeconds : s.timerSeconds))
        w.raw("</td><td class=\"num\">")
        if s.distanceMeters > 0, let e = WebFormat.effort(s.movingAverageSpeed, s.activity, c.units) { w.text(e) } else { w.raw("–") }
        w.raw("</td><td class=\"num\">"); if s.elevationGainMeters >= 1 { w.text(c.units.elevation(s.elevationGainMeters)) } else { w.raw("–") }
        w.raw("</td><td class=\"num\">"); if let hr = s.averageHeartRate { w.int(Int(hr.rounded())); w.raw(" bpm") } else { w.raw("–") }
        w.raw("</td></tr>")
    }

    func activityCell(_ a: ActivityType, _ w: inout HTMLWriter) {
        w.raw("<span class=\"act\"><svg class=\"dot\" viewBox=\"0 0 10 10\"><rect width=\"10\" height=\"10\" rx=\"3\" fill=\""); w.raw(PageLayout.colour(a))
        w.raw("\"/></svg>"); w.text(a.displayName); w.raw("</span>")
    }
}

/// Small pieces the pages share.
public enum WebPages {
    /// The workout's title as the pages show it (`WebFormat.title` until a title is set).
    public static func title(_ s: WorkoutSummary, _ zone: ZoneRules) -> String {
        WebFormat.title(s, zone)
    }
}
