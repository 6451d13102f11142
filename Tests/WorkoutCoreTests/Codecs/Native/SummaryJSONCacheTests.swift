import Testing
@testable import WorkoutCore

/// `WorkoutSummary.writeJSON(to:cache:)` writes exactly `json().serialized()`, with a cache kept
/// across a whole workout as the daemon keeps it, whatever happened to the splits and laps since.
@Suite struct SummaryJSONCacheTests {
    static func expected(_ s: WorkoutSummary) -> String { s.json().serialized() }

    /// The written bytes as text (valid UTF-8 is part of the check: decoding would repair it).
    static func written(_ s: WorkoutSummary, _ cache: inout SummaryJSONCache) -> String? {
        var w = JSONWriter()
        s.writeJSON(to: &w, cache: &cache)
        return String(validating: w.bytes, as: UTF8.self)
    }

    /// Random runs with pauses, laps, markers, signal gaps, bad fixes and heart rate: the summary
    /// after every few steps, then the finished one, through one cache.
    @Test(arguments: 1...12) func matchesTreeThroughoutAWorkout(seed: Int) {
        let (steps, end) = WorkoutRecorderPropertyTests.scenario(seed: UInt64(seed))
        var settings = MetricsSettings()
        settings.bodyWeightKilograms = seed % 3 == 0 ? nil : 70
        settings.autoLapDistance = seed % 2 == 0 ? 400 : nil
        var r = WorkoutRecorder(id: testID, activity: .running, startedAt: 0, settings: settings)
        var cache = SummaryJSONCache()
        var checked = 0, sawSplitsGrow = false, sawLapsGrow = false
        var last = (splits: 0, laps: 0)
        for (k, step) in steps.enumerated() {
            var now = 0.0
            switch step {
            case .fix(let f): r.ingest(f); now = f.time
            case .tick(let t): r.tick(now: t); now = t
            case .pause(let t): r.pause(at: t, cause: .manual); now = t
            case .resume(let t): r.resume(at: t); now = t
            case .lap(let t): r.lap(at: t); now = t
            case .marker(let t): r.marker(at: t, text: "m\(t)"); now = t
            }
            guard k % 97 == 0 else { continue }
            let s = r.summary(now: now)
            expectEqual(Self.written(s, &cache), Self.expected(s), "seed \(seed) step \(k)")
            #expect(cache.encodedCounts == (s.splits.count, s.laps.count))
            sawSplitsGrow = sawSplitsGrow || s.splits.count > last.splits
            sawLapsGrow = sawLapsGrow || s.laps.count > last.laps
            last = (s.splits.count, s.laps.count)
            checked += 1
        }
        let finished = r.finish(at: end).summary
        expectEqual(finished.endedAt, end)
        expectEqual(Self.written(finished, &cache), Self.expected(finished), "seed \(seed) finished")
        #expect(cache.encodedCounts == (finished.splits.count, finished.laps.count))
        expectGreater(checked, 10)
        #expect(sawSplitsGrow && sawLapsGrow, "seed \(seed): the scenario should close splits and laps")
    }

    /// A long steady run (hundreds of splits, like the 24-hour benchmark) with rejected fixes
    /// and best efforts.
    @Test func matchesTreeForALongWorkout() {
        let start = 1_790_000_000.0
        var r = WorkoutRecorder(id: WorkoutID(start: start, suffix: 1), activity: .running, startedAt: start)
        var cache = SummaryJSONCache()
        for k in 0..<40_000 {
            let d = 3 * Double(k)
            var f = Fix(time: start + 1 + Double(k), latitude: 48.1 + d / 111_320 * 0.7, longitude: 11.5 + d / 74_000 * 0.7,
                        altitude: 520 + Double(k % 50) * 0.1, speed: 3, mode: .threeD, horizontalAccuracy: 4, heartRate: 120 + k % 40)
            if k % 1000 == 999 { f.horizontalAccuracy = 200 }
            r.ingest(f)
            if k % 5000 == 0 {
                let s = r.summary(now: f.time + 0.5)
                expectEqual(Self.written(s, &cache), Self.expected(s))
            }
        }
        let s = r.finish(at: start + 40_002).summary
        expectGreater(s.splits.count, 100)
        #expect(!s.bestEfforts.isEmpty && !s.rejectedByReason.isEmpty)
        expectEqual(Self.written(s, &cache), Self.expected(s))
        // Asked again unchanged (as during a save): the same bytes, from the cache.
        expectEqual(Self.written(s, &cache), Self.expected(s))
    }

