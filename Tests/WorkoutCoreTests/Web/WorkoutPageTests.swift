import Testing
@testable import WorkoutCore

@Suite struct WorkoutPageTests {
    @Test func aRideHasEveryChart() {
        let w = WebFixtures.ride(points: 7200)
        var report = WorkoutPage.Report()
        let html = WebFixtures.text(WorkoutPage(workout: w).render(WebFixtures.context, report: &report))
        expectEqual(WebFixtures.charts(html), ["route", "elevation", "speed", "heartrate", "power", "cadence", "power-curve"])
        #expect(html.contains("<form class=\"editform\" method=\"post\""))
        #expect(html.contains("name=\"token\" value=\"form-token\""))
        for ext in ["gpx", "tcx", "fit"] { #expect(html.contains("/workouts/\(w.id.rawValue).\(ext)")) }
        #expect(html.contains("Splits") && html.contains("Laps") && html.contains("Time in heart-rate zones") && html.contains("Best efforts"))
        // Text from the file name is escaped.
        #expect(html.contains("&lt;b&gt;ride&lt;/b&gt;.fit") && !html.contains("<b>ride</b>"))
        // No inline style or script: the CSP allows neither.
        #expect(!html.contains("style=") && !html.contains("<script>") && !html.contains("onclick"))
        expectEqual(report.charts.count, 6)
    }

    /// Issue 39: splits and laps on one clock (moving, with the elapsed beside), a workout kept
    /// out of records says so, and its implausible stretches are named.
    @Test func oneClockRecordsExclusionAndImplausibleStretches() {
        var w = WebFixtures.ride(points: 3000)
        w.summary.records = .excluded
        w.summary.implausible = [ImplausibleStretch(start: WebFixtures.start + 600, seconds: 25, meters: 640, speed: 25.6, reason: .acceleration)]
        let html = WebFixtures.text(WorkoutPage(workout: w).render(WebFixtures.context))
        #expect(html.contains("<th class=\"num\">Moving</th><th class=\"num\">Elapsed</th>"))
        #expect(html.contains("Kept out of records and personal bests."))
        #expect(html.contains("Implausible at ") && html.contains("for 0:25: 0.64 km up to 92.2 km/h (acceleration); not in max speed, best efforts or records."), "\(html)")
    }

    /// Issue 39: "a stretch outside them is kept in the track and drawn, marked implausible ...
    /// on the web page". A ride (25 km/h east) whose receiver catches up 500 m in 30 s after a
    /// stop: the route draws the catch-up in its own dashed path over the track, as long as the
    /// stretch, with a legend entry; the speed chart shades it; the split it lies in marks its
    /// pace. Before, the route drew it like the rest of the ride, in the fastest colour.
    @Test func implausibleStretchesAreDrawnApart() throws {
        let gpx = PlausibilityCheckTests.gpx([(300, 7.0), (60, 0), (30, 16.7), (300, 7.0)])
        let w = try PlausibilityCheckTests.imported(gpx, activity: .cycling).workout
        let x = try #require(w.summary.implausible.first)
        let html = WebFixtures.text(WorkoutPage(workout: w).render(WebFixtures.context))
        let at = try #require(html.range(of: "<svg class=\"route\""))
        let route = String(html[at.lowerBound...]).components(separatedBy: "</svg>")[0]
        func xs(_ d: Substring) -> [Double] {
            let n = d.split(whereSeparator: { $0 == " " || $0 == "M" }).compactMap { Double($0) }
            return stride(from: 0, to: n.count - 1, by: 2).map { n[$0] }
        }
        func path(_ cls: String) -> Substring? {
            guard let r = route.range(of: "<path class=\"\(cls)\" d=\"") else { return nil }
            return route[r.upperBound...].prefix { $0 != "\"" }
        }
        let marked = try #require(path("implausible"), "the route draws the stretch apart")
        let track = xs(try #require(path("casing")))
        let drawn = xs(marked)
        // The track runs east: the marked share of its width is the stretch's share of the distance.
        let share = (drawn.max()! - drawn.min()!) / (track.max()! - track.min()!)
        print("implausible: \(x.meters) m of \(w.summary.distanceMeters) m; drawn \(share) of the route's width")
        expectLess(abs(share - x.meters / w.summary.distanceMeters), 0.03)
        #expect(route.contains("<title>Implausible: kept, not counted</title>"))
        #expect(html.contains("<i class=\"implausible\"></i>implausible (kept, not counted)"), "legend")
        #expect(html.contains("<rect class=\"implausible\""), "the speed chart shades it")
        #expect(html.contains("<span class=\"implausible\" title=\"without "), "the split's pace is marked")
        #expect(!html.contains("style="), "classes only: the CSP allows no inline style")
        // The same ride without the catch-up draws nothing apart.
        let clean = try PlausibilityCheckTests.imported(PlausibilityCheckTests.gpx([(300, 7.0), (60, 0), (300, 7.0)]), activity: .cycling).workout
        #expect(clean.summary.implausible.isEmpty)
        let plain = WebFixtures.text(WorkoutPage(workout: clean).render(WebFixtures.context))
        #expect(!plain.contains("class=\"implausible\""))
    }

    /// A 24-hour workout: every chart within its vertex budget, the page under 500 KB, and the
    /// largest drawing error as measured (docs/web.md states it).
    @Test func aDayLongWorkoutStaysSmall() {
        let w = WebFixtures.ride(points: 86_400)
        var report = WorkoutPage.Report()
        let page = WorkoutPage(workout: w).render(WebFixtures.context, report: &report)
        expectLess(page.count, 500_000, "\(page.count) bytes")
        for c in report.charts {
            expectLessOrEqual(c.vertices, 2000, "\(c.name): \(c.vertices)")
        }
        print("24-hour page: \(page.count) bytes; " + report.charts.map { "\($0.name) \($0.vertices) vertices, max error \(formatFixed($0.maxErrorPixels, decimals: 2)) px" }.joined(separator: "; "))
    }

    @Test func pacePageForARunAndTimeAxis() {
        var w = WebFixtures.ride(points: 3000, activity: .running)
        w.summary.heartRateZoneBounds = []
        let byTime = WebFixtures.text(WorkoutPage(workout: w, view: WorkoutView(x: .time)).render(WebFixtures.context))
        #expect(WebFixtures.charts(byTime).contains("pace"))
        #expect(byTime.contains("data-xf=\"duration\""))
        let byDistance = WebFixtures.text(WorkoutPage(workout: w).render(WebFixtures.context))
        #expect(byDistance.contains("data-xf=\"number\" data-xu=\"km\""))
        // Without zones there is no heart-rate colouring to offer.
        #expect(!byDistance.contains("colour=hr"))
    }

    @Test func aWorkoutWithoutPointsShowsItsHeartRateOnly() {
        var w = WebFixtures.ride(points: 0, activity: .strength)
        w.heartRate = HeartRateSeries(samples: (0..<600).map { HeartRateSample(time: WebFixtures.start + Double($0), bpm: $0 == 300 ? nil : 100 + $0 % 40) })
        let html = WebFixtures.text(WorkoutPage(workout: w).render(WebFixtures.context))
        expectEqual(WebFixtures.charts(html), ["heartrate"])
        #expect(!html.contains(".gpx\""))  // no positions: no GPX download
    }

    /// Issue 29: a trainer ride (no GPS) charts its sensors' speed, power and cadence and its
    /// heart rate, shows its average speed from the wheel's distance, and draws the power
    /// meter's dropout as a gap.
    @Test func anIndoorRideChartsItsSensors() {
        let w = WebFixtures.indoor(.indoorCycling, seconds: 1200)
        var report = WorkoutPage.Report()
        let html = WebFixtures.text(WorkoutPage(workout: w).render(WebFixtures.context, report: &report))
        expectEqual(WebFixtures.charts(html), ["speed", "heartrate", "power", "cadence", "power-curve"])
        #expect(html.contains("Average speed") && html.contains("32.4 km/h"))
        #expect(html.contains("Average power") && html.contains("Average cadence"))
        #expect(html.contains("data-xf=\"duration\""))  // time by default indoors
        #expect(html.contains("?x=distance"))  // and the wheel's distance offered
        let power = html.components(separatedBy: "data-chart=\"power\"")[1]
        let line = power.components(separatedBy: "class=\"line\" d=\"")[1].prefix { $0 != "\"" }
        expectEqual(line.filter { $0 == "M" }.count, 2)  // the dropout
        #expect(!html.contains(".gpx\""))
        let byDistance = WebFixtures.text(WorkoutPage(workout: w, view: WorkoutView(x: .distance)).render(WebFixtures.context))
        #expect(byDistance.contains("data-xf=\"number\" data-xu=\"km\"") && byDistance.contains("data-x1=\"10.8"))
    }

    /// A treadmill run with a footpod: pace from its distance, cadence.
    @Test func aTreadmillRunShowsPaceFromTheFootpod() {
        let w = WebFixtures.indoor(.treadmillRunning, seconds: 900)
        let html = WebFixtures.text(WorkoutPage(workout: w).render(WebFixtures.context))
        expectEqual(WebFixtures.charts(html), ["pace", "heartrate", "cadence"])
        #expect(html.contains("Average pace") && html.contains("5:13 /km"))
    }

    @Test func gapsBreakTheLine() {
        let w = WebFixtures.ride(points: 7300)  // paused twice
        let html = WebFixtures.text(WorkoutPage(workout: w).render(WebFixtures.context))
        let hr = html.components(separatedBy: "data-chart=\"heartrate\"")[1]
        let line = hr.components(separatedBy: "class=\"line\" d=\"")[1].prefix { $0 != "\"" }
        expectEqual(line.filter { $0 == "M" }.count, 3)
    }

    /// Issue 41: the page shows the plan against the ride: each step's target beside what was
    /// done, its score, the compliance; the plan's name escaped; nothing without a plan.
    @Test func thePlanAgainstTheRide() {
        var w = WebFixtures.ride(points: 600)
        #expect(!WebFixtures.text(WorkoutPage(workout: w).render(WebFixtures.context)).contains("<h2>Plan: "))
        w.summary.plan = PlanOutcome(name: "3 <x> 20", stepCount: 3, steps: [
            PlanOutcome.Step(index: 0, firstLap: 0, laps: 1, kind: .warmup, target: .powerRamp(from: 150, to: 225), seconds: 600, averagePower: 190, compliance: 100),
            PlanOutcome.Step(index: 1, firstLap: 1, laps: 1, kind: .work, target: .power(low: 285, high: 285), seconds: 1200, averagePower: 250, compliance: 87.7),
        ], compliance: 91.8)
        let html = WebFixtures.text(WorkoutPage(workout: w).render(WebFixtures.context))
        #expect(html.contains("<h2>Plan: 3 &lt;x&gt; 20</h2><p>2 of 3 steps, compliance 91.8 %</p>"), "\(html)")
        #expect(html.contains("<tr><td>2</td><td>work</td><td class=\"num\">285 W</td><td class=\"num\">250 W</td><td class=\"num\">20:00</td><td class=\"num\">88 %</td></tr>"), "\(html)")
        #expect(html.contains("150 to 225 W"))
    }
}
