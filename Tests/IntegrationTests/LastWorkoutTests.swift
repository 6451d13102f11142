import Foundation
import Testing

/// Issue 44: `last` names the newest saved workout wherever an ID is taken (the daemon replaces
/// it, so every client and the protocol have it), and `undelete last` the one deleted last.
@Suite(.serialized) struct LastWorkoutTests {
    /// A 5-minute GPX run starting at `start` (UTC seconds), imported; returns its ID.
    static func importRun(_ d: some DaemonUnderTest, start: Double, name: String) throws -> String {
        try d.importRun(name: name, start: start, points: 300, winding: false)
    }

    static func shownID(_ d: some DaemonUnderTest, _ args: [String]) throws -> String? {
        let r = try d.ctl(["--json"] + args)
        let reply = try DaemonHarness.parse(r.stdout.replacingOccurrences(of: "\n", with: ""))
        return (reply["workout"] as? [String: Any])?["id"] as? String
    }

    @Test func lastIsTheNewestWorkoutEverywhere() throws {
        let d = try EmbeddedDaemon(config: #"{"feeds": [], "web": {"listen": "127.0.0.1:0"}}"#)
        try d.start()
        defer { d.stop() }
        let none = try d.ctl(["show", "last"])
        #expect(none.status == 1 && none.stderr.contains("no saved workout yet"), "\(none.stderr)")
        // Imported newest first, so that the newest is neither the first nor the last saved.
        let newer = try Self.importRun(d, start: 1_795_100_000, name: "newer")
        let older = try Self.importRun(d, start: 1_795_000_000, name: "older")
        #expect(try Self.shownID(d, ["show", "last"]) == newer)
        #expect(try Self.shownID(d, ["show", "last", "--charts"]) == newer)
        let open = try d.ctl(["open", "last", "--print"])
        #expect(open.stdout.contains("/workouts/\(newer)?"), "\(open.stdout)")
        let edit = try d.ctl(["edit", "last", "--title", "Newest"])
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(try d.ctl(["--json", "export", "last", "--format", "gpx"]).stdout.contains("Newest"))
        // delete last removes the newest; last then names the other; undelete last restores it.
        #expect(try d.ctl(["delete", "last"]).status == 0)
        #expect(try Self.shownID(d, ["show", "last"]) == older)
        #expect(try d.ctl(["undelete", "last"]).status == 0)
        #expect(try Self.shownID(d, ["show", "last"]) == newer)
        let empty = try d.ctl(["undelete", "last"])
        #expect(empty.status == 1 && empty.stderr.contains("trash is empty"), "\(empty.stderr)")
    }
}
