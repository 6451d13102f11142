import Testing
@testable import WorkoutCore

/// Issue 18, live: fixes arriving far faster than the activity allows (a ride recorded as a
/// hike) are said once, in the summary's `warnings` (status) and as a recorder event (the log);
/// a single glitch says nothing; a rebuilt workout has the same warning.
struct SpeedWarningTests {
    static let t0 = 1_700_000_000.0

    /// Fixes heading north at `speed` m/s, one a second.
    static func fixes(speed: Double, count: Int, from t: Double = t0 + 1) -> [Fix] {
        (0..<count).map { i in Fix(time: t + Double(i), latitude: 47.0 + Double(i) * speed / 111_200, longitude: 8.0, mode: .threeD) }
    }

    @Test func aRideRecordedAsAHikeIsSaidOnce() throws {
        var r = WorkoutRecorder(id: WorkoutID(start: Self.t0, suffix: 1), activity: .hiking, startedAt: Self.t0)
        var warnings: [SpeedWarning] = []
        for f in Self.fixes(speed: 7, count: 120) {  // 25 km/h
            for e in r.ingest(f) { if case .tooFastForActivity(let w) = e { warnings.append(w) } }
        }
        expectEqual(warnings.count, 1)
        let w = try #require(warnings.first)
        expectLess(abs(w.medianSpeed - 7), 0.05)
        #expect(w.text.contains("fixes arrive at 25 km/h median, far faster than hiking allows (14 km/h); likely cycling"), "\(w.text)")
        let s = r.summary(now: Self.t0 + 121)
        // Then the stretch beyond hiking itself (issue 39), named once.
        expectEqual(s.implausible.count, 1)
        expectEqual(s.warnings, [w.text] + ImplausibleStretch.warnings(s.implausible, activity: .hiking))
        expectEqual(RecorderLogEvent(.tooFastForActivity(w), id: r.id)?.name, "gps.too_fast_for_activity")
        // In the JSON of status and show (both writers).
        var cache = SummaryJSONCache()
        var jw = JSONWriter(capacity: 1024)
        s.writeJSON(to: &jw, cache: &cache)
        expectEqual(String(decoding: jw.bytes, as: UTF8.self), s.json().serialized())
        expectEqual(WorkoutSummary(json: s.json())?.warnings, s.warnings)
        // Rebuilt from the stored points: the same warning.
        let done = r.finish(at: Self.t0 + 121)
        let rebuilt = WorkoutRecorder.recompute(id: done.id, activity: .hiking, startedAt: Self.t0, endedAt: Self.t0 + 121, points: done.points, events: done.events)
        expectEqual(rebuilt.summary, done.summary)
    }

    @Test func aHikeAndAGlitchSayNothing() {
        var r = WorkoutRecorder(id: WorkoutID(start: Self.t0, suffix: 1), activity: .hiking, startedAt: Self.t0)
        var fixes = Self.fixes(speed: 1.3, count: 120)
        fixes[60].latitude += 0.01  // one fix 1.1 km off
        var said = false
        for f in fixes { for e in r.ingest(f) { if case .tooFastForActivity = e { said = true } } }
        #expect(!said)
        #expect(r.summary(now: Self.t0 + 121).warnings.isEmpty)
        expectEqual(r.summary(now: Self.t0 + 121).rejectedByReason[.tooFast], 1)
    }

    /// A saved summary without `warnings` (every file before issue 18) still reads.
    @Test func summariesWithoutWarningsStillRead() throws {
        let s = WorkoutSummary(id: WorkoutID(start: Self.t0, suffix: 1), activity: .running, startedAt: Self.t0)
        let text = s.json().serialized()
        #expect(!text.contains("warnings"))
        #expect(WorkoutSummary(json: try JSON.parse(text))?.warnings == [])
    }
}
