import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// Issue 18, full tracks: GPX, TCX and FIT exports hold every fix that is a valid position
/// (accepted, and stationary jitter, which adds no distance), while fixes rejected for quality
/// stay out and stay counted; TCX `DistanceMeters` and FIT `record.distance` carry our measured
/// distance (flat while standing, the last one is the workout's total).
@Suite(.requires(.sharedData))
struct FullTrackExportTests {
    static let logs = ["bundg_zeus_9.log", "haicom-305N.log", "nmea-rtk.log", "humminbird-M37.log"]

    static func imported(_ name: String) throws -> Workout {
        let bytes = try SharedData.bytes(SharedData.url("data/nmea/" + name))
        let track = try Importer.read(bytes, fileName: name)
        return try Importer.workout(from: track, activity: .running, id: 1, settings: MetricsSettings(), source: "imported:" + name)
    }

    /// The DistanceMeters of each TCX trackpoint, in order.
    static func tcxDistances(_ text: String) -> [Double] {
        text.split(separator: "\n").filter { $0.contains("<Trackpoint>") }.compactMap { line -> Double? in
            guard let a = line.range(of: "<DistanceMeters>"), let b = line.range(of: "</DistanceMeters>") else { return nil }
            return Double(line[a.upperBound..<b.lowerBound])
        }
    }

    /// The FIT SDK's record distances (m) of a FIT file we wrote (nil when the SDK is absent).
    static func fitRecordDistances(_ bytes: [UInt8]) throws -> [Double]? {
        guard FITOracle.hasSDK || SharedData.isCI else { return nil }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("full-\(UUID().uuidString).fit")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let script = """
        import json, sys
        from garmin_fit_sdk import Decoder, Stream
        m, e = Decoder(Stream.from_file(sys.argv[1])).read()
        print(json.dumps([r.get('distance') for r in m.get('record_mesgs', [])]))
        """
        let r = try SharedData.run(["python3", "-c", script, url.path])
        try #require(r.status == 0, "FIT SDK: \(r.stderr)")
        let values = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [Any] ?? []
        return values.map { ($0 as? NSNumber)?.doubleValue ?? .nan }
    }

    @Test(arguments: logs)
    func exportsHoldEveryValidFixWithTheMeasuredDistance(_ name: String) throws {
        let w = try Self.imported(name)
        let s = w.summary
        let track = w.points.filter(\.isOnTrack)
        let jitter = s.rejectedByReason[.stationaryJitter, default: 0]
        print("full track \(name): \(s.pointCount) fixes, \(s.acceptedCount) accepted, \(jitter) stationary, rejected \(s.rejectedByReason), \(track.count) exported, \(s.distanceMeters) m")
        expectEqual(track.count, s.acceptedCount + jitter)
        #expect(jitter > 0 && track.count > s.acceptedCount, "the file has stationary fixes: they are exported now")
        // Quality rejections stay out and stay counted.
        let quality = s.rejectedByReason.filter { !$0.key.keepsPosition }.values.reduce(0, +)
        expectEqual(track.count + quality, s.pointCount)

        let gpx = GPXWriter.string(w)
        expectEqual(gpx.components(separatedBy: "<trkpt ").count - 1, track.count)

        let tcx = String(decoding: Exporter.bytes(w, .tcx), as: UTF8.self)
        let distances = Self.tcxDistances(tcx)
        expectEqual(distances.count, track.count)
        #expect(zip(distances, distances.dropFirst()).allSatisfy { $0 <= $1 }, "cumulative distance never goes back")
        expectLess(abs((distances.last ?? -1) - s.distanceMeters), 0.006, "last DistanceMeters \(distances.last ?? -1) vs \(s.distanceMeters)")
        // Flat while standing: a stationary point carries the distance of the point before it.
        for (k, p) in track.enumerated() where k > 0 && p.rejection == .stationaryJitter {
            expectEqual(distances[k], distances[k - 1])
        }

        let fit = Exporter.bytes(w, .fit)
        if let records = try Self.fitRecordDistances(fit) {
            expectEqual(records.count, track.count)
            expectLess(abs((records.last ?? -1) - s.distanceMeters), 0.006, "last record.distance \(records.last ?? -1) vs \(s.distanceMeters)")
        }
    }

    /// A live recording (a receiver standing, then moving) exports its standing fixes too, and a
    /// workout rebuilt from its stored points exports byte for byte the same files.
    @Test func liveRecordingExportsItsStandingFixesAndRebuildsToTheSameFiles() throws {
        let t0 = 1_700_000_000.0
        var r = WorkoutRecorder(id: WorkoutID(start: t0, suffix: 7), activity: .running, startedAt: t0)
        var fixes: [Fix] = []
        for i in 0..<30 {  // 30 s standing: jitter within 1.5 m
            let j = Double(i % 3) * 0.000005
            fixes.append(Fix(time: t0 + 1 + Double(i), latitude: 48.1 + j, longitude: 11.5 - j, mode: .threeD))
        }
        for i in 0..<60 {  // 60 s at 3 m/s to the north
            fixes.append(Fix(time: t0 + 31 + Double(i), latitude: 48.1 + Double(i + 1) * 3 / 111_200, longitude: 11.5, mode: .threeD))
        }
        for f in fixes { r.ingest(f) }
        let w = r.finish(at: t0 + 91)
        let s = w.summary
        let track = w.points.filter(\.isOnTrack)
        let warmUp = s.rejectedByReason[.warmUp, default: 0]
        expectEqual(track.count, fixes.count - warmUp, "every fix but the warm-up is on the track: \(s.rejectedByReason)")
        expectGreater(s.rejectedByReason[.stationaryJitter, default: 0], 20)
        let distances = Self.tcxDistances(String(decoding: Exporter.bytes(w, .tcx), as: UTF8.self))
        expectEqual(distances.count, track.count)
        #expect(distances.prefix(25).allSatisfy { $0 == 0 }, "no distance while standing: \(distances.prefix(25))")
        expectLess(abs((distances.last ?? -1) - s.distanceMeters), 0.006)
        expectLess(abs(s.distanceMeters - 180), 5, "\(s.distanceMeters)")

        let rebuilt = WorkoutRecorder.recompute(id: w.id, activity: w.activity, startedAt: t0, endedAt: t0 + 91, points: w.points, events: w.events)
        expectEqual(rebuilt.summary, w.summary)
        for format in [ExportFormat.gpx, .tcx, .fit] {
            expectEqual(Exporter.bytes(rebuilt, format), Exporter.bytes(w, format), "\(format)")
        }
    }

    /// The export of a recording with stationary fixes, imported again, is recognised as the
    /// same workout (GPX, TCX and FIT), and so is the original imported after its export.
    @Test(arguments: [ExportFormat.gpx, .tcx, .fit])
    func reimportOfAFullExportIsADuplicate(_ format: ExportFormat) throws {
        let w = try Self.imported("bundg_zeus_9.log")
        let bytes = Exporter.bytes(w, format)
        let back = try Importer.read(bytes, fileName: "again." + format.rawValue)
        let again = try Importer.workout(from: back, activity: nil, id: 2, settings: MetricsSettings(), source: "imported:again")
        expectEqual(again.summary.pointCount, w.points.filter(\.isOnTrack).count)
        #expect(Importer.isDuplicate(again.summary, of: w.summary))
        #expect(Importer.isDuplicate(w.summary, of: again.summary))
    }
}
