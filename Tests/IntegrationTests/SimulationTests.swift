import Foundation
import Testing
import TestRequirements

/// `workoutctl simulate FILE --speed 250` records the file's own points, distance and durations.
/// The daemon is embedded (on the system's clocks); workoutctl is the real client. An accelerated
/// replay (paced, unlike `--speed 0`) takes its 1-2 s in `workoutctl simulate`, which the test
/// awaits (`ctlSuspending`).
@Suite(.peerBound, .serialized, .requires(.sharedData))
struct SimulationTests {
    @Test(arguments: [("garminconnect.gpx", 250), ("globalsat_gh625XT.gpx", 1000)])
    func acceleratedReplayEqualsTheFile(_ name: String, _ speed: Int) async throws {
        let file = DaemonHarness.sharedRoot.appendingPathComponent("data/gpx/\(name)").path
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}]}"#)
        try d.start()
        #expect(try await d.ctlSuspending(["start", "cycling"]).status == 0)
        let sim = try await d.ctlSuspending(["simulate", file, "--speed", "\(speed)"])
        #expect(sim.status == 0, "\(sim.stderr)")
        // `stop` first reads what the simulation sent (FeedHub.catchUp): no wait needed.
        let stop = try await d.ctlSuspending(["--json", "stop"])
        let recorded = try #require((try DaemonHarness.parse(stop.stdout))["workout"] as? [String: Any])
        try await d.awaitStatus(seconds: 30) { $0["state"] as? String == "idle" }
        let imp = try await d.ctlSuspending(["--json", "import", file, "--activity", "cycling"])
        #expect(imp.status == 0 || imp.stdout.contains("duplicate"), "\(imp.stdout) \(imp.stderr)")
        let list = try #require(try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]])
        // The import is a duplicate of the simulated recording (same start, same point count) or
        // a separate entry; either way the recorded numbers equal the file's.
        let fileStats = try Self.fileFigures(file)
        #expect(recorded["pointCount"] as? Int == fileStats.points)
        #expect(recorded["startedAt"] as? String == fileStats.start)
        #expect(recorded["endedAt"] as? String == fileStats.end)
        // Between two segments the device's timer was stopped: as import does, that gap is a
        // pause and not elapsed time (globalsat: 930 s from first to last point, 906.1 s elapsed).
        // Every figure is compared with the import's below.
        let segments = try String(contentsOfFile: file, encoding: .utf8).components(separatedBy: "<trkseg").count - 1
        if segments == 1 { #expect(abs((recorded["elapsedSeconds"] as? Double ?? 0) - fileStats.duration) < 0.01) }
        // The distance is the file's own: gpxstats.py's WGS84 geodesic length (geographiclib).
        let geodesic = try await Self.gpxstatsGeodesic(file)
        let distance = recorded["distanceMeters"] as? Double ?? 0
        // Segment breaks are carried (`SEGMENT` lines): the distance is summed within segments.
        // (globalsat: 4 mm of 2,384 m apart, 1.7e-6; the bridged step was 0.13 m, 5.5e-5)
        #expect(abs(distance - geodesic) / geodesic < 1e-5, "simulated \(distance) m vs gpxstats \(geodesic) m")
        if let imported = list.first(where: { ($0["id"] as? String) != (recorded["id"] as? String) }) {
            for key in ["distanceMeters", "movingSeconds", "elapsedSeconds", "pointCount"] {
                #expect("\(imported[key] ?? "")" == "\(recorded[key] ?? "")", "\(key): import \(imported[key] ?? "") vs simulated \(recorded[key] ?? "")")
            }
        } else {
            #expect(imp.stdout.contains("duplicate"))
        }
        d.stop()
    }

    /// gpxstats.py's WGS84 geodesic length of a GPX file, summed within each `<trkseg>`.
    static func gpxstatsGeodesic(_ file: String) async throws -> Double {
        let text = try await Reliability.runSuspending(["/usr/bin/env", "python3", DaemonHarness.sharedRoot.appendingPathComponent("tools/gpxstats.py").path, file]).out
        let line = try #require(text.split(separator: "\n").first { $0.contains("geodesic WGS84") })
        return try #require(Double(line.split(separator: " ").filter { !$0.isEmpty }[2]))
    }

    /// Regression (issue 18): `simulate` bridged the breaks between a file's segments (+20 m on
    /// globalsat_gh625XT.gpx and bike.tcx, more on the 8 segments of garmin-edge-800). Each file
    /// with several `<trkseg>` (GPX) or `<Track>` (TCX) in ../shared/data is imported, then
    /// simulated into the same daemon: the simulated workout's figures equal the import's, and
    /// a GPX file's distance equals gpxstats.py's (summed per segment).
    @Test(arguments: ["gpx/garmin-edge-800-output.gpx", "gpx/globalsat_gh625XT.gpx", "tcx/bike.tcx"])
    func segmentBreaksAreCarried(_ name: String) async throws {
        let file = DaemonHarness.sharedRoot.appendingPathComponent("data/\(name)").path
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}]}"#)
        try d.start()
        defer { d.stop() }
        let imp = try await d.ctlSuspending(["--json", "import", file, "--activity", "cycling"])
        #expect(imp.status == 0, "\(imp.stdout) \(imp.stderr)")
        let imported = try #require((try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]])?.first)
        #expect(try await d.ctlSuspending(["start", "cycling"]).status == 0)
        let sim = try await d.ctlSuspending(["simulate", file, "--speed", "0"])
        #expect(sim.status == 0, "\(sim.stderr)")
        let recorded = try #require((try DaemonHarness.parse(try await d.ctlSuspending(["--json", "stop"]).stdout))["workout"] as? [String: Any])
        // A file with its device's distance (a TCX, issue 39) is measured on that distance when
        // imported; its simulation, positions only, on the track: the same within 0.5 %.
        let deviceDistance = imported["distanceSource"] as? String == "device"
        let exact = ["pointCount", "acceptedCount", "elapsedSeconds", "startedAt", "endedAt"] + (deviceDistance ? [] : ["distanceMeters", "movingSeconds"])
        for key in exact {
            #expect("\(imported[key] ?? "-")" == "\(recorded[key] ?? "-")", "\(name) \(key): import \(imported[key] ?? "-") vs simulated \(recorded[key] ?? "-")")
        }
        if deviceDistance {
            for key in ["distanceMeters", "movingSeconds"] {
                let a = imported[key] as? Double ?? 0, b = recorded[key] as? Double ?? -1
                #expect(abs(a - b) <= 0.005 * a, "\(name) \(key): import \(a) vs simulated \(b)")
            }
        }
        if name.hasSuffix(".gpx") {
            let geodesic = try await Self.gpxstatsGeodesic(file)
            let distance = recorded["distanceMeters"] as? Double ?? 0
            #expect(abs(distance - geodesic) / geodesic < 1e-5, "\(name): simulated \(distance) m vs gpxstats \(geodesic) m")
        }
    }

    /// Point count, first and last time of a GPX file, read with gpxpy-independent Foundation XML.
    static func fileFigures(_ path: String) throws -> (points: Int, start: String, end: String, duration: Double) {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let times = text.components(separatedBy: "<trkpt").dropFirst().compactMap { chunk -> String? in
            guard let a = chunk.range(of: "<time>"), let b = chunk.range(of: "</time>") else { return nil }
            return String(chunk[a.upperBound..<b.lowerBound])
        }
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        let g = ISO8601DateFormatter()
        g.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let first = f.date(from: times.first!) ?? g.date(from: times.first!)!
        let last = f.date(from: times.last!) ?? g.date(from: times.last!)!
        return (times.count, g.string(from: first), g.string(from: last), last.timeIntervalSince(first))
    }
}
