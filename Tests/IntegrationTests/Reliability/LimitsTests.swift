import Foundation
import Glibc
import Testing
import WorkoutDaemon

extension ReliabilitySuite {
    /// The `limits` of docs/config.md against the daemon (embedded, on the system's clocks: the
    /// timeouts are measured in real seconds): request size, client count, idle and slow
    /// (slowloris) clients. A feed flood that must not delay control requests: `FloodTests`.
    @Suite struct LimitsTests {
        /// Seconds until the daemon closes `c` (EOF or reset), reading and discarding replies; nil
        /// if still open after `limit` seconds.
        static func secondsUntilClosed(_ c: UnixClient, limit: Double) -> Double? {
            let t0 = Reliability.monotonic()
            var tv = timeval(tv_sec: 0, tv_usec: 200_000)
            setsockopt(c.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            var buf = [UInt8](repeating: 0, count: 4096)
            while Reliability.monotonic() - t0 < limit {
                let n = recv(c.fd, &buf, buf.count, 0)
                if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) { return Reliability.monotonic() - t0 }
            }
            return nil
        }

        @Test func requestLineLimitIsExact() throws {
            let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"limits":{"maxRequestBytes":1024}}"#)
            try d.start()
            defer { d.stop() }
            let request = #"{"command":"status"}"#
            func padded(_ n: Int) -> String { String(request.dropLast()) + String(repeating: " ", count: n - request.count) + "}" }
            // Exactly 1024 bytes (before the newline; a CR does not count): served, connection stays.
            let c = try UnixClient(path: d.controlSocket)
            defer { c.close() }
            try c.send(padded(1024) + "\r\n")
            let ok = try DaemonHarness.parse(try #require(try c.readLine()))
            #expect(ok["ok"] as? Bool == true)
            try c.send(padded(1024) + "\n")
            #expect(try DaemonHarness.parse(try #require(try c.readLine()))["ok"] as? Bool == true)
            // 1025 bytes: bad_request naming the limit, then the connection is closed.
            let big = try UnixClient(path: d.controlSocket)
            defer { big.close() }
            try big.send(padded(1025) + "\n")
            let err = try DaemonHarness.parse(try #require(try big.readLine()))
            #expect((err["error"] as? [String: Any])?["code"] as? String == "bad_request")
            #expect(((err["error"] as? [String: Any])?["message"] as? String)?.contains("1024") == true)
            #expect(try big.readLine() == nil)
            // Without a newline at all: the error comes as soon as the limit is passed.
            let endless = try UnixClient(path: d.controlSocket)
            defer { endless.close() }
            try endless.send(String(repeating: "x", count: 2000))
            #expect((try endless.readLine())?.contains("longer than 1024") == true)
        }

        @Test func clientLimitRefusesWithBusyAndRecovers() throws {
            let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"limits":{"maxClients":4}}"#)
            try d.start()
            defer { d.stop() }
            // No client before these (an embedded daemon is ready when `start()` returns: no
            // readiness connection to wait out).
            var held: [UnixClient] = []
            for _ in 0..<4 {
                let c = try UnixClient(path: d.controlSocket)
                try c.send(#"{"command":"status"}"# + "\n")
                #expect(try c.readLine()?.contains(#""ok":true"#) == true)
                held.append(c)
            }
            let fifth = try UnixClient(path: d.controlSocket)
            let refused = try DaemonHarness.parse(try #require(try fifth.readLine()))
            #expect((refused["error"] as? [String: Any])?["code"] as? String == "busy")
            #expect(try fifth.readLine() == nil, "closed after busy")
            fifth.close()
            // One leaves: the next is served.
            held.removeFirst().close()
            // `busy` until the daemon has seen it close (its next turn), then served.
            #expect(pollUntil(seconds: 5) { (try? d.request(#"{"command":"status"}"#))?["ok"] as? Bool == true })
            for c in held { c.close() }
        }

        @Test func idleAndSlowClientsAreTimedOut() throws {
            let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"limits":{"clientTimeoutSeconds":2}}"#)
            try d.start()
            defer { d.stop() }
            // Idle: connected, says nothing.
            let idle = try UnixClient(path: d.controlSocket)
            defer { idle.close() }
            // Idle after a request.
            let after = try UnixClient(path: d.controlSocket)
            defer { after.close() }
            try after.send(#"{"command":"status"}"# + "\n")
            _ = try after.readLine()
            // Silent mid-request.
            let half = try UnixClient(path: d.controlSocket)
            defer { half.close() }
            try half.send(#"{"command":"sta"#)
            let tIdle = Self.secondsUntilClosed(idle, limit: 6)
            let tAfter = Self.secondsUntilClosed(after, limit: 6)
            let tHalf = Self.secondsUntilClosed(half, limit: 6)
            for (name, t) in [("idle", tIdle), ("idle after a request", tAfter), ("silent mid-request", tHalf)] {
                let secs = try #require(t, "\(name) client still open after 6 s with a 2 s timeout")
                #expect(secs <= 4.0, "\(name) closed after \(secs) s")
            }
            Reliability.report("idle client closed after (timeout 2 s)", String(format: "%.2f s", tIdle ?? -1))

            // Slowloris: one byte every 0.5 s, never a whole line. Each byte is activity, but the
            // request as a whole must not take longer than the timeout.
            let slow = try UnixClient(path: d.controlSocket)
            defer { slow.close() }
            let t0 = Reliability.monotonic()
            var closedAfter: Double?
            let bytes = Array(#"{"command":"status","padding":"#.utf8) + Array(repeating: UInt8(ascii: "x"), count: 100)
            for b in bytes {
                do { try slow.send([b]) } catch { closedAfter = Reliability.monotonic() - t0; break }
                if Self.secondsUntilClosed(slow, limit: 0.5) != nil { closedAfter = Reliability.monotonic() - t0; break }
                if Reliability.monotonic() - t0 > 10 { break }
            }
            let slowSecs = try #require(closedAfter, "a client trickling one byte every 0.5 s was still connected after 10 s (timeout 2 s)")
            #expect(slowSecs <= 4.0, "slowloris closed after \(slowSecs) s")
            Reliability.report("slowloris (1 byte / 0.5 s) closed after (timeout 2 s)", String(format: "%.2f s", slowSecs))
            #expect(try d.request(#"{"command":"status"}"#)["ok"] as? Bool == true)
        }

        /// A patient but legitimate client (a whole request every second) is never cut off, while
        /// a silent one beside it is: on a `ManualClock`, the seconds pass when the test says.
        @Test func aSteadyClientIsNeverCutOff() throws {
            let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"limits":{"clientTimeoutSeconds":2}}"#, clock: ManualClock())
            try d.start()
            defer { d.stop() }
            let silent = try UnixClient(path: d.controlSocket)
            defer { silent.close() }
            let steady = try UnixClient(path: d.controlSocket)
            defer { steady.close() }
            for _ in 0..<5 {
                try steady.send(#"{"command":"status"}"# + "\n")
                #expect(try steady.readLine()?.contains(#""ok":true"#) == true)
                d.advance(1)
            }
            try steady.send(#"{"command":"status"}"# + "\n")
            #expect(try steady.readLine()?.contains(#""ok":true"#) == true, "the steady client is served after 5 s")
            #expect(Self.secondsUntilClosed(silent, limit: 2) != nil, "the silent one was closed meanwhile (the clock drives the timeout)")
        }
    }
}
