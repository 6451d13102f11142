import Testing
@testable import WorkoutCore

/// A device's timer stop (FIT timer stop -> start) leaves its time out of the workout but not
/// the distance the device moved meanwhile (the Wahoo ELEMNT file rode 1.6 km across its stops:
/// 79.48 km imported against 81.11 km through its records before this rule); a change of file
/// segment (GPX `trkseg`) still bridges nothing.
struct ImporterDevicePauseTests {
    static let t0 = 1_600_000_000.0
    /// 0, 10 s (55.6 m north), then stopped from 12 to 50 s, 60 s (another 222 m), 70 s (55.6 m).
    static let fixes = [0.0, 0.0005, 0.0025, 0.003].enumerated().map { k, dLat in
        Fix(time: t0 + [0, 10, 60, 70][k], latitude: 47 + dLat, longitude: 8, mode: .threeD)
    }
    static func geodesic(_ a: Fix, _ b: Fix) -> Double {
        Geodesic.wgs84.distance(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
    }
    static let through = zip(fixes, fixes.dropFirst()).map { geodesic($0, $1) }.reduce(0, +)

    @Test func aTimerStopCountsTheDistanceAcrossItButNotItsTime() throws {
        let track = Importer.Track(fixes: Self.fixes, activity: .cycling, origin: .device, format: .fit,
                                   pauses: [Importer.Span(start: Self.t0 + 12, end: Self.t0 + 50)])
        let w = try Importer.workout(from: track, activity: nil, id: 1, settings: MetricsSettings(), source: "imported:ride.fit")
        expectLess(abs(w.summary.distanceMeters - Self.through), 1e-6)
        // The timer leaves the stop out; elapsed is the wall span (issue 39 item 3).
        expectLess(abs(w.summary.timerSeconds - (70 - 38)), 0.01)
        expectEqual(w.summary.elapsedSeconds, 70)
        expectEqual(w.summary.acceptedCount, 4)
        #expect(w.events.contains { $0.kind == .pause && $0.cause == .device })
        expectEqual(Set(w.points.map(\.segment)), [0])
        // Rebuilt from the saved points and events (edit --activity): the same distance.
        let edited = Importer.edited(w, activity: .running, settings: MetricsSettings())
        expectLess(abs(edited.summary.distanceMeters - Self.through), 1e-6)
        expectLess(abs(edited.summary.timerSeconds - w.summary.timerSeconds), 0.01)
        // Saved and loaded: the cause survives, so the rebuild after a load is the same.
        let loaded = try WorkoutFile.decode(WorkoutFile.encode(w))
        expectEqual(loaded.events, w.events)
        expectLess(abs(Importer.edited(loaded, activity: .cycling, settings: MetricsSettings()).summary.distanceMeters - Self.through), 1e-6)
    }

    @Test func aFileSegmentChangeStillBridgesNothing() throws {
        let track = Importer.Track(fixes: Self.fixes, segments: [0, 0, 1, 1], activity: .cycling, origin: .device, format: .gpx)
        let w = try Importer.workout(from: track, activity: nil, id: 1, settings: MetricsSettings(), source: "")
        let expected = Self.geodesic(Self.fixes[0], Self.fixes[1]) + Self.geodesic(Self.fixes[2], Self.fixes[3])
        expectLess(abs(w.summary.distanceMeters - expected), 1e-6)
        #expect(w.events.contains { $0.kind == .pause && $0.cause == .manual })
    }
}
