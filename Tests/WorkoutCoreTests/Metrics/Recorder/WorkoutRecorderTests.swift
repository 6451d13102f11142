import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

@Suite struct WorkoutRecorderTests {
    let synth = TrackSynth()

    func record(_ fixes: [Fix], activity: ActivityType = .running, settings: MetricsSettings = MetricsSettings(),
                start: Double = 0, tick: Bool = true) -> WorkoutRecorder {
        var r = WorkoutRecorder(id: testID, activity: activity, startedAt: start, settings: settings)
        for f in fixes {
            if tick { r.tick(now: f.time - 0.5) }
            r.ingest(f)
        }
        return r
    }

    @Test func straightRunDistanceMovingTimeAndSplits() {
        // 3 m/s east for 1000 s, fixes every second from t = 1.
        let fixes = synth.run(start: 1, seconds: 1000, speed: 3)
        let r = record(fixes)
        let w = r.finish(at: 1001)
        let s = w.summary
        // Warm-up drops the first two fixes (6 m); the rest is accepted every other fix (3 m < 5 m radius).
        expectLess(Swift.abs(s.distanceMeters - w.points.acceptedLength), 1e-6)
        expectLess(Swift.abs(s.distanceMeters - 2994), 1)
        expectEqual(s.elapsedSeconds, 1001)
        expectLess(Swift.abs(s.signalLostSeconds - 3), 1e-9)   // [0, 3]: waiting for the first trusted fix
        expectLess(Swift.abs(s.movingSeconds - 998), 1e-9)
        expectEqual(s.splits.count, 3)
        #expect(s.splits[0].trigger == .distance && s.splits[2].trigger == .end)
        expectLess(Swift.abs(s.splits[1].elapsedSeconds - 1000.0 / 3), 0.01)
        expectLess(Swift.abs(s.splits[1].distanceMeters - 1000), 1e-6)
        expectLess(Swift.abs(s.maxSpeed - 3), 0.01)
        #expect(s.laps.count == 1 && s.laps[0].trigger == .end)
        #expect(!w.events.contains { $0.kind == .motionPaused || $0.kind == .signalLost })
        expectNil(s.calories)
    }

    @Test func autoPauseAfterStopAndResume() {
        // run 300 s, stand 120 s (fixes on the same spot), run 300 s.
        var fixes = synth.run(start: 1, seconds: 300, speed: 3)
        for i in 1...120 { fixes.append(synth.fix(t: 301 + Double(i), north: 0.5 * sin(Double(i)), east: 900)) }
        fixes += synth.run(start: 422, seconds: 300, speed: 3, from: 903)
        let r = record(fixes)
        let w = r.finish(at: 722)
        let kinds = w.events.map(\.kind)
        expectEqual(kinds.filter { $0 == .motionPaused }.count, 1)
        expectEqual(kinds.filter { $0 == .motionResumed }.count, 1)
        let paused = w.events.first { $0.kind == .motionPaused }!
        #expect(paused.time == 301 && paused.cause == .auto)   // the stop began at the last movement
        let auto = r.autoPausedSeconds(now: 722)
        expectLess(Swift.abs(auto - 123), 2.5, "auto-paused \(auto)")
        expectLess(Swift.abs(w.summary.movingSeconds + auto + w.summary.signalLostSeconds - w.summary.elapsedSeconds), 1e-9)
        expectLess(Swift.abs(w.summary.movingSeconds - 596), 3, "moving \(w.summary.movingSeconds)")
    }

    @Test func signalLossIsNotAPause() {
        // run 300 s, no fix for 120 s (still running: position keeps advancing), run 300 s.
        let fixes = synth.run(start: 1, seconds: 300, speed: 3) + synth.run(start: 421, seconds: 300, speed: 3, from: 1260)
        var r = WorkoutRecorder(id: testID, activity: .running, startedAt: 0)
        var lostAt: Double?
        for f in fixes {
            if f.time == 421 {
                for t in stride(from: 302.0, through: 420, by: 1) {
                    for e in r.tick(now: t) { if case .timeline(let ev) = e, ev.kind == .signalLost { lostAt = lostAt ?? t } }
                }
            }
            r.ingest(f)
        }
        expectEqual(lostAt, 317)   // noticed by tick once 15 s have passed without a fix
        let w = r.finish(at: 721)
        let s = w.summary
        let kinds = w.events.map(\.kind)
        #expect(!kinds.contains(.motionPaused) && !kinds.contains(.pause))
        #expect(kinds.contains(.signalLost) && kinds.contains(.signalRegained))
        expectEqual(w.events.first { $0.kind == .signalLost }?.time, 301)
        // gap 301..423 (120 s without fix + 2 s warm-up) plus 3 s at the start
        expectLess(Swift.abs(s.signalLostSeconds - (3 + 122)), 1e-9, "signal lost \(s.signalLostSeconds)")
        expectLess(Swift.abs(s.movingSeconds - (298 + 298)), 1e-9, "moving \(s.movingSeconds)")
        expectEqual(r.autoPausedSeconds(now: 721), 0)
        expectEqual(Set(w.points.filter(\.isAccepted).map(\.segment)), [0, 1])
        expectLess(Swift.abs(s.distanceMeters - w.points.acceptedLength), 1e-6)
    }

