import Foundation
import Glibc
import Testing
import WorkoutCore

/// Issue 15 item 2: a damaged `index.jsonl` must not hide saved workouts. Right after start-up
/// the index is checked against the workout files (names and stamps, off the event loop) and
/// what differs is read again; nothing is appended to a torn last line. (Issue 30: the index
/// lives in the state directory.)
@Suite(.serialized) struct HistoryIndexTests {
    static func saveWorkouts(_ d: some DaemonUnderTest, _ n: Int) throws {
        for _ in 0..<n {
            #expect(try d.request(#"{"command":"start","activity":"treadmill_running"}"#)["ok"] as? Bool == true)
            #expect(try d.request(#"{"command":"stop"}"#)["ok"] as? Bool == true)
            let status = try d.waitForStatus(seconds: 4) { $0["state"] as? String == "idle" }
            try #require(status["state"] as? String == "idle")
        }
    }

    static func listed(_ d: some DaemonUnderTest) throws -> Int {
        (try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []).count
    }

    /// The count listed once it is `n` (the first look at the folder runs just after start-up), or after 10 s.
    static func listed(_ d: some DaemonUnderTest, becoming n: Int) throws -> Int {
        var count = 0
        try pollUntil(seconds: 10) { count = try listed(d); return count == n }
        return count
    }

    @Test(arguments: ["cut mid-line", "empty", "10 bytes", "missing"])
    func damagedIndexHidesNoWorkout(_ damage: String) throws {
        let d = try EmbeddedDaemon()
        try d.start()
        try Self.saveWorkouts(d, 7)
        #expect(try Self.listed(d) == 7)
        d.stop()
        let index = d.stateDir + "/index.jsonl"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: index))
        switch damage {
        case "cut mid-line": try bytes.prefix(bytes.count - 40).write(to: URL(fileURLWithPath: index))
        case "empty": try Data().write(to: URL(fileURLWithPath: index))
        case "10 bytes": try bytes.prefix(10).write(to: URL(fileURLWithPath: index))
        default: try FileManager.default.removeItem(atPath: index)
        }
        try d.start()
        let afterDamage = try Self.listed(d, becoming: 7)
        print("index \(damage): \(afterDamage) of 7 listed after restart")
        #expect(afterDamage == 7, "\(damage): \(afterDamage) of 7 listed")
        // The next save is not appended onto a torn line: it survives another restart.
        try Self.saveWorkouts(d, 1)
        d.stop()
        try d.start()
        #expect(try Self.listed(d, becoming: 8) == 8)
        let text = try String(contentsOfFile: index, encoding: .utf8)
        #expect(text.hasSuffix("\n") && text.split(separator: "\n").count == 8, "one line per workout")
        d.stop()
    }

    /// The first `list` after a start without an index waits for the first look at the folder:
    /// 400 workouts written by another hand (as a restored backup or a sync engine leaves them),
    /// the index gone, and the very first `list` and `show` after start-up find every one, not
    /// the few read so far (CI under load listed none: ConflictAncestryTests).
    @Test func theFirstListAfterALostIndexShowsEveryFile() throws {
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}]}"#)
        try d.start()
        d.stop()
        let n = 400, t0 = 1_790_000_000.0
        let other = MachineTag(rawValue: "backup")!
        var last = ""
        for k in 0..<n {
            let start = t0 + Double(k) * 86_400
            var s = WorkoutSummary(id: WorkoutID(start: start, suffix: UInt16(k), machine: other), activity: .running, startedAt: start, endedAt: start + 600)
            s.pointCount = 200
            s.acceptedCount = 200
            let points = (0..<200).map { i in TrackPoint(fix: Fix(time: start + Double(i) * 3, latitude: 47 + Double(i) * 1e-4, longitude: 8, altitude: 400, speed: 3)) }
            let bytes = WorkoutFile.encode(Workout(summary: s, points: points, events: []), revision: Revision(editedAt: start + 700, machine: other, host: "backup"))
            try Data(bytes).write(to: URL(fileURLWithPath: d.dataDir + "/workouts/\(s.id.rawValue).json"))
            last = s.id.rawValue
        }
        try? FileManager.default.removeItem(atPath: d.stateDir + "/index.jsonl")
        try? FileManager.default.removeItem(atPath: d.stateDir + "/index.start")
        try d.start()
        defer { d.stop() }
        #expect(try Self.listed(d) == n, "the first list after start-up")
        #expect((try d.request(#"{"command":"show","id":"\#(last)"}"#)["workout"] as? [String: Any])?["id"] as? String == last)
    }

    /// An index line whose workout file is gone (deleted by hand) is not listed.
    @Test func indexEntryWithoutItsFileIsDropped() throws {
        let d = try EmbeddedDaemon()
        try d.start()
        try Self.saveWorkouts(d, 2)
        d.stop()
        let files = try FileManager.default.contentsOfDirectory(atPath: d.dataDir + "/workouts")
        try FileManager.default.removeItem(atPath: d.dataDir + "/workouts/" + files[0])
        try d.start()
        #expect(try Self.listed(d, becoming: 1) == 1)
        d.stop()
    }
}
