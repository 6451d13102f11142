import Foundation
import Testing
import TestRequirements
import WorkoutCore
@testable import WorkoutDaemon

/// What a user tailing ~/.local/state/workoutd/workoutd.log sees during a workout. (The daemon
/// embedded; the status lines on a `ManualClock`: 4.3 s of a workout without waiting for them.)
@Suite(.serialized) struct LogFileTests {
    @Test func tailShowsStatusLinesThenSavedStreakAndHealth() throws {
        let clock = ManualClock()
        let d = try EmbeddedDaemon(config: #"""
        {"feeds":[{"kind":"socket"}],"statusLogSeconds":1,"log":{"file":true},"streaks":{"minimumSeconds":0}}
        """#, clock: clock)
        try d.start()
        _ = try d.request(#"{"command":"start","activity":"running"}"#)
        // 4.3 s of fixes at 10 Hz, 3 m/s east, each sent at its time on the daemon's clock and
        // read before the clock moves on (a request first reads what the feed socket holds).
        let feed = try UnixClient(path: d.feedSocket)
        for i in 0..<43 {
            let lon = 11.5 + Double(i) * 3 / 10 / (111_320 * cos(48.1 * .pi / 180))
            try feed.send(#"{"class":"FIX","time":"\#(FixFeeder.iso(clock.wall()))","lat":48.1,"lon":\#(String(format: "%.8f", lon)),"alt":500,"mode":3,"eph":3}"# + "\n")
            _ = try d.request(#"{"command":"status"}"#)
            d.advance(0.1)
        }
        feed.close()
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

/// (The daemon embedded, on the system's clocks; the route simulated as fast as it is read.)
@Suite(.serialized, .requires(.sharedData))
struct PersonalBestLogTests {
    /// The first run over a route sets personal bests (400 m, 1 km); the same route again ties
    /// them, which is not a new best.
    @Test func personalBestsAreAnnouncedOnSave() throws {
        let file = DaemonHarness.sharedRoot.appendingPathComponent("data/gpx/garminconnect.gpx").path
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"log":{"file":true}}"#)
        try d.start()
        func record() throws {
            #expect(try d.ctl(["start", "running"]).status == 0)
            #expect(try d.ctl(["simulate", file, "--speed", "0"]).status == 0)
            // `stop` first reads what the simulation sent (FeedHub.catchUp): no wait needed.
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