    @Test func badFixesAddNothing() {
        let clean = synth.run(start: 1, seconds: 600, speed: 3)
        var dirty = [synth.fix(t: 0.5, north: 2000, east: 0)]   // cached first fix 2 km away
        for f in clean {
            dirty.append(f)
            if f.time == 200 { dirty.append(synth.fix(t: 200.5, north: 5000, east: 600)) }  // 5 km jump
            if f.time == 300 { dirty.append(Fix(time: 300.5, latitude: 0, longitude: 0)) }  // null island
            if f.time == 400 { dirty.append(synth.fix(t: 400.5, north: 0, east: 1200, acc: 80)) }  // poor accuracy
        }
        let a = record(clean).finish(at: 601).summary
        let b = record(dirty).finish(at: 601).summary
        expectLess(Swift.abs(a.distanceMeters - b.distanceMeters), 1e-6, "clean \(a.distanceMeters), dirty \(b.distanceMeters)")
        expectEqual(b.rejectedByReason[.tooFast], 1)
        expectEqual(b.rejectedByReason[.nullIsland], 1)
        expectEqual(b.rejectedByReason[.lowAccuracy], 1)
        expectEqual(b.rejectedByReason[.warmUp], 3)
        expectEqual(b.pointCount, dirty.count)
    }

    /// A manual pause counts in elapsed (the wall span) and not in the timer (issue 39 item 3:
    /// before, elapsed left it out and the wall span was nowhere).
    @Test func manualPauseExcludedFromTimerAndStartsSegment() {
        var r = WorkoutRecorder(id: testID, activity: .running, startedAt: 0)
        for f in synth.run(start: 1, seconds: 100, speed: 3) { r.ingest(f) }
        r.pause(at: 101, cause: .manual)
        expectEqual(r.ingest(synth.fix(t: 150, north: 0, east: 400)), [.ignoredWhilePaused])
        r.resume(at: 201)
        for f in synth.run(start: 202, seconds: 100, speed: 3, from: 2000) { r.ingest(f) }
        let w = r.finish(at: 302)
        expectEqual(w.summary.elapsedSeconds, 302)
        expectEqual(w.summary.timerSeconds, 202)
        expectEqual(w.summary.averageSpeed, w.summary.distanceMeters / 202)
        expectEqual(w.events.filter { $0.kind == .pause }.first?.cause, .manual)
        // No distance for the 1.7 km between pause and resume.
        expectLess(Swift.abs(w.summary.distanceMeters - w.points.acceptedLength), 1e-6)
        expectLess(w.summary.distanceMeters, 600)
    }

    @Test func caloriesFromMETWeightAndMovingHours() {
        var settings = MetricsSettings()
        settings.bodyWeightKilograms = 70
        var r = WorkoutRecorder(id: testID, activity: .strength, startedAt: 0, settings: settings)
        r.tick(now: 1800)
        let s = r.summary(now: 3600)
        expectEqual(s.movingSeconds, 3600)   // no GPS activity: all unpaused time is moving
        expectLess(Swift.abs(s.calories! - 5.0 * 70), 1e-9)
        // A run is measured by ACSM's running equation at its speed (docs/metrics.md): 3 m/s on
        // the flat is VO2 39.5 ml/kg/min, 829.5 kcal an hour at 70 kg.
        let run = record(synth.run(start: 1, seconds: 3600, speed: 3), settings: settings).summary(now: 3601)
        expectEqual(run.caloriesMethod, .met)
        expectLess(Swift.abs(run.calories! - 829.5 * run.movingSeconds / 3600), 5)
    }

    @Test func elevationGainFromGPSAltitude() {
        // 10 fixes at 100 m, 10 at 120 m, 10 at 110 m, moving 6 m/s (every fix accepted); the
        // altitude changes at 5 m/s (20 m in one second would be a jump, no climb: faster than
        // a runner moves, docs/metrics.md).
        let alts = Array(repeating: 100.0, count: 10) + [105, 110, 115] + Array(repeating: 120.0, count: 10) + [115]
            + Array(repeating: 110.0, count: 10)
        var fixes: [Fix] = (0..<3).map { synth.fix(t: Double($0 + 1), north: 0, east: Double($0) * 6, alt: 100) }  // warm-up
        for (i, a) in alts.enumerated() { fixes.append(synth.fix(t: Double(i + 4), north: 0, east: Double(i + 3) * 6, alt: a)) }
        let s = record(fixes).summary(now: 45)
        expectLess(Swift.abs(s.elevationGainMeters - 20), 1e-9)
        expectLess(Swift.abs(s.elevationLossMeters - 10), 1e-9)
    }

