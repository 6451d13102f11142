import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// Issue 18: an imported track is what happened. A device's track far faster than its activity
/// keeps its distance and says so; times that run backwards are not reordered into a path
/// nobody travelled and are named; a file without a type takes the configured default activity.
@Suite(.requires(.sharedData))
struct ImportWarningsTests {
    static func track(_ path: String) throws -> Importer.Track {
        try Importer.read(try SharedData.bytes(SharedData.url("data/" + path)), fileName: String(path.split(separator: "/").last!))
    }

    /// The Garmin Oregon 700 track (a ride: 20.6 km/h median) imported as hiking kept 1.56 of
    /// its 22.24 km (850 segment events) without a word.
    @Test func aRideImportedAsAHikeKeepsItsDistanceAndSaysSo() throws {
        let t = try Self.track("gpx/garmin-oregon-700-output.gpx")
        let asRecorded = try Importer.imported(from: t, activity: nil, id: 1, settings: MetricsSettings(), source: "imported:o.gpx")
        let hike = try Importer.imported(from: t, activity: .hiking, id: 1, settings: MetricsSettings(), source: "imported:o.gpx")
        let s = hike.workout.summary
        print("oregon as hiking: \(s.distanceMeters) m (as recorded \(asRecorded.workout.summary.distanceMeters) m), warnings \(hike.warnings)")
        expectEqual(hike.workout.activity, .hiking)
        expectLess(abs(s.distanceMeters - asRecorded.workout.summary.distanceMeters), 1e-6)
        expectLess(abs(s.distanceMeters - 22_235), 5)
        #expect(hike.workout.events.filter { $0.kind == .segment }.isEmpty)
        #expect(s.rejectedByReason.isEmpty)
        // One warning for the whole track, then its stretches beyond hiking (issue 39: named, kept,
        // and no record from what a hiker cannot do).
        expectEqual(hike.warnings.filter { !$0.contains("implausible stretch") }.count, 1, "\(hike.warnings)")
        #expect(!s.implausible.isEmpty)
        #expect(s.bestEfforts.allSatisfy { $0.seconds >= $0.distanceMeters / ActivityType.hiking.plausibility.flatSpeed }, "\(s.bestEfforts)")
        let w = hike.warnings.first ?? ""
        #expect(w.contains("moves at 21 km/h median") && w.contains("hiking") && w.contains("likely cycling") && w.contains("22.24 km"), "\(w)")
        // Named nothing, it is judged by its speeds: a ride, said once.
        expectEqual(asRecorded.workout.activity, .cycling)
        #expect(asRecorded.warnings.count == 1 && asRecorded.warnings[0].contains("like a ride"), "\(asRecorded.warnings)")
        // Edited to hiking later (recomputed from the saved points): the same distance.
        let edited = Importer.edited(asRecorded.workout, activity: .hiking, settings: MetricsSettings())
        expectLess(abs(edited.summary.distanceMeters - s.distanceMeters), 1e-6)
    }

    /// A walk-paced hike (the GlobalSat track, 9.8 km/h median) and rides named as rides say nothing.
    @Test func tracksWithinTheirActivitySayNothing() throws {
        let hike = try Importer.imported(from: try Self.track("gpx/globalsat_gh625XT.gpx"), activity: .hiking, id: 1,
                                         settings: MetricsSettings(), source: "imported:g.gpx")
        #expect(hike.warnings.isEmpty, "\(hike.warnings)")
        let ride = try Importer.imported(from: try Self.track("tcx/bike.tcx"), activity: nil, id: 1, settings: MetricsSettings(), source: "imported:b.tcx")
        #expect(ride.workout.activity == .cycling && ride.warnings.isEmpty, "\(ride.warnings)")
    }

