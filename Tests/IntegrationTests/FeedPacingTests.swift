import Foundation
import Testing

/// A light GPS feed is read when the daemon wakes anyway, not once per fix (the CPU budget of
/// issue 9), and nothing a user sees lags behind it: a reply counts every fix sent before the
/// request.
@Suite(.serialized, .offPool) struct FeedPacingTests {
    /// Voluntary context switches of the daemon's loop thread (its main thread): one per sleep
    /// in poll, fdatasync or a blocking write. A count, not a time.
    static func loopSwitches(_ pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches:") {
            return Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    @Test func aTenHertzFeedAddsFarFewerWakeUpsThanFixes() throws {
        let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}]}"#)
        try d.start()
        defer { d.stop() }
        let pid = try #require(d.process?.processIdentifier)
        _ = try d.request(#"{"command":"start","activity":"running"}"#)
        // The same workout without a feed: the timers' wake-ups and the journal's fdatasync
        // (which sleeps too, more or less often depending on the disk).
        usleep(1_000_000)
        let idle0 = try #require(Self.loopSwitches(pid))
        usleep(3_000_000)
        let idlePerSecond = Double(try #require(Self.loopSwitches(pid)) - idle0) / 3
        let feeder = FixFeeder(socket: d.feedSocket, start: Date().timeIntervalSince1970, rate: 10)
        usleep(1_600_000)  // the feed's first second decides its pace
        let switches0 = try #require(Self.loopSwitches(pid)), sent0 = feeder.sent
        usleep(4_000_000)
        let switches = try #require(Self.loopSwitches(pid)) - switches0, fixes = feeder.sent - sent0
        feeder.stop()
        let workout = try #require(try d.request(#"{"command":"status"}"#)["workout"] as? [String: Any])
        // Every fix sent before the request is in the reply, though the feed is read lazily.
        #expect(workout["pointCount"] as? Int == feeder.sent)
        #expect(fixes >= 30)
        // Read at once, each fix would add a wake-up (~40 over these 4 s); coalesced, ~none.
        let added = Double(switches) - idlePerSecond * 4
        #expect(added < Double(fixes) / 4, "\(switches) loop switches for \(fixes) fixes; \(idlePerSecond)/s without the feed")
        print("feed pacing: \(fixes) fixes at 10 Hz in 4 s, \(switches) voluntary context switches of the loop thread; without a feed \(idlePerSecond)/s")
    }
}
