import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// Regression: an untyped file became `defaultActivity` (running): a 2.7 km drive landed in
/// running records and streaks ("Running 3:08 /km"). Its speeds now decide, with the reason.
struct ActivityInferenceTests {
    let synth = TrackSynth()

    func guess(_ speed: Double, seconds: Double = 900, climbPerStep: Double = 0) -> ActivityInference? {
        var fixes = synth.run(start: 1000, seconds: seconds, speed: speed)
        for k in fixes.indices { fixes[k].altitude = Double(k) * climbPerStep }
        return ActivityInference(fixes: fixes, segments: Array(repeating: 0, count: fixes.count))
    }

    @Test func speedsSayWhatItWas() {
        expectEqual(guess(1.3)?.activity, .walking)
        expectEqual(guess(0.9, climbPerStep: 0.08)?.activity, .hiking, "0.9 m/s climbing 89 m per km")
        expectEqual(guess(3.2)?.activity, .running)
        expectEqual(guess(6.5)?.activity, .cycling)
        expectEqual(guess(15.5)?.activity, .other, "a drive")
        expectEqual(guess(15.5)?.reason.contains("motor vehicle"), true)
        expectEqual(guess(3.2)?.reason.hasPrefix("no activity in the file; it moves at 12 km/h"), true, "\(guess(3.2)?.reason ?? "")")
        expectNil(guess(3.2, seconds: 8), "a few points: too little to tell")
        expectEqual(guess(3.2, seconds: 40)?.activity, .running, "40 s at 12 km/h can tell")
        expectEqual(guess(1.3, seconds: 240)?.activity, .walking)
        expectEqual(guess(15.5, seconds: 90)?.activity, .other, "a motor vehicle shows itself in a minute")
        expectEqual(guess(2.9, seconds: 300)?.activity, .running)
        expectNil(guess(0.2), "standing still")
    }

    @Test func anUntypedDriveIsNotARun() throws {
        let drive = Importer.Track(fixes: synth.run(start: 1000, seconds: 180, speed: 20), activity: nil, origin: .device)  // 72 km/h
        let w = try Importer.imported(from: drive, activity: nil, defaultActivity: .running, id: 1, settings: MetricsSettings(), source: "imported:d.gpx")
        expectEqual(w.workout.activity, .other)
        #expect(w.warnings.contains { $0.contains("motor vehicle") }, "\(w.warnings)")
        let named = try Importer.imported(from: drive, activity: .cycling, defaultActivity: .running, id: 1, settings: MetricsSettings(), source: "imported:d.gpx")
        #expect(named.workout.activity == .cycling && !named.warnings.contains { $0.hasPrefix("no activity") }, "the user's word wins, no guess")
        let short = Importer.Track(fixes: synth.run(start: 1000, seconds: 6, speed: 3), activity: nil, origin: .device)
        let fallback = try Importer.imported(from: short, activity: nil, defaultActivity: .walking, id: 1, settings: MetricsSettings(), source: "imported:s.gpx")
        expectEqual(fallback.workout.activity, .walking)
        #expect(fallback.warnings.contains { $0.contains("too little movement") })
    }

    /// Issue 39 item 2: an untyped 2.7 km drive (32 km/h moving, 45 km/h at most, stops at
    /// lights, a fix every 5 s) imported as running, "too little movement to tell": pace
    /// 1:30/km, records 400 m 0:15 and 1 km 0:47. A cut FIT ride (a minute at 29.5 km/h) became
    /// a 2:02/km run.
    @Test func aShortDriveOrACutRideIsNeverARun() throws {
        var fixes: [Fix] = []
        var t = 1000.0, east = 0.0
        for leg in [(60.0, 8.0), (30, 0), (50, 12.5), (30, 0), (120, 9.2), (25, 0), (60, 8.5)] {
            for _ in stride(from: 0.0, to: leg.0, by: 5) { fixes.append(synth.fix(t: t, north: 0, east: east)); t += 5; east += 5 * leg.1 }
        }
        expectLess(abs(east - 2700), 100)
        let drive = Importer.Track(fixes: fixes, activity: nil, origin: .device)
        let w = try Importer.imported(from: drive, activity: nil, defaultActivity: .running, id: 1, settings: MetricsSettings(), source: "imported:d.gpx")
        #expect(w.workout.activity != .running, "\(w.warnings)")
        #expect(w.warnings.contains { $0.hasPrefix("no activity in the file; it moves at") }, "\(w.warnings)")
        let cut = Importer.Track(fixes: synth.run(start: 1000, seconds: 60, speed: 8.2), activity: nil, origin: .device)
        let ride = try Importer.imported(from: cut, activity: nil, defaultActivity: .running, id: 1, settings: MetricsSettings(), source: "imported:c.fit")
        expectEqual(ride.workout.activity, .cycling, "\(ride.warnings)")
    }

