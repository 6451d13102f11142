/// The heat map page (`/heatmap?activity=A`): every route at once (`HeatmapChart`), of one
/// activity or all, with the activities to choose from as links (no script needed).
public struct HeatmapPage: Sendable {
    public var routes: [RouteSketch]
    /// The activity shown; nil: all.
    public var activity: ActivityType?
    /// Each activity with routes, and how many.
    public var counts: [(ActivityType, Int)]

    public init(routes: [RouteSketch], activity: ActivityType?, counts: [(ActivityType, Int)]) {
        self.routes = routes; self.activity = activity; self.counts = counts
    }

    public func render(_ c: WebPageContext, recording: Bool = false) -> [UInt8] {
        var w = HTMLWriter(capacity: 256 << 10)
        PageLayout.begin(&w, title: "Heat map", section: .heatmap, live: recording)
        w.raw("<h1>Heat map</h1><p class=\"sub\">Every route at once; the ways you take most often show darkest.</p>")
        w.raw("<nav class=\"range\" aria-label=\"Activity\"><a href=\"/heatmap\""); if activity == nil { w.raw(" class=\"on\" aria-current=\"page\"") }
        w.raw(">All</a> ")
        for (a, n) in counts {
            w.raw("<a href=\"/heatmap?activity="); w.raw(a.rawValue); w.raw("\""); if a == activity { w.raw(" class=\"on\" aria-current=\"page\"") }
            w.raw(">"); w.text(a.displayName); w.raw(" ("); w.int(n); w.raw(")</a> ")
        }
        w.raw("</nav><section class=\"card chart\">")
        HeatmapChart(routes: routes).render(into: &w)
        w.raw("</section>")
        if routes.isEmpty { w.raw("<div class=\"card empty\"><p>No routes yet: workouts with GPS appear here.</p></div>") }
        PageLayout.end(&w, c)
        return w.bytes
    }
}
