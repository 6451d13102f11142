import Foundation
import Glibc
import Testing
@testable import WorkoutDaemon

/// Issue 30: folders that import themselves (`importFolders`).
@Suite(.serialized) struct ImportFolderTests {
    static func count(_ d: some DaemonUnderTest) throws -> Int {
        (try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []).count
    }

    /// Polls `condition` while the daemon's `ManualClock` moves on by the 0.2 s a found file
    /// waits for others (`ImportFolders.settleSeconds`) at each look: the daemon's waits (its
    /// look for a missing folder every 2 s, 4 s of quiet, the gathering) pass while the work
    /// they start (the import, on its worker) goes on.
    @discardableResult
    static func advancing(_ d: EmbeddedDaemon, until condition: () throws -> Bool) rethrows -> Bool {
        try pollUntil(seconds: 12) { d.advance(ImportFolders.settleSeconds); return try condition() }
    }

    @Test func aFileCopiedIntoAnImportFolderIsImportedOnce() throws {
        let d = try EmbeddedDaemon(clock: ManualClock())
        let inbox = d.dir + "/inbox"
        try d.writeConfig(#"{"importFolders":["\#(inbox)"],"feeds":[{"kind":"socket"}]}"#)
        try d.start()  // the folder does not exist yet (a watch not mounted): looked for
        defer { d.stop() }
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        let gpx = DisplayUnitsTests.gpx(start: "2026-02-01T07:00:00Z", seconds: 90, speed: 3)
        // A download in progress is left alone until renamed into place.
        try gpx.write(toFile: inbox + "/run.gpx.part", atomically: false, encoding: .utf8)
        let t0 = d.clock!.read().realtime
        #expect(rename(inbox + "/run.gpx.part", inbox + "/run.gpx") == 0)
        try Self.advancing(d) { try Self.count(d) > 0 }
        let took = d.clock!.read().realtime - t0
        print("imported from the folder after \(String(format: "%.1f", took)) s of the daemon's clock (a look for the folder every 2 s, quiet time 4 s)")
        #expect(try Self.count(d) == 1, "imported")
        #expect(took >= 4, "not before 4 s of quiet: \(took) s")
        // Copied again under another name: the same recording, not saved twice.
        try gpx.write(toFile: inbox + "/copy.gpx", atomically: false, encoding: .utf8)
        // Not a track: ignored.
        try "notes".write(toFile: inbox + "/notes.txt", atomically: false, encoding: .utf8)
        let remembered = d.stateDir + "/imported-files.jsonl"
        Self.advancing(d) { ((try? String(contentsOfFile: remembered, encoding: .utf8)) ?? "").contains("copy.gpx") }
        #expect(try Self.count(d) == 1)
        // A restart imports nothing again (the folder's files are remembered in the state dir).
        // Its first look at the folder takes the files there after 4 s of quiet; a file placed
        // right after the start is taken at the same time, in the same import or after it: once
        // that one is listed, the first look is done.
        d.stop()
        let first = d.stderrText()
        #expect(first.contains("event=import.folder "), "logged (and a desktop notification when enabled)")
        try d.start()
        try DisplayUnitsTests.gpx(start: "2026-02-02T07:00:00Z", seconds: 90, speed: 3).write(toFile: inbox + "/later.gpx", atomically: false, encoding: .utf8)
        try Self.advancing(d) { try Self.count(d) == 2 }
        #expect(try Self.count(d) == 2, "the file placed after the restart, and nothing again")
        // The folder's files are remembered after the import is committed, off the loop.
        Self.advancing(d) { ((try? String(contentsOfFile: remembered, encoding: .utf8)) ?? "").contains("later.gpx") }
        d.stop()
        let imports = d.stderrText().split(separator: "\n").filter { $0.contains("event=import.folder ") }
        #expect(imports.count == 1 && imports.first?.contains("duplicates=0") == true, "only later.gpx after the restart: \(imports)")
        let text = try String(contentsOfFile: remembered, encoding: .utf8)
        #expect(text.contains("run.gpx") && text.contains("copy.gpx") && text.contains("later.gpx") && !text.contains("notes.txt"))
    }

    /// Issue 45 item 8: a file still being written into an import folder (rewritten 4-6 times,
    /// 2.5 s apart, as a phone app or a sync engine does) became 4-6 workouts. It is imported
    /// once it has been quiet for 4 s; a longer version of it arriving later replaces the workout
    /// it made (moved to the trash). The 2.5 s and 4 s pass on the daemon's `ManualClock`.
    @Test func aFileRewrittenWhileItArrivesIsImportedOnceAndALongerOneReplacesIt() throws {
        let d = try EmbeddedDaemon(clock: ManualClock())
        let inbox = d.dir + "/inbox"
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        try d.writeConfig(#"{"importFolders":["\#(inbox)"],"feeds":[{"kind":"socket"}]}"#)
        try d.start()  // watched once started
        defer { d.stop() }
        let path = inbox + "/ride.gpx"
        func write(_ seconds: Int) throws {
            // In place, as an app writing its file: truncated, written, closed.
            try DisplayUnitsTests.gpx(start: "2026-05-01T07:00:00Z", seconds: seconds, speed: 5).write(toFile: path, atomically: false, encoding: .utf8)
        }
        // Each write is seen (inotify) before the clock moves on: `advance` serves ready
        // descriptors first. The 240 s version's close is not: a copy of its descriptor stays
        // open across the next 2.5 s, as when a process is spawned while the file is open (the
        // child inherits it: Foundation opens without O_CLOEXEC; a spawn by another test of the
        // same process made this test fail once, importing the 240 s version). Its close reaches
        // inotify only when the last copy goes, its write at once. 4 s after the 180 s version's
        // close the file is not quiet: whatever the daemon's look then (`drain`) stamped must not
        // be imported.
        var held: Int32 = -1
        for (k, seconds) in [60, 120, 180, 240, 300].enumerated() {
            if k > 0 { d.advance(2.5) }
            if held >= 0 {
                d.onLoop { $0.history.importFolders?.drain() }
                close(held)
                held = -1
            }
            if seconds == 240 {
                let fd = open(path, O_WRONLY | O_TRUNC)
                #expect(fd >= 0)
                held = dup(fd)  // the inheriting child's copy
                let bytes = Array(DisplayUnitsTests.gpx(start: "2026-05-01T07:00:00Z", seconds: seconds, speed: 5).utf8)
                let wrote = Glibc.write(fd, bytes, bytes.count)
                #expect(wrote == bytes.count)
                close(fd)
            } else {
                try write(seconds)
            }
        }
        d.advance(4)
        // Until the whole file is handled (remembered by its size): each version handled is one
        // line of the state directory's record, and only the last one may be.
        let remembered = d.stateDir + "/imported-files.jsonl"
        func handled() -> [Int] {
            ((try? String(contentsOfFile: remembered, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }.filter { ($0["path"] as? String) == path }.compactMap { $0["size"] as? Int }
        }
        let whole = Int(HistoryStore.stamp(path)?.size ?? -1)
        Self.advancing(d) { handled().contains(whole) }
        #expect(handled() == [whole], "only the whole file was taken, once: sizes \(handled()), whole \(whole)")
        let first = try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []
        #expect(first.count == 1, "one workout, not one per version: \(first.count)")
        #expect((first.first?["elapsedSeconds"] as? Double ?? 0) >= 299, "the whole file: \(String(describing: first.first?["elapsedSeconds"]))")
        let firstID = first.first?["id"] as? String ?? ""

        // Later the file grows again (a sync engine brings the rest): it replaces the workout.
        try write(420)
        d.advance(4)
        var now: [[String: Any]] = first
        try Self.advancing(d) {
            now = try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []
            return now.count == 1 && now.first?["id"] as? String != firstID
        }
        #expect(now.count == 1 && (now.first?["elapsedSeconds"] as? Double ?? 0) >= 419, "\(now.map { ($0["id"] ?? "", $0["elapsedSeconds"] ?? "") })")
        #expect(FileManager.default.fileExists(atPath: d.dataDir + "/trash/\(firstID).json"), "the earlier version's workout is in the trash")
        var log = ""
        pollUntil(seconds: 2) { log += d.stderrText(); return log.contains("import.folder_replaced") }
        #expect(log.contains("import.folder_replaced") && log.contains(firstID), "\(log.suffix(800))")
    }
}
