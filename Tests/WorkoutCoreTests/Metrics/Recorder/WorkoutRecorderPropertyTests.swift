import Foundation
import Testing
@testable import WorkoutCore

/// Seeded random workouts: restore == live, distance == accepted polyline, segment breaks.
@Suite struct WorkoutRecorderPropertyTests {
    enum Step { case fix(Fix), tick(Double), pause(Double), resume(Double), lap(Double), marker(Double) }

    /// A messy run: changing speed, stops, signal gaps, noise, bad fixes, pauses, laps, markers.
    static func scenario(seed: UInt64) -> (steps: [Step], end: Double) {
        var rng = SeededRandom(seed: seed)
        let synth = TrackSynth(lat0: Double.random(in: -60...60, using: &rng), lon0: Double.random(in: -179...179, using: &rng))
        var steps: [Step] = []
        var t = 1.0, n = 0.0, e = 0.0, speed = 3.0, heading = 0.0
        var paused = false
        let dt = [0.1, 0.5, 1, 2].randomElement(using: &rng)!
        // Receiver noise: Gauss-Markov per axis, sigma 2 m, correlation time 20 s (as real
        // receivers wander; white noise at 10 Hz would be unlike any receiver).
        var noise = (n: 0.0, e: 0.0)
        let beta = exp(-dt / 20), kick = 2 * (1 - beta * beta).squareRoot()
        while t < 2400 {
            steps.append(.tick(t - dt / 2))
            let u = Double.random(in: 0..<1, using: &rng)
            if paused {
                if u < 0.01 {
                    steps.append(.resume(t + dt / 3)); paused = false
                    // A late fix (receiver behind): stamped before the resume, arriving after it.
                    steps.append(.fix(synth.fix(t: t + dt / 3 - 0.5, north: n, east: e, acc: 4)))
                }
                t += dt; continue
            }
            switch u {
            case ..<0.002: steps.append(.pause(t + dt / 3)); paused = true; t += dt; continue
            case ..<0.004:
                steps.append(.lap(t + dt / 3))
                steps.append(.fix(synth.fix(t: t + dt / 3 - 0.8, north: n, east: e, acc: 4)))  // late, kept as `late`
            case ..<0.005: steps.append(.marker(t + dt / 3))
            case ..<0.007: t += Double.random(in: 5...90, using: &rng)     // signal gap
            case ..<0.02: speed = [0, 0, 1, 2.5, 3, 4, 5.5].randomElement(using: &rng)!
            case ..<0.03: heading += Double.random(in: -1...1, using: &rng)
            default: break
            }
            n += speed * dt * cos(heading); e += speed * dt * sin(heading)
            noise = (beta * noise.n + kick * rng.gaussian(), beta * noise.e + kick * rng.gaussian())
            var f = synth.fix(t: t, north: n + noise.n, east: e + noise.e,
                              alt: 200 + n / 50 + rng.gaussian(), acc: 4, hr: 140 + Int(speed * 5))
            let v = Double.random(in: 0..<1, using: &rng)
            if v < 0.003 { f.latitude = 0; f.longitude = 0 }
            else if v < 0.006 { f.latitude += 0.05 }                        // 5 km jump
            else if v < 0.009 { f.horizontalAccuracy = 120 }
            else if v < 0.011 { f.time -= 3 * dt }                          // out of order
            else if v < 0.012 { f.mode = .noFix }
            steps.append(.fix(f))
            if v > 0.998 { steps.append(.fix(f)) }                           // duplicate
            t += dt
        }
        return (steps, t + 5)
    }

    static func live(_ steps: [Step], settings: MetricsSettings, activity: ActivityType = .running) -> WorkoutRecorder {
        var r = WorkoutRecorder(id: testID, activity: activity, startedAt: 0, settings: settings)
        for s in steps {
            switch s {
            case .fix(let f): r.ingest(f)
            case .tick(let t): r.tick(now: t)
            case .pause(let t): r.pause(at: t, cause: .manual)
            case .resume(let t): r.resume(at: t)
            case .lap(let t): r.lap(at: t)
            case .marker(let t): r.marker(at: t, text: "m\(t)")
            }
        }
        return r
    }

    static func eventKey(_ e: WorkoutEvent) -> String { "\(e.time) \(e.kind.rawValue) \(e.cause?.rawValue ?? "") \(e.text ?? "")" }

