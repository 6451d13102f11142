import Foundation
import Testing

/// `workoutctl simulate FILE --speed 50` records the file's own points, distance and durations.
@Suite(.serialized, .enabled(if: DaemonHarness.sharedUsable, "needs ../shared/data"))
struct SimulationTests {
    @Test(arguments: [("garminconnect.gpx", 50), ("globalsat_gh625XT.gpx", 200)])
    func acceleratedReplayEqualsTheFile(_ name: String, _ speed: Int) throws {
        let file = DaemonHarness.sharedRoot.appendingPathComponent("data/gpx/\(name)").path
        let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}]}"#)
        try d.start()
        #expect(try d.ctl(["start", "cycling"]).status == 0)
        let sim = try d.ctl(["simulate", file, "--speed", "\(speed)"])
        #expect(sim.status == 0, "\(sim.stderr)")
        usleep(300_000)
        let stop = try d.ctl(["--json", "stop"])
        let recorded = try #require((try DaemonHarness.parse(stop.stdout))["workout"] as? [String: Any])
        try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
        let imp = try d.ctl(["--json", "import", file, "--activity", "cycling"])
        #expect(imp.status == 0 || imp.stdout.contains("duplicate"), "\(imp.stdout) \(imp.stderr)")
        let list = try #require(try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]])
        // The import is a duplicate of the simulated recording (same start, same point count) or
        // a separate entry; either way the recorded numbers equal the file's.
        let fileStats = try Self.fileFigures(file)
        #expect(recorded["pointCount"] as? Int == fileStats.points)
        #expect(recorded["startedAt"] as? String == fileStats.start)
        #expect(recorded["endedAt"] as? String == fileStats.end)
        #expect(abs((recorded["elapsedSeconds"] as? Double ?? 0) - fileStats.duration) < 0.01)
        if let imported = list.first(where: { ($0["id"] as? String) != (recorded["id"] as? String) }) {
            for key in ["distanceMeters", "movingSeconds", "elapsedSeconds", "pointCount"] {
                #expect("\(imported[key] ?? "")" == "\(recorded[key] ?? "")", "\(key): import \(imported[key] ?? "") vs simulated \(recorded[key] ?? "")")
            }
        } else {
            #expect(imp.stdout.contains("duplicate"))
        }
        d.stop()
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