    /// The cache compares its entries with the summary's: a changed, removed or foreign split
    /// or lap is encoded again, never served from old bytes.
    @Test func reencodesWhatChanged() {
        var s = WorkoutSummary(id: testID, activity: .cycling, startedAt: 1_800_000_000, elapsedSeconds: 100.12345,
                               rejectedByReason: [.stationaryJitter: 3, .lowAccuracy: 0], currentSpeed: 4.56789, calories: 12.34)
        s.splits = (0..<5).map { i in
            LapSummary(index: i, trigger: .distance, startTime: 1_800_000_000 + Double(i) * 300.0004, endTime: 1_800_000_300 + Double(i) * 300.0004,
                       elapsedSeconds: 300.0004, movingSeconds: 299.5, distanceMeters: 1000, elevationGainMeters: 1.234,
                       maxSpeed: 4.123456, calories: 20.05, averageHeartRate: i % 2 == 0 ? 140 : nil, maxHeartRate: 150)
        }
        s.laps = [s.splits[0]]
        var cache = SummaryJSONCache()
        expectEqual(Self.written(s, &cache), Self.expected(s))

        var changedLast = s
        changedLast.splits[4].distanceMeters = 1000.5
        changedLast.splits[4].trigger = .end
        expectEqual(Self.written(changedLast, &cache), Self.expected(changedLast))

        var changedFirst = changedLast
        changedFirst.splits[0].maxHeartRate = nil
        changedFirst.laps[0].index = 7
        expectEqual(Self.written(changedFirst, &cache), Self.expected(changedFirst))

        var shorter = changedFirst
        shorter.splits.removeLast(3)
        shorter.laps = []
        expectEqual(Self.written(shorter, &cache), Self.expected(shorter))
        #expect(cache.encodedCounts == (2, 0))

        var other = WorkoutSummary(id: WorkoutID(start: 1_700_000_000, suffix: 2), activity: .walking, startedAt: 1_700_000_000, endedAt: 1_700_000_100)
        other.splits = [LapSummary(index: 0, trigger: .end, startTime: 1_700_000_000, endTime: 1_700_000_100, elapsedSeconds: 100, movingSeconds: 90, distanceMeters: 150)]
        other.bestEfforts = [BestEffort(distanceMeters: 100, seconds: 30.0004, startTime: 1_700_000_010.5)]
        expectEqual(Self.written(other, &cache), Self.expected(other))
        expectEqual(Self.written(s, &cache), Self.expected(s))
        #expect(cache.encodedCounts == (5, 1))
    }

    /// Issue 15 (smaller): 3,000 laps made every status line 863 KB. With `recent`, the line
    /// carries the last laps and splits and their counts, and stays small.
    @Test func statusCarriesTheLastIntervalsAndTheirCounts() throws {
        var r = WorkoutRecorder(id: testID, activity: .running, startedAt: 0)
        for k in 1...3000 { r.lap(at: Double(k)) }
        let s = r.summary(now: 3001)
        var cache = SummaryJSONCache()
        var w = JSONWriter()
        s.writeJSON(to: &w, cache: &cache, recent: 20)
        expectLess(w.bytes.count, 16_000, "status line of \(w.bytes.count) bytes")
        let j = try JSON.parse(w.bytes)
        expectEqual(j["lapCount"]?.intValue, 3000)
        expectEqual(j["laps"]?.arrayValue?.count, 20)
        expectEqual(j["laps"]?.arrayValue?.last?["index"]?.intValue, 2999)
        expectEqual(j["splitCount"]?.intValue, 0)
        // The same cache serves the next line after another lap.
        r.lap(at: 3002)
        var w2 = JSONWriter()
        r.summary(now: 3003).writeJSON(to: &w2, cache: &cache, recent: 20)
        let j2 = try JSON.parse(w2.bytes)
        expectEqual(j2["laps"]?.arrayValue?.last?["index"]?.intValue, 3000)
        expectEqual(j2["laps"]?.arrayValue?.first?["index"]?.intValue, 2981)
    }
}
