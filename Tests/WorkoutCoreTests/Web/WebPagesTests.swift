import Testing
@testable import WorkoutCore

@Suite struct WebPagesTests {
    let c = WebFixtures.context

    @Test func historyHasVolumeTotalsAndAPagedList() {
        let all = WebFixtures.summaries(120, now: c.now)
        let html = WebFixtures.text(HistoryPage(summaries: all, filter: HistoryFilter()).render(c))
        expectEqual(WebFixtures.charts(html), ["volume"])
        #expect(html.contains("Lifetime"))
        expectGreaterOrEqual(html.components(separatedBy: "<tr><td>").count - 1, HistoryPage.pageSize)
        #expect(html.contains("Older →"))
        let filtered = WebFixtures.text(HistoryPage(summaries: all, filter: HistoryFilter(activity: .strength)).render(c))
        #expect(filtered.contains("24 workouts"))
        #expect(filtered.contains("<option value=\"strength\" selected>"))
    }

    @Test func historyFiltersByLocalDay() {
        let all = WebFixtures.summaries(30, now: c.now)
        let day = c.calendar.day(of: all[3].startedAt)
        let html = WebFixtures.text(HistoryPage(summaries: all, filter: HistoryFilter(from: day, to: day)).render(c))
        #expect(html.contains(all[3].id.rawValue))
        #expect(!html.contains(all[5].id.rawValue))
    }

    @Test func emptyHistorySaysHowToStart() {
        let html = WebFixtures.text(HistoryPage(summaries: [], filter: HistoryFilter()).render(c))
        #expect(html.contains("No workouts yet"))
    }

    @Test func volumeBucketsByWeek() {
        let now = c.now
        let all = WebFixtures.summaries(100, now: now)
        let v = VolumeChart(summaries: all, now: now, calendar: c.calendar)
        expectEqual(v.weeks.count, 12)
        // Typed steps: as one expression this took ~7 s of CPU to type-check (docs/testing.md).
        let thisWeek = c.calendar.week(of: c.calendar.day(of: now))
        let inRange = all.filter { c.calendar.week(of: c.calendar.day(of: $0.startedAt)) > thisWeek - 12 }
        let charted: Double = v.weeks.map(\.total).reduce(0, +)
        let moving: Double = inRange.map(\.movingSeconds).reduce(0, +)
        expectLess(abs(charted - moving), 1e-6)
    }

    @Test func recordsPickTheFastestWithItsWorkout() {
        var all = WebFixtures.summaries(40, now: c.now)
        all[7].bestEfforts = [BestEffort(distanceMeters: 1000, seconds: 100, startTime: all[7].startedAt)]
        let r = RecordsPage(summaries: all).records()
        let running = r.first { $0.activity == all[7].activity }!
        expectEqual(running.bests.first?.workout.id, all[7].id)
        expectEqual(running.bests.first?.effort.seconds, 100)
        let html = WebFixtures.text(RecordsPage(summaries: all).render(c))
        #expect(html.contains("/workouts/" + all[7].id.rawValue))
        #expect(html.contains("Longest") && html.contains("Most climbing"))
    }

    @Test func calendarIsAYearOfDays() {
        let all = WebFixtures.summaries(60, now: c.now)
        let status = c.calendar.status(history: all.map { StreakWorkout($0, utcOffset: nil) }, now: c.now)
        let html = WebFixtures.text(CalendarPage(summaries: all, year: nil, streaks: status, habits: []).render(c))
        expectEqual(WebFixtures.charts(html), ["calendar"])
        expectEqual(html.components(separatedBy: "<rect class=\"d").count - 1, 365 + 6)  // 2026's days + the legend
        #expect(html.contains("Current daily streak"))
        #expect(CalendarPage.level(0) == 0 && CalendarPage.level(60) == 1 && CalendarPage.level(3600) == 3 && CalendarPage.level(99999) == 5)
    }

