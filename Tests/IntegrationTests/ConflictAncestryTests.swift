import Foundation
import Glibc
import Testing

/// Issue 45 item 4: with a Syncthing conflict copy whose `editedAt` is 2030, `edit ID --title NEW`
/// answered NEW and wrote it, but `list`, `show` and the pages kept the copy's title: the newer
/// clock won. An edit made here now names every version it has seen in its revision
/// (`replaces`), and a version another one replaces is never listed. A real conflict file name
/// (`<id>.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.json`, renamed into place as Syncthing does).
@Suite(.serialized) struct ConflictAncestryTests {
    static func title(_ d: some DaemonUnderTest, _ id: String) throws -> (list: String?, show: String?) {
        let list = (try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []).first { $0["id"] as? String == id }
        let show = (try d.request(#"{"command":"show","id":"\#(id)"}"#)["workout"] as? [String: Any])
        return (list?["title"] as? String, show?["title"] as? String)
    }

    @Test func aLocalEditOutranksAConflictCopyDatedInTheFuture() throws {
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}]}"#)
        try d.start()
        defer { d.stop() }
        let gpx = d.dir + "/ride.gpx"
        try DisplayUnitsTests.gpx(start: "2026-04-01T07:00:00Z", seconds: 120, speed: 6).write(toFile: gpx, atomically: true, encoding: .utf8)
        let imported = try d.request(#"{"command":"import","files":["\#(gpx)"]}"#)
        let id = try #require((imported["results"] as? [[String: Any]])?.first?["id"] as? String, "\(imported)")
        #expect(try d.request(#"{"command":"edit","id":"\#(id)","title":"From the other machine"}"#)["ok"] as? Bool == true)

        // Another machine's version, dated 2030 by its clock, comes back as a conflict copy.
        let workouts = d.dataDir + "/workouts"
        var text = try String(contentsOfFile: workouts + "/\(id).json", encoding: .utf8)
        let stamp = try #require(text.range(of: #""editedAt":"[^"]*","machine":"[^"]*""#, options: .regularExpression))
        text.replaceSubrange(stamp, with: #""editedAt":"2030-01-01T12:00:00.000Z","machine":"zzzzzz""#)
        let copy = "\(id).sync-conflict-20300101-120000-ABCDEFG.json"
        try text.write(toFile: workouts + "/.syncthing.\(copy).tmp", atomically: false, encoding: .utf8)
        #expect(rename(workouts + "/.syncthing.\(copy).tmp", workouts + "/" + copy) == 0)
        var log = ""
        pollUntil(seconds: 5) { log += d.stderrText(); return log.contains("history.conflict") }
        #expect(log.contains("history.conflict"), "the copy was seen: \(log.suffix(800))")

        // The edit made here, later (by the real clock), is what is listed.
        let edited = try d.request(#"{"command":"edit","id":"\#(id)","title":"Edited here"}"#)
        #expect(((edited["workout"] as? [String: Any])?["title"] as? String) == "Edited here")
        let after = try Self.title(d, id)
        #expect(after.list == "Edited here" && after.show == "Edited here", "\(after)")
        let own = try String(contentsOfFile: workouts + "/\(id).json", encoding: .utf8)
        #expect(own.contains(#""replaces":["#) && own.contains("zzzzzz@2030-01-01T12:00:00.000Z"), "the edit names the copy it replaces")
        #expect(FileManager.default.fileExists(atPath: workouts + "/" + copy), "the copy stays on disk, kept aside")

        // The same after a restart (the index keeps the revision's `replaces`) and after a look.
        d.stop()
        try d.start()
        let restarted = try Self.title(d, id)
        #expect(restarted.list == "Edited here" && restarted.show == "Edited here", "\(restarted)")
        d.stop()
        try FileManager.default.removeItem(atPath: d.stateDir + "/index.jsonl")
        try d.start()
        let rebuilt = try Self.title(d, id)
        #expect(rebuilt.list == "Edited here", "from the files alone: \(rebuilt)")
    }
}