    @Test func elevationNoiseAddsNothing() {
        var rng = SeededRandom(seed: 7)
        let fixes = synth.run(start: 1, seconds: 1800, speed: 3).map { f -> Fix in
            var f = f; f.altitude = 300 + 2 * rng.gaussian(); return f
        }
        let s = record(fixes).summary(now: 1801)
        expectLess(s.elevationGainMeters, 5, "gain \(s.elevationGainMeters)")
    }

    @Test func bestEffortsOnHandComputedRun() {
        // 2 km at 3 m/s, 1 km at 5 m/s, 1 km at 3 m/s, one fix per second (every 3 or 5 m).
        var fixes: [Fix] = []
        var t = 1.0, x = 0.0
        func go(_ meters: Double, _ v: Double) {
            let end = x + meters
            while x < end - 1e-9 { fixes.append(synth.fix(t: t, north: 0, east: x, acc: nil)); t += 1; x += v }
        }
        go(2001, 3); go(1000, 5); go(1000, 3); fixes.append(synth.fix(t: t, north: 0, east: x, acc: nil))
        var settings = MetricsSettings(); settings.stationaryRadius = 2  // every 3 m step is accepted
        let s = record(fixes, settings: settings).summary(now: t)
        let byDistance: [Double: Double] = Dictionary(uniqueKeysWithValues: s.bestEfforts.map { ($0.distanceMeters, $0.seconds) })
        // Geodesic vs the flat synthesis differ by ~1e-4 relative: tolerances of 0.1 s. (The
        // mile's figure is a typed constant: inline, its literals took seconds to type-check.)
        let mile: Double = 200 + 609.344 / 3
        expectLess(Swift.abs(byDistance[400]! - 80), 0.1)
        expectLess(Swift.abs(byDistance[1000]! - 200), 0.1)
        expectLess(Swift.abs(byDistance[1609.344]! - mile), 0.2)
        expectNil(byDistance[5000])
    }

    /// Every shared GPX/TCX track recomputed as an imported workout: the filtered distance never
    /// exceeds the raw geodesic length and stays close to it on these clean device tracks.
    @Test(.requires(.sharedData)) func importedTracksThroughTheSamePipeline() throws {
        let files = SharedData.files(in: "data/gpx", ext: "gpx") + SharedData.files(in: "data/tcx", ext: "tcx")
        try #require(files.count >= 7)
        for file in files {
            let segments = try TrackFileExtractor.segments(of: file)
            let raw = GeodesicTests.rawLength(segments)
            let points = segments.joined().compactMap { p -> TrackPoint? in
                guard let t = p.time else { return nil }
                return TrackPoint(fix: Fix(time: t, latitude: p.lat, longitude: p.lon, altitude: p.ele, heartRate: p.hr))
            }
            guard let start = points.first?.fix.time else { continue }
            let activity: ActivityType = file.lastPathComponent.hasPrefix("globalsat") ? .running
                : .cycling   // the Oregon track reaches 8 m/s: as hiking (4 m/s cap) most of it is rejected as too fast
            // Devices record sparsely ("smart recording": up to ~40 s between points), so imports
            // use a 60 s signal-loss timeout.
            var settings = MetricsSettings()
            settings.signalLostTimeout = 60
            let w = WorkoutRecorder.recompute(id: testID, activity: activity, startedAt: start, settings: settings, points: points)
            let s = w.summary
            let rel = raw > 0 ? (s.distanceMeters - raw) / raw : 0
            print("imported \(file.lastPathComponent) as \(activity.rawValue): raw \(Int(raw)) m, recorder \(Int(s.distanceMeters)) m (\(String(format: "%+.2f", 100 * rel)) %), elapsed \(Int(s.elapsedSeconds)) s, moving \(Int(s.movingSeconds)) s, signal lost \(Int(s.signalLostSeconds)) s, gain \(Int(s.elevationGainMeters)) m, max \(String(format: "%.2f", s.maxSpeed)) m/s, rejected \(s.rejectedByReason.map { "\($0.key.rawValue)=\($0.value)" }.sorted())")
            expectLessOrEqual(s.distanceMeters, raw * (1 + 1e-9))
            if points.count > 100 { expectGreater(rel, -0.05, "\(file.lastPathComponent): \(rel)") }
            expectLess(Swift.abs(s.distanceMeters - w.points.acceptedLength), 1e-6)
        }
    }
}