    @Test(arguments: 1...24) func restoreEqualsLive(seed: Int) {
        let (steps, end) = Self.scenario(seed: UInt64(seed))
        var settings = MetricsSettings()
        settings.bodyWeightKilograms = 70
        settings.autoLapDistance = seed % 2 == 0 ? 800 : nil
        settings.splitUnit = seed % 3 == 0 ? .mile : .kilometer
        let live = Self.live(steps, settings: settings)
        let saved = live.finish(at: end)
        let rebuilt = WorkoutRecorder.rebuild(id: testID, activity: .running, startedAt: 0, settings: settings,
                                              points: saved.points, events: saved.events)
        let again = rebuilt.finish(at: end)
        expectEqual(again.summary, saved.summary, "seed \(seed)")
        expectEqual(again.points, saved.points)
        expectEqual(again.events.map(Self.eventKey).sorted(), saved.events.map(Self.eventKey).sorted())
        // Also mid-workout, live summary == summary rebuilt from what was saved so far.
        let half = steps.count / 2
        let partial = Self.live(Array(steps[..<half]), settings: settings)
        let p = WorkoutRecorder.rebuild(id: testID, activity: .running, startedAt: 0, settings: settings,
                                        points: partial.points, events: partial.events)
        expectEqual(p.summary(now: 1200), partial.summary(now: 1200), "seed \(seed) half")
    }

    @Test(arguments: 1...24) func distanceIsTheAcceptedPolyline(seed: Int) {
        let (steps, end) = Self.scenario(seed: UInt64(seed))
        let w = Self.live(steps, settings: MetricsSettings()).finish(at: end)
        let s = w.summary
        expectLessOrEqual(Swift.abs(s.distanceMeters - w.points.acceptedLength), 1e-9 * max(1, s.distanceMeters))
        expectEqual(s.pointCount, w.points.count)
        expectEqual(s.acceptedCount + s.rejectedByReason.values.reduce(0, +), s.pointCount)
        expectLessOrEqual(s.movingSeconds, s.elapsedSeconds + 1e-9)
        expectLess(Swift.abs(s.splits.reduce(0) { $0 + $1.distanceMeters } - s.distanceMeters), 1e-6)
        expectLess(Swift.abs(s.laps.reduce(0) { $0 + $1.distanceMeters } - s.distanceMeters), 1e-6)
        expectLessOrEqual(s.maxSpeed, ActivityType.running.maxPlausibleSpeed)
        for b in s.bestEfforts { expectLessOrEqual(b.distanceMeters / b.seconds, s.maxSpeed * 1.5 + 1) }
    }

    /// Breaking a clean track into segments (pause/resume between two fixes) removes exactly the
    /// bridging edges; and chunked delivery (with or without ticks) changes nothing.
    @Test(arguments: 1...16) func segmentsRemoveOnlyTheirBridges(seed: Int) {
        var rng = SeededRandom(seed: UInt64(seed) &* 7919)
        let synth = TrackSynth(lat0: Double.random(in: -70...70, using: &rng), lon0: 0)
        var fixes: [Fix] = []
        var n = 0.0, e = 0.0, heading = 0.0
        for i in 0..<1500 {
            heading += Double.random(in: -0.2...0.2, using: &rng)
            let v = Double.random(in: 6...9, using: &rng)            // every step beyond the radius
            n += v * cos(heading); e += v * sin(heading)
            fixes.append(synth.fix(t: Double(i + 1), north: n, east: e, acc: 3))
        }
        let whole = Self.live(fixes.map { .fix($0) }, settings: MetricsSettings()).finish(at: 1600).summary.distanceMeters
        var steps: [Step] = []
        var removed = 0.0
        for (i, f) in fixes.enumerated() {
            steps.append(.fix(f))
            if i > 5 && i < fixes.count - 1 && Double.random(in: 0..<1, using: &rng) < 0.01 {
                steps.append(.pause(f.time + 0.25)); steps.append(.resume(f.time + 0.5))
                let g = fixes[i + 1]
                removed += Geodesic.wgs84.distance(latitude1: f.latitude, longitude1: f.longitude, latitude2: g.latitude, longitude2: g.longitude)
            }
            if i % 7 == 0 { steps.append(.tick(f.time + 0.9)) }
        }
        let broken = Self.live(steps, settings: MetricsSettings()).finish(at: 1600).summary.distanceMeters
        expectLess(Swift.abs(whole - broken - removed), 1e-6 * whole, "seed \(seed): whole \(whole), broken \(broken), bridges \(removed)")
    }
}
