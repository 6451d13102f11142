import Foundation
import Glibc
import Testing
@testable import WorkoutDaemon

/// Issue 45 item 3: links led out of the folders. A link in the history folder's `workouts/`
/// pointing outside was listed as a workout; `trash` replaced by a link made `delete` move a
/// workout out of the history; a link in an import folder to a file outside was imported. Real
/// symbolic links, the embedded daemon.
@Suite(.serialized) struct FolderLinkTests {
    static func ids(_ d: some DaemonUnderTest) throws -> [String] {
        (try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    static func importGPX(_ d: some DaemonUnderTest, _ name: String, start: String) throws -> String {
        let path = d.dir + "/" + name
        try DisplayUnitsTests.gpx(start: start, seconds: 90, speed: 3).write(toFile: path, atomically: true, encoding: .utf8)
        let r = try d.request(#"{"command":"import","files":["\#(path)"]}"#)
        return try #require((r["results"] as? [[String: Any]])?.first?["id"] as? String, "\(r)")
    }

    static func waitForLog(_ d: some DaemonUnderTest, _ seconds: Double, _ text: inout String, until: (String) -> Bool) {
        pollUntil(seconds: seconds) { text += d.stderrText(); return until(text) }
    }

    /// On a `ManualClock`: the history folder's periodic full look comes when the test says.
    @Test func aLinkInTheHistoryFolderIsNotAWorkout() throws {
        let d = try EmbeddedDaemon(clock: ManualClock())
        try d.start()
        let kept = try Self.importGPX(d, "kept.gpx", start: "2026-03-01T07:00:00Z")
        let linked = try Self.importGPX(d, "linked.gpx", start: "2026-03-02T07:00:00Z")
        d.stop()
        _ = d.stderrText()
        // The second workout's file moves outside; a link takes its place. Another link, named as
        // a workout, points at a file no one should read.
        let workouts = d.dataDir + "/workouts", outside = d.dir + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        #expect(rename(workouts + "/\(linked).json", outside + "/\(linked).json") == 0)
        #expect(symlink(outside + "/\(linked).json", workouts + "/\(linked).json") == 0)
        let secret = outside + "/secret"
        try "root:x:0:0\n".write(toFile: secret, atomically: true, encoding: .utf8)
        #expect(symlink(secret, workouts + "/20260304T070000Z-abcd.json") == 0)
        try d.start()
        defer { d.stop() }
        #expect(try Self.ids(d) == [kept], "only the real file is a workout")
        #expect((try d.request(#"{"command":"show","id":"\#(linked)"}"#))["ok"] as? Bool == false)
        var log = ""
        Self.waitForLog(d, 5, &log) { $0.contains("20260304T070000Z-abcd.json") && $0.contains("\(linked).json") }
        let skipped = log.split(separator: "\n").filter { $0.contains("history.link_skipped") }
        #expect(skipped.count == 2, "one warning per link, naming it: \(skipped)")
        #expect(skipped.contains { $0.contains(workouts + "/\(linked).json") })
        // A look at the folder again (at a change, and the periodic look at the whole folder)
        // warns no more: its work is done once the sync's queue is drained, and its lines are
        // all written once the daemon has stopped.
        try "x".write(toFile: workouts + "/unrelated.txt", atomically: true, encoding: .utf8)
        d.advance(HistorySync.rescanSeconds)
        d.onLoop { $0.history.sync?.drain() }
        d.stop()
        #expect(!d.stderrText().contains("history.link_skipped"))
    }

    @Test func aTrashThatIsALinkKeepsTheWorkoutInTheHistory() throws {
        let d = try EmbeddedDaemon()
        try d.start()
        defer { d.stop() }
        let id = try Self.importGPX(d, "run.gpx", start: "2026-03-05T07:00:00Z")
        let trash = d.dataDir + "/trash", elsewhere = d.dir + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        #expect(rmdir(trash) == 0)
        #expect(symlink(elsewhere, trash) == 0)
        let r = try d.request(#"{"command":"delete","id":"\#(id)"}"#)
        #expect(r["ok"] as? Bool == false, "\(r)")
        let message: String = (r["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.contains("symbolic link"), "\(r)")
        #expect(FileManager.default.fileExists(atPath: d.dataDir + "/workouts/\(id).json"))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: elsewhere)) == [], "nothing moved out")
        #expect(try Self.ids(d) == [id])
    }

    /// On a `ManualClock`: the 4 s of quiet pass as the test looks (`ImportFolderTests.advancing`).
    @Test func aLinkInAnImportFolderIsNotImported() throws {
        let d = try EmbeddedDaemon(clock: ManualClock())
        let inbox = d.dir + "/inbox", outside = d.dir + "/outside"
        for dir in [inbox, outside] { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        try DisplayUnitsTests.gpx(start: "2026-03-06T07:00:00Z", seconds: 90, speed: 3).write(toFile: outside + "/theirs.gpx", atomically: true, encoding: .utf8)
        #expect(symlink(outside + "/theirs.gpx", inbox + "/theirs.gpx") == 0)
        #expect(symlink("/etc/shadow", inbox + "/shadow.fit") == 0)
        try d.writeConfig(#"{"importFolders":["\#(inbox)"],"feeds":[{"kind":"socket"}]}"#)
        try d.start()
        defer { d.stop() }
        var log = ""
        Self.waitForLog(d, 5, &log) { $0.contains("shadow.fit") && $0.contains("theirs.gpx") }
        // A real file placed afterwards is imported: the folder works, its links are skipped.
        try DisplayUnitsTests.gpx(start: "2026-03-07T07:00:00Z", seconds: 90, speed: 3).write(toFile: inbox + "/mine.gpx", atomically: true, encoding: .utf8)
        // Taken after 4 s of quiet, as the first look's files are (4 s after the start, no
        // later): in the same import or after theirs.
        let mine = { (try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []).contains { ($0["startedAt"] as? String)?.hasPrefix("2026-03-07") == true } }
        try ImportFolderTests.advancing(d) { try mine() }
        log += d.stderrText()
        #expect(try Self.ids(d).count == 1, "only mine.gpx: \(log.suffix(1500))")
        let skipped = log.split(separator: "\n").filter { $0.contains("history.link_skipped") }
        #expect(skipped.count == 2 && skipped.contains { $0.contains(inbox + "/shadow.fit") } && skipped.contains { $0.contains(inbox + "/theirs.gpx") }, "\(skipped)")
    }
}
