import Testing
@testable import WorkoutCore

/// `edit --activity`: a saved workout measured again as another activity equals a fresh import
/// of the same fixes as that activity (the only way before was delete and re-import).
struct ImporterEditTests {
    /// A ride at 9 m/s with a walk in the middle: as walking, the fast part is beyond running's
    /// plausible speed and rejected; as cycling, all of it counts.
    func ride() -> Importer.Track {
        let s = TrackSynth()
        var fixes = s.run(start: 1_800_000_000, seconds: 600, speed: 9)
        fixes += s.run(start: 1_800_000_601, seconds: 300, speed: 0.8, from: 5400)
        return Importer.Track(fixes: fixes, segments: Array(repeating: 0, count: 601) + Array(repeating: 1, count: 301), activity: nil, origin: .receiver)
    }

    @Test func editedEqualsAFreshImportAsTheNewActivity() throws {
        let track = ride()
        let asWalking = try Importer.workout(from: track, activity: .walking, id: 7, settings: MetricsSettings(), source: "imported:ride.nmea")
        let asCycling = try Importer.workout(from: track, activity: .cycling, id: 7, settings: MetricsSettings(), source: "imported:ride.nmea")
        expectNotEqual(asWalking.summary, asCycling.summary)
        let edited = Importer.edited(asWalking, activity: .cycling, settings: MetricsSettings())
        expectEqual(edited.summary, asCycling.summary)
        expectEqual(edited.points, asCycling.points)
        #expect(edited.id == asWalking.id && edited.source == "imported:ride.nmea")
        expectEqual(edited.events.filter { $0.kind == .pause }.count, 1, "the file's segment break stays a pause")
    }

    @Test func originOfSource() {
        expectEqual(Importer.origin(ofSource: "imported:a.gpx"), .device)
        expectEqual(Importer.origin(ofSource: "imported:2021.fit.gz (Morning Run)"), .device)
        expectEqual(Importer.origin(ofSource: "imported:drive.nmea"), .receiver)
        expectEqual(Importer.origin(ofSource: "imported:drive.log.gz"), .receiver)
        expectEqual(Importer.origin(ofSource: "recorded"), .receiver)
    }
}
