import Testing
@testable import WorkoutCore

/// `/fitness`, `/power`, the power records and a power workout's own curve: routes, and the
/// pages' inline charts.
@Suite struct AnalyticsPagesTests {
    func route(_ target: String) -> WebRoute {
        WebRoute(HTTPRequest(method: .get, target: target, headers: [HTTPHeader("Host", "localhost:1")]))
    }

    @Test func routesAndRanges() {
        expectEqual(route("/fitness"), .fitness(days: 90))
        expectEqual(route("/fitness?days=365"), .fitness(days: 365))
        expectEqual(route("/fitness?days=7000"), .fitness(days: 90))
        expectEqual(route("/power"), .power(days: 90))
        expectEqual(route("/power?days=all"), .power(days: nil))
        expectEqual(route("/power?days=42"), .power(days: 42))
        expectEqual(route("/heatmap"), .heatmap(nil))
        expectEqual(route("/heatmap?activity=cycling"), .heatmap(.cycling))
    }

    @Test func fitnessPageDrawsThreeLinesLoadAndToday() {
        let d0 = StreakDay(year: 2026, month: 3, day: 1)
        let days = FitnessModel.days(loads: [d0: 100, d0.adding(days: 3): 60], from: d0, to: d0.adding(days: 41))
        let html = WebFixtures.text(FitnessPage(days: days, today: d0.adding(days: 20), span: 42).render(WebFixtures.context))
        expectEqual(WebFixtures.charts(html), ["fitness"])
        for line in ["class=\"fitness\" fill", "class=\"fatigue\"", "class=\"form\"", "class=\"today\"", "<rect x="] { #expect(html.contains(line), "\(line)") }
        #expect(html.contains("href=\"/fitness?days=365\"") && html.contains("aria-current=\"page\">42 days"))
        // No load at all: the page says where training stress comes from.
        let empty = WebFixtures.text(FitnessPage(days: FitnessModel.days(loads: [:], from: d0, to: d0), today: d0, span: 42).render(WebFixtures.context))
        #expect(empty.contains("thresholdHeartRate"))
    }

    @Test func powerPageDrawsTheRangeThePreviousAllTimeAndTheModel() {
        let id = WorkoutID(rawValue: "2026-05-01T07-00-00Z")!
        let curve = [(120, 400.0), (180, 400.0), (300, 300.0), (720, 300.0), (1200, 260.0)].map { RangePowerPoint(seconds: $0.0, watts: $0.1, id: id, startedAt: 1_777_618_800) }
        let html = WebFixtures.text(PowerPage(current: curve, previous: [], allTime: curve, span: 90).render(WebFixtures.context))
        expectEqual(WebFixtures.charts(html), ["power-curve"])
        #expect(html.contains("class=\"model\"") && html.contains("Critical power") && html.contains("/workouts/2026-05-01T07-00-00Z"))
        #expect(html.contains("All time") && html.contains("The 90 days before"))
    }

    @Test func aPowerWorkoutsPageHasItsCurveAndTrainingStress() {
        var w = WebFixtures.indoor(.indoorCycling, seconds: 1800)
        w.summary.normalizedPower = 221; w.summary.intensityFactor = 0.88; w.summary.trainingStress = 39
        w.summary.trainingStressMethod = .power; w.summary.workKilojoules = 394
        w.summary.powerZoneBounds = [0, 138, 188, 225, 263, 300, 375]; w.summary.powerZoneSeconds = [0, 0, 0, 1800, 0, 0, 0]
        var split = LapSummary(index: 0, trigger: .distance, startTime: w.summary.startedAt, endTime: w.summary.startedAt + 111,
                               elapsedSeconds: 111, movingSeconds: 111, distanceMeters: 1000)
        split.averagePower = 217
        w.summary.splits = [split]
        let html = WebFixtures.text(WorkoutPage(workout: w, personalBests: [], view: WorkoutView()).render(WebFixtures.context))
        #expect(WebFixtures.charts(html).contains("power-curve"), "\(WebFixtures.charts(html))")
        #expect(html.contains("Training stress (TSS)") && html.contains("Normalized power") && html.contains("394 kJ"))
        #expect(html.contains("Time in power zones") && html.contains("Z4 225–263 W") && html.contains("100 %"))
        #expect(html.contains("<th class=\"num\">Power</th>") && html.contains("217 W"))
        // Against the season's curve when the daemon gave one.
        var page = WorkoutPage(workout: w, personalBests: [], view: WorkoutView())
        page.season = [RangePowerPoint(seconds: 60, watts: 400, id: w.id, startedAt: w.summary.startedAt)]
        #expect(WebFixtures.text(page.render(WebFixtures.context)).contains("Last 365 days"))
    }

    @Test func recordsPageAndCommandShareThePowerRecords() throws {
        let t = 1_777_618_800.0
        var a = WorkoutSummary(id: WorkoutID(rawValue: "2026-05-01T07-00-00Z")!, activity: .cycling, startedAt: t)
        a.powerCurve = [PowerCurvePoint(seconds: 5, watts: 900, startTime: t), PowerCurvePoint(seconds: 1200, watts: 250, startTime: t)]
        var b = WorkoutSummary(id: WorkoutID(rawValue: "2026-05-03T07-00-00Z")!, activity: .cycling, startedAt: t + 172_800)
        b.powerCurve = [PowerCurvePoint(seconds: 5, watts: 850, startTime: t), PowerCurvePoint(seconds: 1200, watts: 262, startTime: t)]
        let html = WebFixtures.text(RecordsPage(summaries: [a, b]).render(WebFixtures.context))
        #expect(html.contains("power-records") && html.contains("900 W") && html.contains("262 W") && !html.contains("850 W"))
        let json = TrainingRecords.reply([a, b], activity: nil).members[0].1
        let power = try #require(json.arrayValue)
        expectEqual(power.compactMap { $0["id"]?.stringValue }, [a.id.rawValue, b.id.rawValue])
        expectEqual(power.compactMap { $0["watts"]?.doubleValue }, [900, 262])
        expectEqual(TrainingRecords.reply([a, b], activity: .running).members[0].1.arrayValue?.count, 0)
        // `edit --records off` keeps a workout's powers out of records too.
        var kept = a
        kept.records = .excluded
        expectEqual(TrainingRecords.reply([kept, b], activity: nil).members[0].1.arrayValue?.compactMap { $0["watts"]?.doubleValue }, [850, 262])
        #expect(!WebFixtures.text(RecordsPage(summaries: [kept, b]).render(WebFixtures.context)).contains("900 W"))
    }
}

/// Issue 40: a pool swim's page shows its pace per 100 m, lengths and SWOLF (as `show` does),
/// no km/h, and its intervals instead of a line per length.
@Suite struct SwimPageTests {
    @Test func aPoolSwimShowsPaceLengthsSwolfAndIntervals() {
        let t0 = WebFixtures.start
        var s = WorkoutSummary(id: WorkoutID(start: t0, suffix: 5), activity: .poolSwimming, startedAt: t0, endedAt: t0 + 240,
                               elapsedSeconds: 240, movingSeconds: 220, distanceMeters: 150, movingAverageSpeed: 150.0 / 180, maxSpeed: 1.2)
        var laps: [LapSummary] = []
        var t = t0
        for (k, (meters, seconds)) in [(25.0, 30.0), (25, 30), (25, 30), (25, 30), (0, 20), (25, 30), (25, 30)].enumerated() {
            laps.append(LapSummary(index: k, trigger: .manual, startTime: t, endTime: t + seconds, elapsedSeconds: seconds, movingSeconds: seconds, distanceMeters: meters))
            t += seconds
        }
        s.laps = laps
        s.swim = SwimSummary(poolLengthMeters: 25, poolUnit: .meters, lengths: 7, activeLengths: 6, strokes: 96, averageSwolf: 46,
                             pacePer100: 120, paceUnit: .meters, mainStroke: .freestyle)
        let html = WebFixtures.text(WorkoutPage(workout: Workout(summary: s)).render(WebFixtures.context))
        #expect(html.contains("2:00 /100 m") && html.contains("6 × 25 m") && html.contains("SWOLF") && html.contains("Freestyle"))
        #expect(!html.contains("km/h"))
        #expect(html.contains("<h2>Intervals</h2>") && !html.contains("<h2>Laps</h2>"))
        let rows = WorkoutPage.intervals(laps)
        expectEqual(rows.map(\.laps), [4, 2])
        expectEqual(rows.map(\.meters), [100, 50])
        expectEqual(rows.map(\.restAfter), [20, 0])
        // From the device's lengths: 3 active, 2 rests, 2 active.
        let lengths = [true, true, true, false, false, true, true].enumerated().map { k, active in
            SwimLength(start: t0 + Double(k) * 30, seconds: active ? 30 : 15, strokes: active ? 16 : nil, stroke: active ? .freestyle : nil, active: active)
        }
        let pool = PoolSwim(poolLengthMeters: 25, unit: .meters, lengths: lengths)
        let fromDevice = WorkoutPage.intervals(pool)
        expectEqual(fromDevice.map(\.laps), [3, 2])
        expectEqual(fromDevice.map(\.restAfter), [30, 0])
        expectEqual(fromDevice.map(\.meters), [75, 50])
    }

    /// The FIT pool swim of 166 lengths (114 swum in yards, 52 rests): its page lists intervals,
    /// not 166 lines, and its pace per 100 yd.
    @Test func anImportedPoolSwimListsIntervals() throws {
        let w = try #require(try FITDeviceTests.workouts(FITTestFiles.poolSwim(active: 114, rests: 52)).first).workout
        let html = WebFixtures.text(WorkoutPage(workout: w).render(WebFixtures.context))
        let rows = WorkoutPage.intervals(try #require(w.device?.pool))
        expectEqual(rows.reduce(0) { $0 + $1.laps }, 114)
        #expect(rows.count > 1 && rows.count < 114, "\(rows.count) intervals")
        #expect(html.contains("/100 yd"), "no pace per 100 yd")
        #expect(!html.contains("km/h"), "\(html.components(separatedBy: "km/h").first!.suffix(200))")
        #expect(html.contains("<h2>Intervals</h2>"))
    }
}
