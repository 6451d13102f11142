import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// Issue 39 item 1: a GPS catch-up set the records. A ride's receiver, after losing the sky,
/// drew a straight, steady line of 640 m in 25 s on the flat from 6 km/h: max speed 101 km/h,
/// best 400 m 0:14. The 10 s straight-line bound could not catch it: the line is straight.
struct PlausibilityCheckTests {
    static let synth = TrackSynth()
    static let start = 1_800_000_000.0

    /// A GPX file of `legs` (seconds, m/s) driven east one fix a second on the flat (500 m), with
    /// a `gap` of seconds without fixes before the leg whose index is `gapBefore`.
    static func gpx(_ legs: [(seconds: Int, speed: Double)], gapBefore: Int? = nil, gap: Int = 0, type: String? = nil) -> [UInt8] {
        var x = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk>"
        if let type { x += "<type>\(type)</type>" }
        x += "<trkseg>\n"
        var t = 0, east = 0.0
        func point() {
            let (la, lo) = synth.position(north: 0, east: east)
            x += "<trkpt lat=\"\(la)\" lon=\"\(lo)\"><ele>500</ele><time>\(ISO8601.format(start + Double(t)))</time></trkpt>\n"
        }
        point()
        for (k, leg) in legs.enumerated() {
            if k == gapBefore { t += gap }
            for _ in 0..<leg.seconds { t += 1; east += leg.speed; point() }
        }
        return Array((x + "</trkseg></trk></gpx>\n").utf8)
    }

    /// A ride: 10 min at 30 km/h, a 20 s sprint at 47 km/h, 2 min at 6 km/h, a tunnel (40 s
    /// without a fix), the receiver's catch-up (640 m in 25 s), then 6 km/h and 10 min at 25 km/h.
    static let tunnelRide = gpx([(600, 8.33), (20, 13.0), (120, 1.67), (25, 25.6), (30, 1.67), (600, 6.94)], gapBefore: 3, gap: 40)

    static func imported(_ bytes: [UInt8], activity: ActivityType?) throws -> ImportedWorkout {
        let track = try Importer.read(bytes, fileName: "ride.gpx")
        return try Importer.imported(from: track, activity: activity, id: 1, settings: MetricsSettings(), source: "imported:ride.gpx")
    }

    @Test func aCatchUpAfterATunnelSetsNoRecord() throws {
        let w = try Self.imported(Self.tunnelRide, activity: .cycling)
        let s = w.workout.summary
        print("tunnel ride: max \(s.maxSpeed * 3.6) km/h, efforts \(s.bestEfforts.map { ($0.distanceMeters, $0.seconds) }), stretches \(s.implausible)")
        // Kept in the track: the distance is the file's.
        expectGreater(s.distanceMeters, 600 * 8.33 + 640)
        // The catch-up is named: when, how long, how fast.
        let catchUp = Self.start + 600 + 20 + 120 + 40
        let x = try #require(s.implausible.first, "\(s.implausible)")
        expectEqual(s.implausible.count, 1, "\(s.implausible)")
        expectLess(abs(x.start - catchUp), 2.5, "starts at the line")
        expectGreater(x.seconds, 24)
        expectGreater(x.meters, 600)
        expectGreater(x.speed * 3.6, 90)
        #expect(w.warnings.contains { $0.hasPrefix("implausible stretch at \(ISO8601.format(x.start))") && $0.contains("km/h") }, "\(w.warnings)")
        #expect(s.warnings.contains { $0.hasPrefix("implausible stretch") }, "show names it too")
        // Never counted: max speed is the sprint's, best efforts are the ride's own.
        expectLess(s.maxSpeed * 3.6, 47.5, "the sprint at 46.8 km/h, not the catch-up's 92")
        let best400 = try #require(s.bestEfforts.first { $0.distanceMeters == 400 })
        expectGreater(best400.seconds, 400 / 13.0 - 0.5, "not 0:14")
        let best1k = try #require(s.bestEfforts.first { $0.distanceMeters == 1000 })
        expectGreater(best1k.seconds, 1000 / 13.0, "the catch-up counts no metre")
        // In the saved summary's JSON, both writers alike, and read back.
        let o = s.json()
        expectEqual(o["implausible"]?.arrayValue?.count, 1)
        #expect(o["implausible"]?.arrayValue?.first?["reason"]?.stringValue.flatMap(ImplausibleReason.init(rawValue:)) != nil)
        expectEqual(WorkoutSummary(json: o)?.implausible, s.implausible.map { ImplausibleStretch(json: $0.json())! })
        var writer = JSONWriter()
        var cache = SummaryJSONCache()
        s.writeJSON(to: &writer, cache: &cache)
        expectEqual(String(decoding: writer.bytes, as: UTF8.self), o.serialized())
    }

