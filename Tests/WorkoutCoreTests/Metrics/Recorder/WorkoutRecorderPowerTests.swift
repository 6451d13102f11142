import Testing
@testable import WorkoutCore

/// Power and cadence that fixes carry (TCX Watts, FIT power/cadence) reach the summary, its laps
/// and splits, and the JSON (`averagePower`, `maxPower`, `averageCadence`; null without).
@Suite struct WorkoutRecorderPowerTests {
    let synth = TrackSynth()

    /// 8 m/s east for 400 s, a lap at t = 201: power 150 W then 250 W (one 0 W coasting fix),
    /// cadence 80 then 90 rpm (one 0 rpm fix, which cadence leaves out).
    func ride() -> Workout {
        var r = WorkoutRecorder(id: testID, activity: .cycling, startedAt: 0)
        for var f in synth.run(start: 1, seconds: 400, speed: 8) {
            let first = f.time <= 201
            f.power = f.time == 100 ? 0 : (first ? 150 : 250)
            f.cadence = f.time == 100 ? 0 : (first ? 80 : 90)
            r.tick(now: f.time - 0.5)
            r.ingest(f)
            if f.time == 201 { r.lap(at: 201) }
        }
        return r.finish(at: 401)
    }

    @Test func summaryLapsAndSplitsCarryPowerAndCadence() throws {
        let w = ride()
        let s = w.summary
        // The accepted fixes' values (the warm-up drops the first fixes): compute the oracle from them.
        let accepted = w.points.filter { $0.rejection == nil }.map(\.fix)
        let watts = accepted.compactMap(\.power)
        let cadences = accepted.compactMap(\.cadence).filter { $0 > 0 }
        try #require(watts.count > 300)
        expectEqual(s.averagePower, Double(watts.reduce(0, +)) / Double(watts.count))
        expectEqual(s.maxPower, 250)
        expectEqual(s.averageCadence, Double(cadences.reduce(0, +)) / Double(cadences.count))
        #expect(watts.contains(0), "the coasting fix counts for power")
        expectEqual(s.laps.count, 2)
        let lap1 = accepted.filter { $0.time <= 201 }.compactMap(\.power)
        expectEqual(s.laps[0].averagePower, Int((Double(lap1.reduce(0, +)) / Double(lap1.count)).rounded()))
        expectEqual(s.laps[0].maxPower, 150)
        expectEqual(s.laps[0].averageCadence, 80)
        #expect(s.laps[1].averagePower == 250 && s.laps[1].maxPower == 250 && s.laps[1].averageCadence == 90)
        #expect(s.splits.allSatisfy { $0.averagePower != nil && $0.averageCadence != nil })
    }

    @Test func jsonCarriesThemAndReadsThemBack() throws {
        let s = ride().summary
        let j = s.json()
        expectNotNil(j["averagePower"]?.doubleValue)
        expectEqual(j["maxPower"]?.intValue, 250)
        expectEqual(j["laps"]?.arrayValue?[1]["averagePower"]?.intValue, 250)
        expectEqual(j["laps"]?.arrayValue?[1]["averageCadence"]?.intValue, 90)
        let back = try #require(WorkoutSummary(json: j))
        #expect(back.maxPower == 250 && back.laps[1].averageCadence == 90)
        expectLess(Swift.abs((back.averagePower ?? 0) - (s.averagePower ?? -1)), 0.06)
        // The status writer writes the same text.
        var w = JSONWriter(capacity: 256)
        var cache = SummaryJSONCache()
        s.writeJSON(to: &w, cache: &cache)
        expectEqual(String(decoding: w.bytes, as: UTF8.self), j.serialized())
    }

    @Test func withoutPowerTheKeysAreNull() {
        var r = WorkoutRecorder(id: testID, activity: .running, startedAt: 0)
        for f in synth.run(start: 1, seconds: 100, speed: 3) { r.tick(now: f.time - 0.5); r.ingest(f) }
        let j = r.finish(at: 101).summary.json()
        #expect(j["averagePower"] == .null && j["maxPower"] == .null && j["averageCadence"] == .null)
        expectEqual(j["laps"]?.arrayValue?[0]["averagePower"], .null)
    }
}
