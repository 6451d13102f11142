import Foundation
import Glibc
import Testing
import TestRequirements

/// History commands through workoutctl against the embedded daemon: list filters, show, delete and
/// its undo, import errors.
@Suite(.serialized, .requires(.sharedData))
struct HistoryTests {
    @Test func listFiltersDeleteAndUndo() throws {
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}]}"#)
        try d.start()
        let gpx = DaemonHarness.sharedRoot.appendingPathComponent("data/gpx/garmin-edge-800-output.gpx").path  // 2012
        let tcx = DaemonHarness.sharedRoot.appendingPathComponent("data/tcx/bike.tcx").path                     // 2013
        let imp = try d.ctl(["--json", "import", gpx, tcx, "--activity", "cycling"])
        #expect(imp.status == 0, "\(imp.stderr)")
        let all = try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []
        #expect(all.count == 2)
        let in2013 = try d.request(#"{"command":"list","from":"2013-01-01","to":"2013-12-31"}"#)["workouts"] as? [[String: Any]] ?? []
        #expect(in2013.count == 1)
        let running = try d.request(#"{"command":"list","activity":"running"}"#)["workouts"] as? [[String: Any]] ?? []
        #expect(running.isEmpty)
        let id = try #require(in2013.first?["id"] as? String)
        #expect(try d.ctl(["delete", id]).status == 0)
        #expect((try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []).count == 1)
        #expect(try d.ctl(["show", id]).status == 1, "a deleted workout is gone from history")
        #expect(FileManager.default.fileExists(atPath: d.dataDir + "/trash/\(id).json"), "kept in the trash")
        #expect(try d.ctl(["undelete", id]).status == 0)
        #expect((try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []).count == 2)
        // The index survives a restart.
        d.stop()
        try d.start()
        #expect((try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []).count == 2)
        d.stop()
    }

    @Test func malformedImportNamesTheFileAndImportsNothing() throws {
        let d = try EmbeddedDaemon()
        try d.start()
        let bad = d.dir + "/broken.gpx"
        try #"<gpx version="1.1"><trk><trkseg><trkpt lat="48.1" lon="11.5"><time>2020-01-01T00:00:00Z</time></trkpt>"#.write(toFile: bad, atomically: true, encoding: .utf8)
        let r = try d.ctl(["--json", "import", bad])
        #expect(r.status == 1)
        #expect(r.stdout.contains("broken.gpx") && r.stdout.contains("\"error\""), "\(r.stdout)")
        #expect((try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []).isEmpty)
        d.stop()
    }
}

@Suite(.serialized) struct LargeHistoryTests {
    /// Regression: a `list` reply larger than 4 MiB made the daemon drop the connection.
    @Test func listOfManyWorkoutsIsAnsweredWhole() throws {
        let d = try EmbeddedDaemon()
        try FileManager.default.createDirectory(atPath: d.dataDir + "/workouts", withIntermediateDirectories: true)
        var index = ""
        // 24,000 times written by gmtime_r: a formatter per time (FixFeeder.iso) took ~7 s here.
        let iso = { (t: Int) -> String in
            var secs = time_t(t), u = tm()
            gmtime_r(&secs, &u)
            let two = { (v: Int32) in v < 10 ? "0\(v)" : "\(v)" }
            return "\(u.tm_year + 1900)-\(two(u.tm_mon + 1))-\(two(u.tm_mday))T\(two(u.tm_hour)):\(two(u.tm_min)):\(two(u.tm_sec)).000Z"
        }
        for k in 0..<12000 {
            let t = 1_600_000_000 + k * 86_400 / 3
            let id = "W\(k)"
            // Its file (empty: start-up checks names only, the list comes from the index).
            close(open(d.dataDir + "/workouts/\(id).json", O_WRONLY | O_CREAT, 0o600))
            index += #"{"put":{"id":"\#(id)","activity":"running","startedAt":"\#(iso(t))","endedAt":"\#(iso(t + 1800))","elapsedSeconds":1800,"movingSeconds":1700,"distanceMeters":5000,"elevationGainMeters":10,"pointCount":1800}}"# + "\n"
        }
        try index.write(toFile: d.dataDir + "/index.jsonl", atomically: true, encoding: .utf8)
        try d.start()
        let c = try UnixClient(path: d.controlSocket, timeoutSeconds: 30)
        try c.send(#"{"command":"list"}"# + "\n")
        let line = try #require(try c.readLine())
        #expect(line.utf8.count > 4 << 20, "reply of \(line.utf8.count) bytes")
        let reply = try DaemonHarness.parse(line)
        #expect((reply["workouts"] as? [Any])?.count == 12000)
        c.close()
        d.stop()
    }
}
