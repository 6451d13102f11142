import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// Every shared GPX and TCX file imports with the reference distance: geographiclib's WGS84
/// geodesic length of its track, summed per segment (gpxstats.py for GPX; the same computation
/// over the TCX trackpoints in Python).
@Suite(.requires(.sharedData, .python(.geographiclib)))
struct ImporterTests {
    static let files = ["gpx/garmin-edge-800-output.gpx", "gpx/garmin-oregon-700-output.gpx", "gpx/garminconnect.gpx",
                        "gpx/globalsat_gh625XT.gpx", "tcx/bike.tcx", "tcx/gtrnctr_power.tcx", "tcx/kona2013.tcx"]

    /// geographiclib's length of the file's track, per segment, from the same points we read.
    static func reference(_ track: Importer.Track) throws -> Double {
        var segments: [[[Double]]] = []
        var last: Int?
        for (f, s) in zip(track.fixes, track.segments) {
            if s != last { segments.append([]); last = s }
            segments[segments.count - 1].append([f.latitude, f.longitude])
        }
        let data = try JSONSerialization.data(withJSONObject: segments)
        let script = """
        import json, sys
        from geographiclib.geodesic import Geodesic
        g = Geodesic.WGS84
        segs = json.load(sys.stdin)
        print(repr(sum(g.Inverse(a[0], a[1], b[0], b[1])['s12'] for s in segs for a, b in zip(s, s[1:]))))
        """
        let r = try SharedData.run(["python3", "-c", script], stdin: data)
        guard r.status == 0, let v = Double(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "geographiclib failed: \(r.stderr)"])
        }
        return v
    }

    @Test(arguments: files)
    func importsWithTheReferenceDistance(_ name: String) throws {
        let bytes = try SharedData.bytes(SharedData.url("data/" + name))
        let track = try Importer.read(bytes, fileName: name)
        let w = try Importer.workout(from: track, activity: nil, id: 1, settings: MetricsSettings(), source: "imported:" + name)
        let ref = try Self.reference(track)
        // A TCX file's own DistanceMeters is the workout's distance (the device's), the track's
        // geodesic length kept beside it (`gpsDistanceMeters`).
        let gps = w.summary.gpsDistanceMeters ?? w.summary.distanceMeters
        let rel = abs(gps - ref) / ref
        print("import \(name): \(w.summary.distanceMeters) m vs geographiclib \(ref) m, relative \(rel); points \(w.summary.pointCount), rejected \(w.summary.rejectedByReason)")
        // Beside a device's distance the track's length is measured as a FIT file's is (within
        // 0.1 %: bike.tcx's two tracks, +5 m).
        expectLess(rel, w.summary.distanceSource == .gps ? 1e-6 : 1e-3, "\(name): \(gps) vs \(ref)")
        expectEqual(w.summary.pointCount, track.fixes.count)
    }

    /// kona2013.tcx holds 5 trackpoints (4 s) of a 5:15:30, 180.2 km lap: imported from its
    /// track, with a warning that the track looks cut short (it said nothing, and showed 0:04
    /// beside the device's 2,658 kcal, which are the whole ride's: no longer taken). The other TCX
    /// files' tracks cover their laps: no warning.
    @Test func aTrackCutShortOfItsLapsIsSaidSo() throws {
        for name in Self.files where name.hasSuffix(".tcx") {
            let track = try Importer.read(try SharedData.bytes(SharedData.url("data/" + name)), fileName: name)
            let imported = try Importer.imported(from: track, activity: nil, id: 1, settings: MetricsSettings(), source: "imported:" + name)
            let cut = imported.warnings.filter { $0.contains("cut short") }
            if name.hasSuffix("kona2013.tcx") {
                expectEqual(cut, ["the file's laps state 5:15:30 and 180.2 km, but its track covers only 0:04: the track looks cut short, and the workout is measured from it (not the laps' calories either)"])
                // Regression: the 4 s track showed the whole ride's 2,658 kcal "from the device".
                expectNotEqual(imported.workout.summary.caloriesMethod, .device, "\(String(describing: imported.workout.summary.caloriesMethod))")
                expectLess((imported.workout.summary.calories ?? 0), 10, "\(String(describing: imported.workout.summary.calories))")
            } else {
                #expect(cut.isEmpty, "\(name): \(cut)")
            }
        }
    }

    @Test func gpxstatsAgreesWithTheReferenceForGPX() throws {
        // gpxstats.py is the ground truth named by the issue; check our reference equals it.
        // One gpxstats for every file: a block per file, in the order given, one such line each.
        let names = Self.files.filter { $0.hasSuffix(".gpx") }
        let r = try SharedData.run(["python3", SharedData.url("tools/gpxstats.py").path] + names.map { SharedData.url("data/" + $0).path })
        let lines = r.stdout.split(separator: "\n").filter { $0.contains("geodesic WGS84") }
        try #require(r.status == 0 && lines.count == names.count, "gpxstats: \(r.stderr)")
        for (name, line) in zip(names, lines) {
            let figure = try #require(Double(line.split(separator: " ").filter { !$0.isEmpty }[2]))
            let track = try Importer.read(try SharedData.bytes(SharedData.url("data/" + name)), fileName: name)
            #expect(abs(try Self.reference(track) - figure) < 0.01, "\(name)")
        }
    }

    @Test(arguments: ["<gpx><trk><trkseg><trkpt lat=\"91\" lon=\"0\"><time>2020-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>",
                      "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"0\"><time>2020-01-01T00:00:00Z</time></trkpt></trkseg></trk>",
                      "<TrainingCenterDatabase><Activities></Activities></TrainingCenterDatabase>",
                      "hello"])
    func malformedFilesFailWithAReasonAndImportNothing(_ text: String) {
        let name = text.hasPrefix("<Training") ? "x.tcx" : "x.gpx"
        #expect(throws: Importer.Failure.self) {
            let t = try Importer.read(Array(text.utf8), fileName: name)
            _ = try Importer.workout(from: t, activity: nil, id: 1, settings: MetricsSettings(), source: "")
        }
    }
}