    @Test func livePageWithAndWithoutAWorkout() {
        let idle = WebFixtures.text(LivePage.render(LiveSnapshot(state: "idle", summary: nil), c))
        #expect(idle.contains("No workout in progress"))
        #expect(idle.contains("data-live=\"idle\""))
        let w = WebFixtures.ride(points: 600, activity: .running)
        let snap = LiveSnapshot(state: "active", summary: w.summary, points: w.points, events: w.events, fix: "3D")
        let live = WebFixtures.text(LivePage.render(snap, c))
        expectEqual(WebFixtures.charts(live), ["route"])
        #expect(live.contains("data-field=\"distance\""))
        let event = WebFixtures.text(LivePage.event(snap, c, wasRecording: true))
        #expect(event.hasPrefix("event: status\ndata: {\"reload\":false,"))
        #expect(event.hasSuffix("}\n\n"))
        expectEqual(event.filter { $0 == "\n" }.count, 3)  // one data line
        let json = try? JSON.parse(String(event.dropFirst("event: status\ndata: ".count).dropLast(2)))
        expectEqual(json?["fields"]?["distance"]?.stringValue, "4.80 km")
        expectEqual(json?["route"]?.stringValue?.contains("data-chart=\"route\""), true)
        #expect(WebFixtures.text(LivePage.event(snap, c, wasRecording: false)).contains("\"reload\":true"))
    }

    /// A plan's ride: the live page shows the step and what it asks beside the power now,
    /// what is left of the step and what comes next, and its event carries them each second.
    @Test func livePageShowsThePlanBesideTheRide() throws {
        let plan = Plan(name: "2 x 2 <hard>", steps: [
            PlanStep(kind: .warmup, length: .seconds(60), target: .powerRamp(from: 100, to: 160)),
            PlanStep(kind: .work, length: .seconds(120), target: .power(low: 250, high: 250)),
        ])
        var m = PlanMachine(plan: plan)
        _ = m.start(at: 0, distance: 0)
        _ = m.tick(at: 30, distance: 200)
        let w = WebFixtures.ride(points: 600, activity: .indoorCycling)
        let snap = LiveSnapshot(state: "active", summary: w.summary, points: w.points, events: w.events, fix: "none",
                                plan: m.status(at: 30, distance: 200))
        let fields = Dictionary(LivePage.fields(snap, c).map { ($0.0, $0.2) }) { a, _ in a }
        expectEqual(fields["planstep"], "1 of 2: warmup, 130 W (ramp to 160 W)")
        expectEqual(fields["planleft"], "0:30")
        expectEqual(fields["plantarget"], "130 W")
        expectEqual(fields["planactual"], "\(w.points.last?.fix.power ?? -1) W")
        expectEqual(fields["plannext"], "work, 250 W for 2:00")
        let html = WebFixtures.text(LivePage.render(snap, c))
        #expect(html.contains("Plan: 2 x 2 &lt;hard&gt;"))
        #expect(html.contains("data-field=\"plantarget\">130 W<"))
        let event = WebFixtures.text(LivePage.event(snap, c, wasRecording: true))
        let json = try JSON.parse(String(event.dropFirst("event: status\ndata: ".count).dropLast(2)))
        expectEqual(json["fields"]?["plannext"]?.stringValue, "work, 250 W for 2:00")
        // Without a plan, none of it.
        let plain = LivePage.fields(LiveSnapshot(state: "active", summary: w.summary, points: w.points), c).map(\.0)
        #expect(!plain.contains { $0.hasPrefix("plan") })
    }

    @Test func escaping() {
        var w = HTMLWriter()
        w.text("<script>alert('x')</script> & \"q\"\u{01}")
        expectEqual(w.string, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot; ")
        var n = HTMLWriter()
        for v in [0, 1.04, 1.05, -2.25, 123.456, -0.04, .nan, 1e300] { n.coordinate(v); n.raw(" ") }
        expectEqual(n.string, "0 1 1.1 -2.3 123.5 0 0 1000000000 ")
    }
}
