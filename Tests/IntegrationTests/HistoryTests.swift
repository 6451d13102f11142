import Foundation
import Testing

/// History commands through workoutctl against the real daemon: list filters, show, delete and
/// its undo, import errors.
@Suite(.serialized, .enabled(if: DaemonHarness.sharedUsable, "needs ../shared/data"))
struct HistoryTests {
    @Test func listFiltersDeleteAndUndo() throws {
        let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}]}"#)
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
        let d = try DaemonHarness()
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
