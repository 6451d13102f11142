import Foundation
import Glibc
import Testing

/// Issue 30: folders that import themselves (`importFolders`).
@Suite(.serialized, .offPool) struct ImportFolderTests {
    static func count(_ d: DaemonHarness) throws -> Int {
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
        let deadline = Date().addingTimeInterval(5)
        while try Self.count(d) == 0, Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
        let took = Date().timeIntervalSince(t0)
        print("imported from the folder after \(String(format: "%.2f", took)) s")
        #expect(try Self.count(d) == 1, "imported within 5 s")
        // Copied again under another name: the same recording, not saved twice.
        try gpx.write(toFile: inbox + "/copy.gpx", atomically: false, encoding: .utf8)
        // Not a track: ignored.
        try "notes".write(toFile: inbox + "/notes.txt", atomically: false, encoding: .utf8)
        let remembered = d.stateDir + "/imported-files.jsonl"
        let until = Date().addingTimeInterval(5)
        while ((try? String(contentsOfFile: remembered, encoding: .utf8)) ?? "").contains("copy.gpx") == false, Date() < until {
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        #expect(try Self.count(d) == 1)
        // A restart imports nothing again (the folder's files are remembered in the state dir).
        d.stop()
        let first = d.stderrText()
        #expect(first.contains("event=import.folder "), "logged (and a desktop notification when enabled)")
        try d.start()
        try await Task.sleep(nanoseconds: 1_500_000_000)  // nothing to wait for: a look at the folder takes a file after a second of stillness
        #expect(try Self.count(d) == 1)
        d.stop()
        #expect(!d.stderrText().contains("event=import.folder "), "nothing imported after the restart")
        let text = try String(contentsOfFile: remembered, encoding: .utf8)
        #expect(text.contains("run.gpx") && text.contains("copy.gpx") && !text.contains("notes.txt"))
    }
}
