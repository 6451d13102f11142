import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// Ten minutes of a receiver standing still, in the middle of a run, must add < 20 m.
@Suite struct WorkoutRecorderNoiseTests {
    let synth = TrackSynth()

    /// Offsets (north, east in m, from their mean) and eph of the stationary stretch of
    /// ../shared/data/nmea/nmea-rtk.log.chk (gpsd's TPV output; Trimble, DGPS, 10 Hz): the
    /// fixes before the log's first gap. A real receiver standing still, wandering ~3 m.
    static func realStationaryOffsets() throws -> [(north: Double, east: Double, eph: Double)] {
        let text = try String(contentsOf: SharedData.url("data/nmea/nmea-rtk.log.chk"), encoding: .utf8)
        var seen = Set<String>()
        var raw: [(t: Double, lat: Double, lon: Double, eph: Double)] = []
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("{") {
            guard let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  o["class"] as? String == "TPV", let time = o["time"] as? String, let lat = o["lat"] as? Double,
                  let lon = o["lon"] as? Double, let t = ISO8601.parse(time), !seen.contains(time) else { continue }
            seen.insert(time)
            raw.append((t, lat, lon, o["eph"] as? Double ?? 5))
        }
        raw.sort { $0.t < $1.t }
        var stretch = raw.prefix(1)
        for p in raw.dropFirst() { if p.t - stretch.last!.t > 1 { break }; stretch.append(p) }
        let lat0 = stretch.map(\.lat).reduce(0, +) / Double(stretch.count)
        let lon0 = stretch.map(\.lon).reduce(0, +) / Double(stretch.count)
        let s = TrackSynth(lat0: lat0, lon0: lon0).scale
        return stretch.map { ((($0.lat - lat0) * s.north), (($0.lon - lon0) * s.east), $0.eph) }
    }

    /// run 300 s east at 3 m/s, stand for 600 s with the given offsets, run 300 s more.
    func scenario(standing: [(north: Double, east: Double, acc: Double?)], hz: Double) -> [Fix] {
        var fixes = synth.run(start: 1, seconds: 300, speed: 3)
        for (i, o) in standing.enumerated() {
            fixes.append(synth.fix(t: 301 + Double(i + 1) / hz, north: o.north, east: 900 + o.east, acc: o.acc))
        }
        fixes += synth.run(start: 902, seconds: 300, speed: 3, from: 903)
        return fixes
    }

    func addedDistance(_ standing: [(north: Double, east: Double, acc: Double?)], hz: Double) -> (added: Double, moving: Double) {
        func run(_ fixes: [Fix]) -> WorkoutSummary {
            var r = WorkoutRecorder(id: testID, activity: .running, startedAt: 0)
            for f in fixes { r.tick(now: f.time); r.ingest(f) }
            return r.summary(now: 1202)
        }
        let still = standing.map { _ in (north: 0.0, east: 0.0, acc: Optional(4.0)) }
        let noisy = run(scenario(standing: standing, hz: hz))
        if ProcessInfo.processInfo.environment["METRICS_DEBUG"] != nil {
            var r = WorkoutRecorder(id: testID, activity: .running, startedAt: 0)
            for f in scenario(standing: standing, hz: hz) {
                for e in r.ingest(f) { if case .timeline(let ev) = e { print("  event", ev.kind, ev.time, r.summary(now: f.time).distanceMeters) } }
            }
        }
        let quiet = run(scenario(standing: still, hz: hz))
        return (noisy.distanceMeters - quiet.distanceMeters, noisy.movingSeconds)
    }

    /// Ping-pong over the real stretch until 600 s are covered at 10 Hz.
    static func looped(_ offsets: [(north: Double, east: Double, eph: Double)], amplify: Double) -> [(north: Double, east: Double, acc: Double?)] {
        var out: [(north: Double, east: Double, acc: Double?)] = []
        var i = 0, step = 1
        for _ in 0..<6000 {
            let o = offsets[i]
            out.append((o.north * amplify, o.east * amplify, o.eph * amplify))
            if i + step < 0 || i + step >= offsets.count { step = -step }
            i += step
        }
        return out
    }

    @Test(.requires(.sharedData)) func realStationaryReceiverAddsLessThan20m() throws {
        let offsets = try Self.realStationaryOffsets()
        try #require(offsets.count >= 50, "expected the stationary stretch of nmea-rtk")
        let spread = offsets.map { ($0.north * $0.north + $0.east * $0.east).squareRoot() }.max()!
        for amplify in [1.0, 3.0] {
            let standing = Self.looped(offsets, amplify: amplify)
            var rawPath = 0.0
            for k in 1..<standing.count {
                rawPath += ((standing[k].north - standing[k - 1].north) * (standing[k].north - standing[k - 1].north)
                    + (standing[k].east - standing[k - 1].east) * (standing[k].east - standing[k - 1].east)).squareRoot()
            }
            let r = addedDistance(standing, hz: 10)
            print("nmea-rtk stationary x\(amplify): \(offsets.count) real fixes looped to 6000 (10 min at 10 Hz), max spread \(spread * amplify) m, raw path \(rawPath) m, added \(r.added) m, moving \(r.moving) s")
            expectLess(r.added, 20, "amplified x\(amplify): added \(r.added) m")
            expectLess(r.moving, 700, "the 10 minutes standing must not count as moving (\(r.moving) s)")
        }
    }

    @Test func synthesizedJitterAddsLessThan20m() {
        // Gauss-Markov position error per axis (sigma, correlation time 30 s), 1 Hz, as consumer
        // receivers wander; the receiver reports an accuracy of 1.5 sigma.
        for (seed, sigma) in [(1, 2.0), (2, 3.0), (3, 5.0)] as [(UInt64, Double)] {
            var rng = SeededRandom(seed: seed)
            let beta = exp(-1.0 / 30)
            var n = 0.0, e = 0.0
            var standing: [(north: Double, east: Double, acc: Double?)] = []
            for _ in 0..<600 {
                n = beta * n + sigma * (1 - beta * beta).squareRoot() * rng.gaussian()
                e = beta * e + sigma * (1 - beta * beta).squareRoot() * rng.gaussian()
                standing.append((n, e, 1.5 * sigma))
            }
            let r = addedDistance(standing, hz: 1)
            print("synthetic jitter sigma \(sigma) m: added \(r.added) m, moving \(r.moving) s")
            expectLess(r.added, 20, "sigma \(sigma): added \(r.added) m")
        }
    }
}