    @Test func theSameRideWithoutTheCatchUpHasNoStretch() throws {
        let ride = Self.gpx([(600, 8.33), (20, 13.0), (120, 1.67), (30, 1.67), (600, 6.94)], gapBefore: 3, gap: 40)
        let s = try Self.imported(ride, activity: .cycling).workout.summary
        #expect(s.implausible.isEmpty, "\(s.implausible)")
        expectGreater(s.maxSpeed * 3.6, 46)
    }

    /// A catch-up slower than the flat top speed (60 km/h from a stop), caught by the reach from
    /// the speed before alone.
    @Test func aCatchUpFromAStopIsBeyondReachHoweverStraight() throws {
        let ride = Self.gpx([(300, 7.0), (60, 0), (30, 16.7), (300, 7.0)])
        let s = try Self.imported(ride, activity: .cycling).workout.summary
        let x = try #require(s.implausible.first, "\(s.implausible)")
        expectEqual(x.reason, .acceleration)
        expectLess(abs(x.start - (Self.start + 360)), 2.5)
        expectGreater(x.seconds, 25)
        expectLess(s.maxSpeed, 8, "the ride's own 25 km/h")
    }

    /// Issue 39: an implausible stretch "never counts in ... split and lap pace". A ride at
    /// 25 km/h stops for a minute at 2.1 km and its receiver then catches up 500 m in 30 s
    /// (60 km/h from a stop), inside the third kilometre. Before, that split read 1.00 km in
    /// 1:41 moving, 35.6 km/h, and the one lap 27 km/h; now both keep their distance and time
    /// but their pace is the ride's own 25 km/h, imported, recorded live and rebuilt alike.
    @Test func aCatchUpInsideASplitLeavesItsPaceAlone() throws {
        let legs: [(seconds: Int, speed: Double)] = [(300, 7.0), (60, 0), (30, 16.7), (300, 7.0)]
        let imported = try Self.imported(Self.gpx(legs), activity: .cycling).workout.summary
        // The same fixes recorded live, and that recording rebuilt from its points and events.
        var live = WorkoutRecorder(id: testID, activity: .cycling, startedAt: Self.start)
        var t = Self.start, east = 0.0
        live.ingest(Self.synth.fix(t: t, north: 0, east: east, alt: 500))
        for leg in legs {
            for _ in 0..<leg.seconds { t += 1; east += leg.speed; live.ingest(Self.synth.fix(t: t, north: 0, east: east, alt: 500)) }
        }
        let recorded = live.finish(at: t)
        let rebuilt = WorkoutRecorder.recompute(id: testID, activity: .cycling, startedAt: Self.start, endedAt: t,
                                                points: Array(recorded.points), events: recorded.events).summary
        for (path, s) in [("imported", imported), ("live", recorded.summary), ("rebuilt", rebuilt)] {
            let x = try #require(s.implausible.first, "\(path): \(s.implausible)")
            expectEqual(x.reason, .acceleration, "\(path)")
            let third = try #require(s.splits.count > 2 ? s.splits[2] : nil, "\(path): \(s.splits.count) splits")
            print("\(path): split 3 \(third.distanceMeters) m, moving \(third.movingSeconds) s, left out \(third.implausibleMeters) m in \(third.implausibleSeconds) s, pace speed \(third.paceSpeed * 3.6) km/h (all in: \(third.distanceMeters / third.movingSeconds * 3.6))")
            // The row keeps its kilometre and its moving time (the catch-up's seconds in it).
            expectLess(abs(third.distanceMeters - 1000), 1e-6, "\(path)")
            expectGreater(third.distanceMeters / third.movingSeconds, 8.5, "\(path): all in, the catch-up makes it 35 km/h")
            expectGreater(third.implausibleMeters, 450, "\(path)")
            expectLess(abs(third.paceSpeed - 7.0), 0.35, "\(path): the ride's own 25 km/h")
            for (k, sp) in s.splits.enumerated() where k != 2 {
                expectEqual(sp.implausibleMeters, 0, "\(path): split \(k + 1) has no stretch")
                expectEqual(sp.paceSpeed, sp.distanceMeters / sp.movingSeconds, "\(path)")
            }
            let lap = try #require(s.laps.last)
            expectLess(abs(lap.paceSpeed - 7.0), 0.35, "\(path): the lap's pace, \(lap.distanceMeters / lap.movingSeconds * 3.6) km/h all in")
            // Both writers write it, and it reads back.
            let o = third.json()
            expectEqual(LapSummary(json: o), LapSummary(json: third.json()))
            expectLess(abs((LapSummary(json: o)?.implausibleMeters ?? 0) - third.implausibleMeters), 1e-3)
            var w = JSONWriter()
            third.writeJSON(to: &w)
            expectEqual(String(decoding: w.bytes, as: UTF8.self), o.serialized())
        }
    }

