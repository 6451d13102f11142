import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// One measuring model for live and imported workouts: a stretch slower than the activity's
/// auto-pause speed for the auto-pause delay is a stop, whatever the stationary radius (imports
/// use none), and the receiver's own speed keeps a moving track from being cut as jitter.
@Suite struct MovingTimeTests {
    let synth = TrackSynth()

    func imported(_ fixes: [Fix], _ activity: ActivityType, settings: MetricsSettings = MetricsSettings()) throws -> Workout {
        try Importer.workout(from: Importer.Track(fixes: fixes, activity: activity, origin: .device), activity: nil, id: 1,
                             settings: settings, source: "imported:t.gpx")
    }

    /// Regression: garmin-oregon-700-output.gpx read moving = elapsed (1:40:43) though it holds a
    /// 1,927 s gap with 10 m of movement: a device that logs nothing while standing.
    @Test func aLongGapFewMetresApartIsAStop() throws {
        var fixes = synth.run(start: 1000, seconds: 600, speed: 3)
        fixes += synth.run(start: 1600 + 1927, seconds: 600, speed: 3, from: 1800 + 10)
        let w = try imported(fixes, .running)
        expectEqual(w.summary.elapsedSeconds, 1200 + 1927)
        expectLess(abs(w.summary.movingSeconds - 1200), 10, "\(w.summary.movingSeconds)")
        #expect(w.events.contains { $0.kind == .motionPaused })
        expectLess(abs(w.summary.distanceMeters - 3610), 15, "every point of a device track counts: \(w.summary.distanceMeters)")
    }

    /// Regression: a device track standing 2 minutes at 1 Hz (30 cm of jitter) was all moving.
    @Test func standingStillInADeviceTrackIsAStop() throws {
        var fixes = synth.run(start: 1000, seconds: 300, speed: 3)
        for k in 1...120 { fixes.append(synth.fix(t: 1300 + Double(k), north: Double(k % 3) * 0.1, east: 900 + Double(k % 2) * 0.3)) }
        fixes += synth.run(start: 1421, seconds: 300, speed: 3, from: 903)
        let w = try imported(fixes, .running)
        expectEqual(w.summary.elapsedSeconds, 721)
        expectLess(abs(w.summary.movingSeconds - 600), 12, "\(w.summary.movingSeconds)")
        expectEqual(w.pauseCount, 1)
    }

    /// `recompute --set metrics.autoPauseSeconds=...` reaches an import (it changed nothing).
    @Test func recomputeChangesAnImportsStops() throws {
        var fixes = synth.run(start: 1000, seconds: 300, speed: 3)
        fixes += synth.run(start: 1300 + 40, seconds: 300, speed: 3, from: 902)  // a 40 s stop, 2 m apart
        let w = try imported(fixes, .running)
        expectLess(w.summary.movingSeconds, w.summary.elapsedSeconds - 25)
        var off = MetricsSettings()
        off.autoPauseDelay = nil
        expectEqual(Recomputation(w, settings: off).after.summary.movingSeconds, w.summary.elapsedSeconds)
        var long = MetricsSettings()
        long.autoPauseDelay = 60
        expectEqual(Recomputation(w, settings: long).after.summary.movingSeconds, w.summary.elapsedSeconds, "a 40 s stop is no stop at 60 s")
    }

    /// A steady run recorded live or imported keeps its moving time: no stop invented.
    @Test func aSteadyTrackHasNoStop() throws {
        for activity in [ActivityType.running, .cycling, .hiking, .walking] {
            let v = activity == .cycling ? 6.0 : (activity == .running ? 3 : 1.1)
            let w = try imported(synth.run(start: 1000, seconds: 900, speed: v), activity)
            expectEqual(w.summary.movingSeconds, 900, "\(activity)")
        }
    }

    /// Regression: through gpsd (eph 10-20 m) a 1 Hz run lost 1,338 of 1,553 fixes as jitter; a
    /// fix whose receiver reports a running speed is movement, one that reports none or a
    /// standing speed is still judged by the radius.
    @Test func aReceiverThatSaysItMovesIsNotJitter() {
        func run(speed: Double?) -> (accepted: Int, distance: Double) {
            var f = FixFilter(activity: .running, settings: MetricsSettings(), startedAt: 0)
            var n = 0, d = 0.0
            for k in 0..<200 {
                // A curve: 3 m steps turning 3 degrees each, eph 12 m.
                let a = Double(k) * 3 * .pi / 180
                var fix = synth.fix(t: Double(k + 1), north: 60 * sin(a), east: 60 * (1 - cos(a)), acc: 12)
                fix.speed = speed
                if case .accepted(let m, _) = f.evaluate(fix) { n += 1; d += m }
            }
            return (n, d)
        }
        let moving = run(speed: 3), silent = run(speed: nil), standing = run(speed: 0.2)
        expectGreaterOrEqual(moving.accepted, 197, "\(moving)")
        #expect(silent.accepted < 60 && standing.accepted < 60, "\(silent) \(standing)")
        // The polyline of the accepted fixes (after the 3 of warm-up): chords of 3 degrees.
        let chords = 2 * 60 * sin(1.5 * Double.pi / 180) * Double(moving.accepted - 1)
        expectLess(abs(moving.distance - chords) / chords, 0.002, "\(moving.distance) of \(chords)")
    }

    @Test(.requires(.sharedData)) func sharedOregonTrackStops() throws {
        let track = try Importer.read(SharedData.bytes(SharedData.url("data/gpx/garmin-oregon-700-output.gpx")), fileName: "o.gpx")
        let w = try Importer.workout(from: track, activity: .cycling, id: 1, settings: MetricsSettings(), source: "imported:o.gpx")
        // gpxpy's get_moving_data(): 4,031 s moving of 6,043 s.
        expectLess(abs(w.summary.movingSeconds - 4031) / 4031, 0.05, "\(w.summary.movingSeconds)")
        expectLess(w.summary.movingSeconds, w.summary.elapsedSeconds - 1800)
    }
}
