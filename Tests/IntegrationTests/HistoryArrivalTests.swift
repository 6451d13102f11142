import Foundation
import Glibc
import Testing
import WorkoutCore

/// Issue 30: many workout files arriving at once (a machine joining a shared history folder)
/// are indexed off the event loop: `status` is answered meanwhile, and every file is listed.
/// (The 10,000-file timing is `workoutbench arrival`, BENCHMARKS.md.)
@Suite(.serialized) struct HistoryArrivalTests {
    @Test func manyFilesArrivingAtOnceAreAllListed() throws {
        let setup = Date()
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}]}"#)
        try d.start()
        defer { d.stop() }
        let n = 500
        let staging = d.dir + "/staging"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        let other = MachineTag(rawValue: "joined")!
        for k in 0..<n {
            let start = 1_700_000_000 + Double(k) * 86_400
            var s = WorkoutSummary(id: WorkoutID(start: start, suffix: UInt16(k % 65_536), machine: other), activity: .running, startedAt: start, endedAt: start + 1800)
            s.elapsedSeconds = 1800
            let bytes = WorkoutFile.encode(Workout(summary: s), revision: Revision(editedAt: start + 1800, machine: other, host: "desktop"))
            try Data(bytes).write(to: URL(fileURLWithPath: staging + "/" + s.id.rawValue + ".json"))
        }
        let t0 = Date()
        print("daemon up and \(n) files written in \(String(format: "%.1f", t0.timeIntervalSince(setup))) s")
        for name in try FileManager.default.contentsOfDirectory(atPath: staging) {
            #expect(rename(staging + "/" + name, d.dataDir + "/workouts/" + name) == 0)
        }
        // `status` every 20 ms, `list` every 10th time (a list of hundreds costs the loop more
        // than a status), and once more at the end whatever the count.
        var worst = 0.0, listed = 0, statusOK = true, k = 0
        try pollUntil(seconds: 120) {
            let s0 = Date()
            let status = try d.request(#"{"command":"status"}"#)
            worst = max(worst, Date().timeIntervalSince(s0))
            statusOK = statusOK && status["ok"] as? Bool == true
            k += 1
            guard k % 10 == 0 else { return false }
            listed = (try d.request(#"{"command":"list"}"#)["workouts"] as? [Any])?.count ?? 0
            return listed == n
        }
        if listed != n { listed = (try d.request(#"{"command":"list"}"#)["workouts"] as? [Any])?.count ?? 0 }
        #expect(statusOK, "status answered meanwhile")
        print("\(n) arriving files listed after \(String(format: "%.2f", Date().timeIntervalSince(t0))) s; slowest status \(String(format: "%.1f", worst * 1000)) ms")
        #expect(listed == n)
        d.stop()
        let log = d.stderrText()
        #expect(log.contains("event=history.arrived_many"), "one line, not \(n)")
    }
}
