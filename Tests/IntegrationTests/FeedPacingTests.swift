import Foundation
import Testing
import TestRequirements

/// A light GPS feed is read when the daemon wakes anyway, not once per fix (the CPU budget of
/// issue 9), and nothing a user sees lags behind it: a reply counts every fix sent before the
/// request. The daemon is embedded, on the system's clocks: what is counted is its loop thread's
/// sleeps over real seconds (the idle rate is measured over 3 s of waiting; the policy itself is
/// FeedPaceTests'). The test takes ~10 s, waiting asynchronously: it holds no pool thread.
@Suite(.peerBound, .serialized) struct FeedPacingTests {
    /// Voluntary context switches of the thread `task` ("PID/task/TID", /proc/thread-self read
    /// on it): one per sleep in poll, fdatasync or a blocking write. A count, not a time.
    static func loopSwitches(_ task: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(task)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches:") {
            return Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    @Test func aTenHertzFeedAddsFarFewerWakeUpsThanFixes() async throws {
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}]}"#)
        try d.start()
        defer { d.stop() }
        let task = try #require(d.onLoop { _ in try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self") })
        _ = try d.request(#"{"command":"start","activity":"running"}"#)
        // The same workout without a feed: the timers' wake-ups and the journal's fdatasync
        // (which sleeps too, more or less often depending on the disk).
        await Pace.windowSuspending(1)
        let idle0 = try #require(Self.loopSwitches(task)), idleStart = Pace.now()
        await Pace.windowSuspending(3)  // at least 3 s: the rate is over the window's real length
        let idlePerSecond = Double(try #require(Self.loopSwitches(task)) - idle0) / (Pace.now() - idleStart)
        let feeder = FixFeeder(socket: d.feedSocket, start: Date().timeIntervalSince1970, rate: 10)
        // The feed's first second decides its pace: measured from its 16th fix on, over 40.
        try #require(await waitUntil(seconds: 10) { feeder.sent >= 16 }, "the feeder sent \(feeder.sent)")
        let switches0 = try #require(Self.loopSwitches(task)), sent0 = feeder.sent, t0 = Date()
        try #require(await waitUntil(seconds: 20) { feeder.sent - sent0 >= 40 }, "the feeder sent \(feeder.sent - sent0)")
        let switches = try #require(Self.loopSwitches(task)) - switches0, fixes = feeder.sent - sent0
        let seconds = Date().timeIntervalSince(t0)
        feeder.stop()
        let workout = try #require(try d.request(#"{"command":"status"}"#)["workout"] as? [String: Any])
        // Every fix sent before the request is in the reply, though the feed is read lazily.
        #expect(workout["pointCount"] as? Int == feeder.sent)
        // Read at once, each fix would add a wake-up (~40 over these 4 s); coalesced, ~none.
        let added = Double(switches) - idlePerSecond * seconds
        #expect(added < Double(fixes) / 4, "\(switches) loop switches for \(fixes) fixes; \(idlePerSecond)/s without the feed")
        print("feed pacing: \(fixes) fixes at 10 Hz in \(String(format: "%.1f", seconds)) s, \(switches) voluntary context switches of the loop thread; without a feed \(idlePerSecond)/s")
    }
}
