import Foundation
import Glibc
import Testing
import TestRequirements

extension ReliabilitySuite {
    /// A flood of fixes on the feed socket (offered at 100,000 lines/s for 4 s) during a GPS workout must not
    /// starve control requests: status round trips are timed before and during the flood; the
    /// 99th percentile during the flood is reported against its 10 ms target and must stay under
    /// `starvedSeconds`. The flood's achieved rate (what the daemon actually took in) is measured
    /// and reported too, so a slow flood cannot pass unseen. The daemon is embedded (the same
    /// `Daemon` on a loop thread of its own, over its real sockets); the sender and the sampler are
    /// threads of the test as before: only the daemon moved into the test's process.
    /// Opt-in (`heavy`): .ci/reliability.sh runs it alone, in a test process of its own.
    @Suite(.requires(ReliabilitySuite.heavy)) struct FloodTests {
        /// A status p99 this long during the flood means the control socket waited behind the
        /// feed: ten times the 10 ms target.
        static let starvedSeconds = 0.100
        /// `count` JSON fix lines, 100 Hz fix times from `start`, moving east at 3 m/s, in chunks of
        /// `perChunk` lines, built as bytes (formatting 500k lines with Foundation takes too long).
        static func fixLines(start: Double, count: Int, perChunk: Int) -> [[UInt8]] {
            var prefixes: [Int: [UInt8]] = [:]
            func prefix(_ sec: Int) -> [UInt8] {
                if let p = prefixes[sec] { return p }
                var t = time_t(sec)
                var tm = tm()
                gmtime_r(&t, &tm)
                let s = String(format: #"{"class":"FIX","time":"%04d-%02d-%02dT%02d:%02d:%02d."#, Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1, Int(tm.tm_mday), Int(tm.tm_hour), Int(tm.tm_min), Int(tm.tm_sec))
                prefixes[sec] = Array(s.utf8)
                return prefixes[sec]!
            }
            func digits(_ v: Int, width: Int, into out: inout [UInt8]) {
                var d = [UInt8](repeating: 48, count: width)
                var x = v
                for k in stride(from: width - 1, through: 0, by: -1) { d[k] = UInt8(48 + x % 10); x /= 10 }
                out += d
            }
            let base = Int(start)
            let degPerFix = 3.0 / 100 / (111_320 * cos(48.1 * .pi / 180))
            let mid = Array(#"Z","lat":48.10000000,"lon":11."#.utf8)
            let tail = Array(#","alt":500,"mode":3,"eph":3}"#.utf8) + [10]
            var chunks: [[UInt8]] = []
            var chunk: [UInt8] = []
            chunk.reserveCapacity(perChunk * 110)
            for i in 0..<count {
                chunk += prefix(base + i / 100)
                digits(i % 100, width: 2, into: &chunk)
                chunk += mid
                digits(50_000_000 + Int(Double(i) * degPerFix * 1e8), width: 8, into: &chunk)
                chunk += tail
                if (i + 1) % perChunk == 0 { chunks.append(chunk); chunk.removeAll(keepingCapacity: true) }
            }
            if !chunk.isEmpty { chunks.append(chunk) }
            return chunks
        }

        /// Times `status` round trips: on one kept connection, and with a new connection each time
        /// (as workoutctl does), alternating, every `interval` seconds while `keepGoing()`.
        static func sampleStatus(_ d: some DaemonUnderTest, interval: Double, while keepGoing: () -> Bool) throws -> (kept: [Double], fresh: [Double]) {
            let c = try UnixClient(path: d.controlSocket)
            defer { c.close() }
            var kept: [Double] = [], fresh: [Double] = []
            let line = #"{"command":"status"}"# + "\n"
            var pace = Pace(every: interval)
            while keepGoing() {
                var t0 = Reliability.monotonic()
                try c.send(line)
                guard try c.readLine() != nil else { throw HarnessError.closed }
                kept.append(Reliability.monotonic() - t0)
                t0 = Reliability.monotonic()
                let f = try UnixClient(path: d.controlSocket)
                try f.send(line)
                let reply = try f.readLine()
                f.close()
                guard reply != nil else { throw HarnessError.closed }
                fresh.append(Reliability.monotonic() - t0)
                pace.next()
            }
            return (kept, fresh)
        }

        static func summary(_ s: [Double]) -> String {
            "n=\(s.count) p50=\(Reliability.ms(Reliability.quantile(s, 0.5))) p99=\(Reliability.ms(Reliability.quantile(s, 0.99))) max=\(Reliability.ms(s.max() ?? .nan))"
        }

        @Test func feedFloodDoesNotDelayControlRequests() throws {
            let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}]}"#)
            try d.start()
            defer { d.stop() }
            _ = try d.request(#"{"command":"start","activity":"running"}"#)
            // Offered for at most `seconds`: whatever the daemon does not take in by then stays unsent
            // (the socket pushes back), so the achieved rate is what the daemon can ingest.
            let rate = 100_000.0, seconds = 4.0
            let chunks = Self.fixLines(start: Date().timeIntervalSince1970, count: Int(rate * seconds), perChunk: 1000)

            // Baseline: the same sampling with no flood.
            let t0 = Reliability.monotonic()
            let base = try Self.sampleStatus(d, interval: 0.002) { Reliability.monotonic() - t0 < 1.5 }

            // The flood: one feed connection, 1,000 lines every 10 ms (catching up when behind).
            final class Flood: @unchecked Sendable {
                let lock = NSLock()
                var sentLines = 0, done = false, failed: String?
                var elapsed = 0.0
            }
            let flood = Flood()
            let feedPath = d.feedSocket
            let sender = Thread {
                guard let feed = try? UnixClient(path: feedPath) else {
                    flood.lock.lock(); flood.failed = "connect"; flood.done = true; flood.lock.unlock(); return
                }
                defer { feed.close() }
                let start = Reliability.monotonic()
                var pace = Pace(every: 0.01, whenLate: .catchesUp)
                for chunk in chunks {
                    if Reliability.monotonic() - start >= seconds { break }
                    do { try feed.send(chunk) } catch { flood.lock.lock(); flood.failed = "\(error)"; flood.lock.unlock(); break }
                    flood.lock.lock(); flood.sentLines += 1000; flood.lock.unlock()
                    pace.next()
                }
                flood.lock.lock(); flood.done = true; flood.elapsed = Reliability.monotonic() - start; flood.lock.unlock()
            }
            let floodStart = Reliability.monotonic()
            sender.start()
            // Measure once the flood is under way: its first 2,000 lines in.
            _ = pollUntil(seconds: 5) { flood.lock.lock(); defer { flood.lock.unlock() }; return flood.sentLines >= 2000 || flood.done }
            let during = try Self.sampleStatus(d, interval: 0.002) { flood.lock.lock(); defer { flood.lock.unlock() }; return !flood.done }
            flood.lock.lock(); let sent = flood.sentLines, sendSeconds = flood.elapsed, failed = flood.failed; flood.lock.unlock()
            #expect(failed == nil, "the feed connection failed: \(failed ?? "")")

            // Everything sent must be taken in (counted as points of the workout).
            func pointCount(_ s: [String: Any]) -> Int { ((s["workout"] as? [String: Any])?["pointCount"] as? Int) ?? 0 }
            let points = pointCount(try d.waitForStatus(seconds: 60) { pointCount($0) >= sent })
            let drained = Reliability.monotonic() - floodStart
            #expect(points == sent, "the daemon recorded \(points) of \(sent) flood lines")
            // The same sampling with the flood over, the workout now holding the flood's points.
            let t1 = Reliability.monotonic()
            let after = try Self.sampleStatus(d, interval: 0.002) { Reliability.monotonic() - t1 < 1.5 }

            Reliability.report("flood offered", "\(sent) fix lines in \(String(format: "%.2f", sendSeconds)) s = \(Int(Double(sent) / sendSeconds)) lines/s (target \(Int(rate)))")
            Reliability.report("flood taken in by the daemon", "\(points) points in \(String(format: "%.2f", drained)) s = \(Int(Double(points) / drained)) lines/s")
            Reliability.report("status, no flood, kept connection", Self.summary(base.kept))
            Reliability.report("status, no flood, new connection", Self.summary(base.fresh))
            Reliability.report("status during flood, kept connection", Self.summary(during.kept) + " (target p99 < 10 ms)")
            Reliability.report("status during flood, new connection", Self.summary(during.fresh) + " (target p99 < 10 ms)")
            Reliability.report("status after the flood (\(points) points), kept connection", Self.summary(after.kept))
            Reliability.report("status after the flood (\(points) points), new connection", Self.summary(after.fresh))
            #expect(during.kept.count >= 300, "enough samples for a p99: \(during.kept.count)")
            // The 10 ms p99 target is a figure the reliability step prints ("target p99 < 10 ms"),
            // not an assert: on CI's virtual machines the host steals up to 13 % of the CPU, and
            // quiet runs of one binary gave p99 3.7-14.5 ms (docs/testing.md). The assert is the
            // property: the control socket is served during the flood, not starved behind the
            // feed (a starved loop answers in seconds, not in tens of milliseconds).
            #expect(Reliability.quantile(during.kept, 0.99) < Self.starvedSeconds, "status p99 during the flood (kept connection): \(Self.summary(during.kept))")
            #expect(Reliability.quantile(during.fresh, 0.99) < Self.starvedSeconds, "status p99 during the flood (new connection): \(Self.summary(during.fresh))")
            #expect(d.isRunning)
        }
    }
}
