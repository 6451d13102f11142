import Foundation
import Glibc
import Testing
import TestRequirements

/// Regression (issue 18): once in about forty runs, `simulate FILE --speed 0; stop` saved 1,210
/// of 1,286 points: the daemon answered `stop` before it had read the feed lines the simulation
/// had sent (and closed) before the request. A request now first reads every feed line already
/// in the feed sockets (`FeedHub.catchUp`).
@Suite(.serialized) struct SimulationStopRaceTests {
    /// The race made certain: thousands of lines are queued in the feed socket and closed, and
    /// `stop` arrives on a control connection opened beforehand, a few microseconds later (the
    /// daemon reads a feed for at most 1 ms per turn of its loop).
    @Test func stopCountsEveryLineSentBeforeIt() throws {
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}]}"#)
        try d.start()
        defer { d.stop() }
        for round in 0..<3 {
            #expect(try d.request(#"{"command":"start","activity":"running"}"#)["ok"] as? Bool == true)
            let control = try UnixClient(path: d.controlSocket)
            defer { control.close() }
            let feed = try UnixClient(path: d.feedSocket)
            let n = 4000
            var text = #"{"class":"SIMULATION","speed":0}"# + "\n"
            for k in 0..<n {
                text += #"{"class":"FIX","time":"\#(FixFeeder.iso(1_795_000_000 + Double(round * 10_000 + k)))","lat":48.1,"lon":\#(String(format: "%.6f", 11.0 + Double(k) * 0.00004)),"mode":3,"eph":3}"# + "\n"
            }
            try feed.send(text)
            feed.close()
            try control.send(#"{"command":"stop"}"# + "\n")
            let reply = try DaemonHarness.parse(try #require(try control.readLine()))
            let workout = try #require(reply["workout"] as? [String: Any], "\(reply)")
            #expect(workout["pointCount"] as? Int == n, "round \(round): stop counted \(workout["pointCount"] ?? "-") of \(n) points")
            _ = try d.waitForStatus(seconds: 10) { $0["state"] as? String == "idle" }
        }
    }

    /// The user's form, many times: `simulate FILE --speed 0; stop` counts every point.
    @Test(.requires(.sharedData))
    func simulateThenStopCountsEveryPoint() throws {
        let file = DaemonHarness.sharedRoot.appendingPathComponent("data/gpx/globalsat_gh625XT.gpx").path
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}]}"#)
        try d.start()
        defer { d.stop() }
        var counts: [Int] = []
        for _ in 0..<20 {
            #expect(try d.ctl(["start", "hiking"]).status == 0)
            #expect(try d.ctl(["simulate", file, "--speed", "0"]).status == 0)
            let stop = try DaemonHarness.parse(try d.ctl(["--json", "stop"]).stdout)
            counts.append((stop["workout"] as? [String: Any])?["pointCount"] as? Int ?? -1)
            _ = try d.waitForStatus(seconds: 10) { $0["state"] as? String == "idle" }
        }
        #expect(counts.allSatisfy { $0 == 174 }, "points counted by stop in 20 runs: \(counts)")
    }
}