    /// Named a run on purpose, the drive stays a run, with a warning, and sets no record.
    @Test func aDriveNamedARunIsKeptWithAWarning() throws {
        let drive = Importer.Track(fixes: synth.run(start: 1000, seconds: 300, speed: 8.9), activity: nil, origin: .device)
        let w = try Importer.imported(from: drive, activity: .running, id: 1, settings: MetricsSettings(), source: "imported:d.gpx")
        expectEqual(w.workout.activity, .running)
        #expect(w.warnings.contains { $0.hasPrefix("named running, but it moves at 32 km/h median") && $0.contains("kept as running") }, "\(w.warnings)")
        let bounds = ActivityType.running.plausibility
        #expect(w.workout.summary.bestEfforts.allSatisfy { $0.seconds >= bounds.fastestSeconds(meters: $0.distanceMeters) }, "\(w.workout.summary.bestEfforts)")
        #expect(!w.workout.summary.bestEfforts.contains { $0.distanceMeters == 1000 || $0.distanceMeters == 1609.344 },
                "1 km in 1:52 and a mile in 3:01 are faster than anyone ran")
        let walk = Importer.Track(fixes: synth.run(start: 1000, seconds: 300, speed: 1.3), activity: nil, origin: .device)
        let named = try Importer.imported(from: walk, activity: .running, id: 1, settings: MetricsSettings(), source: "imported:w.gpx")
        #expect(!named.warnings.contains { $0.hasPrefix("named") }, "slower than named is no contradiction")
    }

    /// A city route of stops and runs: `legs` of (stop s, top m/s, cruise s), getting going at
    /// `accel` m/s², braking at 3 m/s², a fix every `dt` s.
    func stopAndGo(_ legs: [(stop: Double, top: Double, cruise: Double)], accel: Double, dt: Double = 1) -> [Fix] {
        var samples: [(t: Double, x: Double)] = []
        var t = 0.0, x = 0.0, v = 0.0
        let h = 0.1
        func run(_ seconds: Double, _ a: Double) {
            var s = 0.0
            while s < seconds { v = max(0, v + a * h); x += v * h; t += h; s += h; samples.append((t, x)) }
        }
        for leg in legs {
            run(leg.stop, 0)
            run(leg.top / accel, accel)
            v = leg.top
            run(leg.cruise, 0)
            run(leg.top / 3, -3)
            v = 0
        }
        var out: [Fix] = []
        var next = 0.0
        for p in samples where p.t >= next { out.append(synth.fix(t: 1000 + p.t, north: 0, east: p.x)); next += dt }
        return out
    }

    static let city: [(stop: Double, top: Double, cruise: Double)] = [(5, 12.5, 60), (25, 11, 40), (30, 12.5, 50), (20, 9, 30), (25, 12, 60), (15, 10, 40)]

    /// Issue 39 item 2: a drive in town (43 km/h median, 45 at most, six stops) has a ride's
    /// speeds, and imported as cycling. A car leaves the lights at 2-2.5 m/s²: 4-5 of its 6
    /// starts go beyond the 58 m a rider covers in 8 s from a standstill (1.5 m/s²), so it is
    /// other, "likely a motor vehicle". The same route ridden (to 29 km/h at 1.2 or 1.5 m/s²)
    /// stays a ride: none of its starts does.
    @Test func aStopAndGoDriveIsAMotorVehicle() throws {
        for accel in [2.0, 2.5] {
            let fixes = stopAndGo(Self.city, accel: accel)
            let g = try #require(ActivityInference(fixes: fixes, segments: Array(repeating: 0, count: fixes.count)))
            expectEqual(g.activity, .other, "\(accel) m/s²: \(g.reason)")
            #expect(g.reason.contains("starts from a stop go farther than a rider does") && g.reason.contains("likely a motor vehicle"), "\(g.reason)")
            let w = try Importer.imported(from: Importer.Track(fixes: fixes, activity: nil, origin: .device), activity: nil, defaultActivity: .running,
                                          id: 1, settings: MetricsSettings(), source: "imported:drive.gpx")
            expectEqual(w.workout.activity, .other)
        }
        for accel in [1.2, 1.5] {
            let ride = stopAndGo(Self.city.map { ($0.stop, 8.0, $0.cruise) }, accel: accel)
            var steps = ActivityInference.Steps()
            for f in ride { steps.add(f, segment: 0) }
            expectEqual(steps.guess?.activity, .cycling, "\(accel) m/s²")
            expectEqual(steps.launches.beyondARider, 0)
            expectEqual(steps.launches.launches, 6)
        }
    }

    /// The launch rule changes no shared file: every activity file under ../shared/data, as if
    /// it named no activity, gets going like a rider (one start beyond one in all: the only
    /// start of a MapMyRide ride), so its guess is the speeds' alone. The ELEMNT ride's 53 starts, an Edge
    /// 500's 33: none.
    @Test(.requires(.sharedData))
    func noSharedFileGetsGoingLikeAMotorVehicle() throws {
        var files: [URL] = []
        for folder in ["data/gpx", "data/tcx", "data/fit", "data/corpus/gpx", "data/corpus/tcx", "data/corpus/fit", "data/nmea"] {
            for ext in ["gpx", "tcx", "fit", "log"] { files += SharedData.files(in: folder, ext: ext) }
        }
        var tracks = 0, launches = 0
        for url in files {
            guard let read = try? Importer.readAll(try SharedData.bytes(url), fileName: url.lastPathComponent) else { continue }
            for t in read {
                var steps = ActivityInference.Steps()
                for (f, s) in zip(t.fixes, t.segments) { steps.add(f, segment: s) }
                tracks += 1
                launches += steps.launches.launches
                #expect(!steps.launches.likeAMotorVehicle, "\(url.lastPathComponent): \(steps.launches.beyondARider) of \(steps.launches.launches) starts beyond a rider")
                if let g = steps.guess { #expect(!g.reason.contains("starts from a stop"), "\(url.lastPathComponent)") }
            }
        }
        print("shared tracks: \(tracks), \(launches) starts from a stop")
        expectGreater(launches, 200)
    }

    /// The median and 95th percentile found by selection are the sorted speeds' values at
    /// those places, for every count from 1 to 300 and for ties (whole speeds, one speed repeated).
    @Test func quantilesBySelectionAreTheSortedOnes() {
        var rng = SystemRandomNumberGenerator()
        var samples: [[Double]] = []
        for n in 1...300 {
            samples.append((0..<n).map { _ in Double.random(in: 0.5...60, using: &rng) })
            samples.append((0..<n).map { _ in Double(Int.random(in: 1...5, using: &rng)) })
        }
        samples.append(Array(repeating: 3.25, count: 1000))
        samples.append((0..<5000).map { Double($0) })
        samples.append((0..<5000).map { Double(5000 - $0) })
        for speeds in samples {
            let sorted = speeds.sorted(), n = speeds.count
            let (median, p95) = ActivityInference.quantiles(speeds)
            #expect(median == sorted[n / 2] && p95 == sorted[min(n - 1, Int((Double(n) * 0.95).rounded(.down)))], "\(speeds)")
        }
    }
}