    /// The Edge 800 ride (25.16 km, 8 segments) with the clock of its second segment stepping
    /// back 5 minutes halfway: sorting by time zigzagged between the two halves (far more
    /// distance than the ride). File order is kept, the fixes stamped before the step are
    /// out of order, and the result says times run backwards.
    @Test func timesRunningBackwardsKeepFileOrderAndSaySo() throws {
        let text = try String(contentsOf: SharedData.url("data/gpx/garmin-edge-800-output.gpx"), encoding: .utf8)
        var parts = text.components(separatedBy: "<trkseg>")
        try #require(parts.count == 9)
        // Segment 2 is parts[2]: shift the times of its second half back by 300 s.
        var lines = parts[2].components(separatedBy: "\n")
        let timeLines = lines.indices.filter { lines[$0].contains("<time>") }
        for k in timeLines.dropFirst(timeLines.count / 2) {
            let line = lines[k]
            let a = try #require(line.range(of: "<time>")), b = try #require(line.range(of: "</time>"))
            let t = try #require(ISO8601.parse(line[a.upperBound..<b.lowerBound]))
            lines[k] = String(line[..<a.upperBound]) + ISO8601.format(t - 300) + String(line[b.lowerBound...])
        }
        parts[2] = lines.joined(separator: "\n")
        let shifted = Array(parts.joined(separator: "<trkseg>").utf8)
        let original = try Importer.workout(from: try Self.track("gpx/garmin-edge-800-output.gpx"), activity: nil, id: 1,
                                            settings: MetricsSettings(), source: "imported:e.gpx")
        let t = try Importer.read(shifted, fileName: "edge-shifted.gpx")
        let r = try Importer.imported(from: t, activity: nil, id: 1, settings: MetricsSettings(), source: "imported:e.gpx")
        let s = r.workout.summary
        print("edge 800 with a backward step: \(s.distanceMeters) m (file as recorded \(original.summary.distanceMeters) m), rejected \(s.rejectedByReason), warnings \(r.warnings)")
        expectLessOrEqual(s.distanceMeters, original.summary.distanceMeters + 1e-6, "no zigzag: \(s.distanceMeters) vs \(original.summary.distanceMeters)")
        expectGreater(s.distanceMeters, 0.9 * original.summary.distanceMeters)
        expectEqual(s.pointCount, t.fixes.count)
        // The points are recorded in file order.
        expectEqual(r.workout.points.map(\.fix.time), t.fixes.map(\.time))
        let out = s.rejectedByReason[.outOfOrder, default: 0]
        expectGreater(out, 100)
        let said = r.warnings.filter { !$0.hasPrefix("no activity in the file") }  // the activity guess is said too
        expectEqual(said.count, 1)
        #expect((said.first ?? "").contains("times run backwards once inside a segment (first in segment 2")
                && (said.first ?? "").contains("\(out) fixes stamped before an earlier one"), "\(r.warnings)")
        // The file as recorded has no warning.
        let clean = try Importer.imported(from: try Self.track("gpx/garmin-edge-800-output.gpx"), activity: nil, id: 1,
                                          settings: MetricsSettings(), source: "imported:e.gpx")
        #expect(clean.warnings.allSatisfy { $0.hasPrefix("no activity in the file") }, "\(clean.warnings)")
    }

    /// A second segment stamped before the first: segments are taken by their start times, every
    /// fix counts, and the result says the segments were out of order.
    @Test func aSegmentStampedBeforeTheOneBeforeItIsTakenInTimeOrder() throws {
        let t = try Self.track("gpx/globalsat_gh625XT.gpx")
        var moved = t
        let firstOfSecond = try #require(t.segments.firstIndex(of: t.segments.last!))
        let back = t.fixes[firstOfSecond].time - t.fixes[0].time + 3600
        for i in firstOfSecond..<t.fixes.count { moved.fixes[i].time -= back }
        let a = try Importer.imported(from: t, activity: nil, id: 1, settings: MetricsSettings(), source: "imported:g.gpx")
        let b = try Importer.imported(from: moved, activity: nil, id: 1, settings: MetricsSettings(), source: "imported:g.gpx")
        expectLess(abs(a.workout.summary.distanceMeters - b.workout.summary.distanceMeters), 1e-6)
        expectNil(b.workout.summary.rejectedByReason[.outOfOrder])
        let said = b.warnings.filter { !$0.hasPrefix("no activity in the file") }
        #expect(said.count == 1 && (said.first ?? "").contains("segment 2 starts before the segment before it ends"), "\(b.warnings)")
    }

    /// A file that names no activity (GPX 1.0, NMEA) is judged by its speeds, and takes the
    /// default given (the configured `defaultActivity`) only when they say nothing; one that
    /// names it (GPX `<type>`, TCX Sport) keeps its own.
    @Test func theDefaultActivityAppliesOnlyWhenTheFileNamesNone() throws {
        let oregon = try Importer.workout(from: try Self.track("gpx/garmin-oregon-700-output.gpx"), activity: nil, defaultActivity: .walking,
                                          id: 1, settings: MetricsSettings(), source: "imported:o.gpx")
        expectEqual(oregon.activity, .cycling, "a ride at 21 km/h median, whatever the default")
        var short = try Self.track("nmea/bundg_zeus_9.log")
        short.fixes = Array(short.fixes.prefix(20)); short.segments = Array(short.segments.prefix(20))
        let nmea = try Importer.workout(from: short, activity: nil, defaultActivity: .walking,
                                        id: 1, settings: MetricsSettings(), source: "imported:b.log")
        expectEqual(nmea.activity, .walking, "20 s of fixes say nothing: the default")
        let typed = try Importer.workout(from: try Self.track("gpx/garminconnect.gpx"), activity: nil, defaultActivity: .walking,
                                         id: 1, settings: MetricsSettings(), source: "imported:c.gpx")
        expectEqual(typed.activity, .cycling)
        let sport = try Importer.workout(from: try Self.track("tcx/bike.tcx"), activity: nil, defaultActivity: .walking,
                                         id: 1, settings: MetricsSettings(), source: "imported:b.tcx")
        expectEqual(sport.activity, .cycling)
        let asked = try Importer.workout(from: try Self.track("tcx/bike.tcx"), activity: .mountainBiking, defaultActivity: .walking,
                                         id: 1, settings: MetricsSettings(), source: "imported:b.tcx")
        expectEqual(asked.activity, .mountainBiking)
    }
}
