import Foundation
import Glibc
import Testing
import WorkoutCore

/// Never lose a workout: SIGKILL at random moments while a feed runs, restart, check.
@Suite(.serialized) struct CrashRestoreTests {
    /// The fix records in the journal on disk (what a restart can restore).
    static func journalFixTimes(_ d: DaemonHarness) -> [Double] {
        guard let text = try? String(contentsOfFile: d.stateDir + "/current.journal", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            if case .fix(let f)? = JournalRecord.decodeLine(line) { return f.time }
            return nil
        }
    }

    @Test func hundredKillsLoseAtMostOneSecondEach() throws {
        let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}],"journalFlushSeconds":0.5,"statusLogSeconds":0}"#)
        try d.start()
        var rng = SystemRandomNumberGenerator()
        var id = (try d.request(#"{"command":"start","activity":"running"}"#)["workout"] as? [String: Any])?["id"] as? String ?? "?"
        var t0 = Date().timeIntervalSince1970
        var index = 0
        var worstLoss = 0.0
        var saves = 0
        var savedIDs: [String] = []
        for round in 0..<100 {
            let roundStart = t0
            let feeder = FixFeeder(socket: d.feedSocket, start: t0, index0: index)
            usleep(UInt32.random(in: 150_000...700_000, using: &rng))
            let stopping = round % 10 == 9
            if stopping {
                // Kill at a random moment around a stop: the save completes after restart.
                _ = try? d.request(#"{"command":"stop"}"#)
                usleep(UInt32.random(in: 0...3000, using: &rng))
            }
            d.kill9()
            feeder.stop()
            let lastSent = feeder.lastSentTime
            index += feeder.sent
            t0 = lastSent + 0.02
            if !stopping {
                let kept = Self.journalFixTimes(d)
                // Fixes sent this round and not in the journal (a round starts with none kept).
                let loss = lastSent - max(kept.last ?? roundStart, roundStart)
                worstLoss = max(worstLoss, loss)
                #expect(loss <= 1.0, "round \(round): \(loss) s of accepted fixes lost")
            }
            let journalBefore = (try? String(contentsOfFile: d.stateDir + "/current.journal", encoding: .utf8)) ?? "<none>"
            let previousLog = d.stderrText()
            try d.start()
            let s = try d.waitForStatus(seconds: 5) { ($0["state"] as? String).map { ["paused", "idle"].contains($0) } ?? false }
            if stopping {
                #expect(s["state"] as? String == "idle", "round \(round): the stop completed after restart")
                savedIDs.append(id)
                saves += 1
                id = (try d.request(#"{"command":"start","activity":"running"}"#)["workout"] as? [String: Any])?["id"] as? String ?? "?"
            } else {
                #expect(s["state"] as? String == "paused", "round \(round): restored paused")
                if s["state"] as? String != "paused" {
                    let lines = journalBefore.split(separator: "\n")
                    print("ROUND \(round) journal had \(lines.count) lines; first: \(lines.first ?? "") last: \(lines.last ?? "")")
                    print("previous daemon log tail: \(previousLog.suffix(800))")
                    print("new daemon log: \(d.stderrText())")
                }
                #expect((s["workout"] as? [String: Any])?["id"] as? String == id, "round \(round): same workout")
                _ = try d.request(#"{"command":"resume"}"#)
            }
        }
        _ = try d.request(#"{"command":"stop"}"#)
        try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
        savedIDs.append(id)
        // Every workout saved, every file parses, nothing left aside as damaged beyond torn tails.
        let listed = (try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        for sid in savedIDs {
            #expect(listed.contains(sid), "\(sid) saved and listed")
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: d.dataDir + "/workouts/\(sid).json")))
            #expect(throws: Never.self) { _ = try WorkoutFile.decode(bytes) }
        }
        print("crash test: 100 SIGKILLs, \(saves) during a stop, worst loss \(String(format: "%.3f", worstLoss)) s of fixes, \(savedIDs.count) workouts saved")
        d.stop()
    }
}
