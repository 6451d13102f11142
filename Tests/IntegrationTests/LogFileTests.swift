import Foundation
import Testing
import TestRequirements
import WorkoutCore

/// What a user tailing ~/.local/state/workoutd/workoutd.log sees during a workout.
@Suite(.serialized, .offPool) struct LogFileTests {
    @Test func tailShowsStatusLinesThenSavedStreakAndHealth() throws {
        let d = try DaemonHarness(config: #"""
        {"feeds":[{"kind":"socket"}],"statusLogSeconds":1,"log":{"file":true},"streaks":{"minimumSeconds":0}}
        """#)
        try d.start()
        _ = try d.request(#"{"command":"start","activity":"running"}"#)
        let feeder = FixFeeder(socket: d.feedSocket, start: Date().timeIntervalSince1970, rate: 10)
        usleep(4_300_000)
        feeder.stop()
        _ = try d.request(#"{"command":"stop"}"#)
        try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
        d.stop()
        let text = try String(contentsOfFile: d.stateDir + "/workoutd.log", encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        var parsed: [LogfmtLine] = []
        for line in lines {
            let p = LogfmtParser.parse(line)
            #expect(p != nil, "not logfmt: \(line)")
            if let p { parsed.append(p) }
        }
        let status = parsed.filter { $0["event"] == "workout.status" }
        #expect(status.count >= 3, "status lines: \(status.count)")
        let stamps = status.compactMap(\.timestamp)
        for (a, b) in zip(stamps, stamps.dropFirst()) {
            #expect(abs((b - a) - 1) < 0.3, "status interval \(b - a) s")
        }
        for s in status {
            for key in ["elapsed", "moving", "distance_km", "pace", "fix"] { #expect(s[key] != nil, "status line lacks \(key)") }
        }
        let events = parsed.compactMap { $0["event"] }
        guard let saved = events.firstIndex(of: "workout.saved") else { Issue.record("no saved line"); return }
        #expect(events.lastIndex(of: "workout.status")! < saved)
        #expect(events[saved...].contains("workout.health"))
        #expect(events[saved...].contains { $0.hasPrefix("streak.") }, "a streak line after the save: \(events[saved...])")
        let health = try #require(parsed.first { $0["event"] == "workout.health" })
        #expect(health["fix_rate_hz"] != nil && health["rejected_warm_up"] != nil && health["signal_lost_s"] != nil)
    }
}

@Suite(.serialized, .offPool, .requires(.sharedData))
struct PersonalBestLogTests {
    /// The first run over a route sets personal bests (400 m, 1 km); the same route again ties
    /// them, which is not a new best.
    @Test func personalBestsAreAnnouncedOnSave() throws {
        let file = DaemonHarness.sharedRoot.appendingPathComponent("data/gpx/garminconnect.gpx").path
        let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}],"log":{"file":true}}"#)
        try d.start()
        func record() throws {
            #expect(try d.ctl(["start", "running"]).status == 0)
            #expect(try d.ctl(["simulate", file, "--speed", "100"]).status == 0)
            usleep(200_000)
            #expect(try d.ctl(["stop"]).status == 0)
            try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
        }
        // Log lines are written a moment after the replies: the first run's two are waited for,
        // the tie's absence is read once the stopped daemon has written all it logged.
        func bests(_ lines: [Substring]) -> [String] {
            lines.compactMap { LogfmtParser.parse(String($0)) }
                .filter { $0["event"] == "record.personal_best" }.compactMap { $0["distance_m"] }
        }
        try record()
        let first = bests(d.logFileLines { bests($0).count >= 2 })
        #expect(first == ["400.0", "1000.0"], "first run: \(first)")
        try record()
        d.stop()
        #expect(bests(d.logFileLines(waitingUpTo: 0) { _ in true }) == first, "a tie is not a new personal best")
    }
}
