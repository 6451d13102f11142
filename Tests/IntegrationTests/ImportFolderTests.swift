import Foundation
import Glibc
import Testing

/// Issue 30: folders that import themselves (`importFolders`).
@Suite(.serialized, .offPool) struct ImportFolderTests {
    static func count(_ d: some DaemonUnderTest) throws -> Int {
        (try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []).count
    }

    @Test func aFileCopiedIntoAnImportFolderIsImportedOnce() async throws {
        let d = try DaemonHarness()
        let inbox = d.dir + "/inbox"
        try d.writeConfig(#"{"importFolders":["\#(inbox)"],"feeds":[{"kind":"socket"}]}"#)
        try d.start()  // the folder does not exist yet (a watch not mounted): looked for
        defer { d.stop() }
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        let gpx = DisplayUnitsTests.gpx(start: "2026-02-01T07:00:00Z", seconds: 90, speed: 3)
        // A download in progress is left alone until renamed into place.
        try gpx.write(toFile: inbox + "/run.gpx.part", atomically: false, encoding: .utf8)
        let t0 = Date()
        #expect(rename(inbox + "/run.gpx.part", inbox + "/run.gpx") == 0)
        let deadline = Date().addingTimeInterval(10)
        while try Self.count(d) == 0, Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
        let took = Date().timeIntervalSince(t0)
        print("imported from the folder after \(String(format: "%.2f", took)) s (quiet time 4 s)")
        #expect(try Self.count(d) == 1, "imported within 10 s")
        // Copied again under another name: the same recording, not saved twice.
        try gpx.write(toFile: inbox + "/copy.gpx", atomically: false, encoding: .utf8)
        // Not a track: ignored.
        try "notes".write(toFile: inbox + "/notes.txt", atomically: false, encoding: .utf8)
        let remembered = d.stateDir + "/imported-files.jsonl"
        let until = Date().addingTimeInterval(10)
        while ((try? String(contentsOfFile: remembered, encoding: .utf8)) ?? "").contains("copy.gpx") == false, Date() < until {
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        #expect(try Self.count(d) == 1)
        // A restart imports nothing again (the folder's files are remembered in the state dir).
        d.stop()
        let first = d.stderrText()
        #expect(first.contains("event=import.folder "), "logged (and a desktop notification when enabled)")
        try d.start()
        try await Task.sleep(nanoseconds: 5_000_000_000)  // nothing to wait for: a look at the folder takes a file after 4 s of stillness
        #expect(try Self.count(d) == 1)
        d.stop()
        #expect(!d.stderrText().contains("event=import.folder "), "nothing imported after the restart")
        let text = try String(contentsOfFile: remembered, encoding: .utf8)
        #expect(text.contains("run.gpx") && text.contains("copy.gpx") && !text.contains("notes.txt"))
    }

    /// Issue 45 item 8: a file still being written into an import folder (rewritten 4-6 times,
    /// 2.5 s apart, as a phone app or a sync engine does) became 4-6 workouts. It is imported
    /// once it has been quiet for 4 s; a longer version of it arriving later replaces the workout
    /// it made (moved to the trash).
    @Test func aFileRewrittenWhileItArrivesIsImportedOnceAndALongerOneReplacesIt() async throws {
        let d = try DaemonHarness()
        let inbox = d.dir + "/inbox"
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        try d.writeConfig(#"{"importFolders":["\#(inbox)"],"feeds":[{"kind":"socket"}]}"#)
        try d.start()
        defer { d.stop() }
        try await Task.sleep(for: .milliseconds(300))  // watched
        let path = inbox + "/ride.gpx"
        func write(_ seconds: Int) throws {
            // In place, as an app writing its file: truncated, written, closed.
            try DisplayUnitsTests.gpx(start: "2026-05-01T07:00:00Z", seconds: seconds, speed: 5).write(toFile: path, atomically: false, encoding: .utf8)
        }
        for (k, seconds) in [60, 120, 180, 240, 300].enumerated() {
            if k > 0 { try await Task.sleep(for: .milliseconds(2500)) }
            try write(seconds)
        }
        let deadline = Date().addingTimeInterval(12)
        while try Self.count(d) == 0, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        try await Task.sleep(for: .milliseconds(500))
        let first = try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []
        #expect(first.count == 1, "one workout, not one per version: \(first.count)")
        #expect((first.first?["elapsedSeconds"] as? Double ?? 0) >= 299, "the whole file: \(String(describing: first.first?["elapsedSeconds"]))")
        let firstID = first.first?["id"] as? String ?? ""

        // Later the file grows again (a sync engine brings the rest): it replaces the workout.
        try write(420)
        let until = Date().addingTimeInterval(12)
        var now: [[String: Any]] = first
        while Date() < until {
            now = try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []
            if now.count == 1, now.first?["id"] as? String != firstID { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(now.count == 1 && (now.first?["elapsedSeconds"] as? Double ?? 0) >= 419, "\(now.map { ($0["id"] ?? "", $0["elapsedSeconds"] ?? "") })")
        #expect(FileManager.default.fileExists(atPath: d.dataDir + "/trash/\(firstID).json"), "the earlier version's workout is in the trash")
        var log = ""
        for _ in 0..<40 where !log.contains("import.folder_replaced") {
            log += d.stderrText()
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(log.contains("import.folder_replaced") && log.contains(firstID), "\(log.suffix(800))")
    }
}