    /// A drive (32 km/h, up to 45) imported as a run on purpose: kept as named, but no effort
    /// faster than the world's best at its distance stands.
    @Test func aDriveNamedARunSetsNoRecord() throws {
        let drive = Self.gpx([(60, 8.0), (40, 12.4), (120, 8.9), (30, 3), (120, 8.9)])
        let w = try Self.imported(drive, activity: .running)
        let s = w.workout.summary
        expectEqual(s.activity, .running)
        let bounds = ActivityType.running.plausibility
        for e in s.bestEfforts { expectGreaterOrEqual(e.seconds, bounds.fastestSeconds(meters: e.distanceMeters)) }
        #expect(!s.bestEfforts.contains { $0.distanceMeters == 400 || $0.distanceMeters == 1000 }, "\(s.bestEfforts)")
        #expect(s.implausible.contains { $0.reason == .record }, "\(s.implausible)")
        #expect(PersonalRecords.bests(of: s, among: []).allSatisfy { $0.effort.seconds >= bounds.fastestSeconds(meters: $0.effort.distanceMeters) })
    }

    @Test func boundsAndReach() {
        let run = ActivityType.running.plausibility
        expectEqual(run.fastestSeconds(meters: 1000), 131.96)
        expectEqual(run.fastestSeconds(meters: 400), 43.03)
        let ride = ActivityType.cycling.plausibility
        expectEqual(ride.topSpeed(meters: 1000, fall: nil), ride.flatSpeed)
        expectEqual(ride.topSpeed(meters: 1000, fall: 30), ride.descentSpeed)
        expectEqual(ride.topSpeed(meters: 1000, fall: 10), ride.flatSpeed, "1 % is the flat")
        expectEqual(PlausibilityCheck.reach(from: 0, seconds: 2, acceleration: 1.5, top: 20), 3)
        expectEqual(PlausibilityCheck.reach(from: 20, seconds: 2, acceleration: 1.5, top: 20), 40)
        expectEqual(PlausibilityCheck.reach(from: 17, seconds: 4, acceleration: 1.5, top: 20), 17 * 2 + 3 + 40)
    }

    /// Every activity file under ../shared/data (corpus included): no max speed above its
    /// activity's top speed, no best effort faster than its bounds; the stretches found, printed.
    @Test(.requires(.sharedData))
    func theSharedFilesHaveNoFigureBeyondTheirBounds() throws {
        var files: [URL] = []
        for folder in ["data/gpx", "data/tcx", "data/fit", "data/corpus/gpx", "data/corpus/tcx", "data/corpus/fit"] {
            for ext in ["gpx", "tcx", "fit"] { files += SharedData.files(in: folder, ext: ext) }
        }
        var workouts = 0, stretches = 0
        for url in files {
            guard let tracks = try? Importer.readAll(try SharedData.bytes(url), fileName: url.lastPathComponent) else { continue }
            for track in tracks {
                guard let w = try? Importer.imported(from: track, activity: nil, id: 1, settings: MetricsSettings(), source: "imported:" + url.lastPathComponent)
                else { continue }
                let s = w.workout.summary
                let b = s.activity.plausibility
                workouts += 1
                stretches += s.implausible.count
                if !s.implausible.isEmpty {
                    print("\(url.lastPathComponent) (\(s.activity.rawValue)): " + s.implausible.map { "\(Int($0.seconds)) s \(Int($0.meters)) m up to \(Int(($0.speed * 3.6).rounded())) km/h (\($0.reason.rawValue))" }.joined(separator: "; "))
                }
                if s.activity.supportsGPS && s.distanceSource == .gps {
                    expectLessOrEqual(s.maxSpeed, b.descentSpeed + 1e-9, "\(url.lastPathComponent): max \(s.maxSpeed)")
                }
                for e in s.bestEfforts { expectGreaterOrEqual(e.seconds, b.fastestSeconds(meters: e.distanceMeters) * (1 - 1e-9), "\(url.lastPathComponent)") }
            }
        }
        print("shared files: \(files.count) files, \(workouts) workouts, \(stretches) implausible stretches")
        expectGreater(workouts, 30)
    }
}
