import Foundation
import Glibc
import Testing
import TestRequirements

extension ReliabilitySuite {
    /// Load on the real daemon: 200 clients at once each sending 200 requests (1,000 or more by
    /// hand: WORKOUTD_LOAD_REQUESTS=1000), and 10,000 connect / disconnect cycles; afterwards its
    /// open file descriptors (/proc/PID/fd) are exactly back to the baseline and its memory
    /// (VmRSS) within 1 MiB of it (after a warm-up round), which a leak of one malloc block (32
    /// bytes, the smallest) per request, or 110 bytes per connection, would exceed. The debug daemon
    /// answers ~1,500 requests/s on 2 cores: 200,000 requests took 137 s of CI, 40,000 take ~28.
    @Suite(.requires(ReliabilitySuite.heavy)) struct LoadTests {
        static let clients = 200, cycles = 10_000
        static let requestsPerClient = ProcessInfo.processInfo.environment["WORKOUTD_LOAD_REQUESTS"].flatMap { Int($0) } ?? 200

        /// `clients` threads, each with its own connection (all open at once before any request),
        /// sending `perClient` requests and reading every reply. Returns (ok replies, seconds).
        static func concurrentRound(_ socket: String, clients: Int, perClient: Int) -> (ok: Int, failures: [String], seconds: Double) {
            final class Tally: @unchecked Sendable {
                let lock = NSLock()
                var ok = 0, connected = 0, finished = 0
                var failures: [String] = []
            }
            let tally = Tally()
            let t0 = Reliability.monotonic()
            for k in 0..<clients {
                let t = Thread {
                    let request: [UInt8] = Array((k % 2 == 0 ? #"{"command":"status"}"# : #"{"command":"activities"}"#).utf8) + [10]
                    var mine = 0
                    do {
                        let c = try UnixClient(path: socket)
                        defer { c.close() }
                        tally.lock.lock(); tally.connected += 1; tally.lock.unlock()
                        // Start together: every connection is open before the first request.
                        pollUntil(seconds: 60, every: 0.001) { tally.lock.lock(); defer { tally.lock.unlock() }; return tally.connected >= clients }
                        // A lean reader (one reused buffer): UnixClient.readLine allocates 64 KiB per
                        // call, which on 2 cores would measure the test's memset, not the daemon.
                        var buf = [UInt8](repeating: 0, count: 65536)
                        let okPrefix = Array(#"{"ok":true"#.utf8)
                        for _ in 0..<perClient {
                            try c.send(request)
                            var have = 0
                            while have == 0 || buf[have - 1] != 10 {
                                if have == buf.count { buf += [UInt8](repeating: 0, count: buf.count) }
                                let n = buf.withUnsafeMutableBytes { recv(c.fd, $0.baseAddress! + have, $0.count - have, 0) }
                                if n == 0 { throw HarnessError.closed }
                                if n < 0 { if errno == EINTR { continue }; throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                                have += n
                            }
                            // One request in flight per connection, so the reply is exactly one line.
                            guard buf[..<have].firstIndex(of: 10) == have - 1 else { throw HarnessError.notAnObject("more than one line") }
                            if buf[..<okPrefix.count].elementsEqual(okPrefix) { mine += 1 } else {
                                throw HarnessError.notAnObject(String(decoding: buf[..<min(have, 200)], as: UTF8.self))
                            }
                        }
                    } catch {
                        tally.lock.lock(); tally.failures.append("client \(k): \(error)"); tally.connected = clients; tally.lock.unlock()
                    }
                    tally.lock.lock(); tally.ok += mine; tally.finished += 1; tally.lock.unlock()
                }
                t.stackSize = 256 << 10
                t.start()
            }
            pollUntil(seconds: 600, every: 0.01) { tally.lock.lock(); defer { tally.lock.unlock() }; return tally.finished == clients }
            return (tally.ok, tally.failures, Reliability.monotonic() - t0)
        }

        /// `n` connect/close cycles; every 10th sends a request and reads the reply first.
        static func cycleRound(_ socket: String, n: Int) throws -> (answered: Int, seconds: Double) {
            let t0 = Reliability.monotonic()
            var answered = 0
            for i in 0..<n {
                let c = try UnixClient(path: socket)
                if i % 10 == 0 {
                    try c.send(#"{"command":"status"}"# + "\n")
                    if try c.readLine()?.hasPrefix(#"{"ok":true"#) == true { answered += 1 }
                }
                c.close()
            }
            return (answered, Reliability.monotonic() - t0)
        }

        /// Waits until the daemon holds `fds` descriptors again (it closes a client when it sees EOF).
        static func settle(_ pid: Int32, fds: Int) -> Int {
            pollUntil(seconds: 5, every: 0.05) { Reliability.fdCount(pid) == fds }
            Pace.window(0.3)  // and it stays there: a late close would show
            return Reliability.fdCount(pid)
        }

        @Test func loadLeavesFileDescriptorsAndMemoryAtBaseline() throws {
            let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}],"limits":{"maxClients":256}}"#)
            try d.start()
            defer { d.stop() }
            let pid = d.pid
            // Past the daemon's settling first (`Daemon.settleSeconds`, 2 s after ready: its
            // start-up code pages go back, MemoryPolicy.releaseCodePages). Regression: on a
            // loaded machine the warm-up outlasted those 2 s, the pages went back just before
            // the baseline, and the load faulted them in again: "+2988 KiB" in a CI run, with
            // no byte leaked (a quiet run measured the baseline first: -84 to -416 KiB).
            Pace.window(2.5)
            // Warm-up, so the baseline includes what the first connections allocate once.
            _ = Self.concurrentRound(d.controlSocket, clients: Self.clients, perClient: 5)
            _ = try Self.cycleRound(d.controlSocket, n: 200)
            Pace.window(0.5)  // the warm-up's last closes, before the baseline
            let fd0 = Reliability.fdCount(pid), fdList0 = Reliability.fdTargets(pid), rss0 = Reliability.rssKiB(pid)
            #expect(fd0 > 0 && rss0 > 0)

            let r = Self.concurrentRound(d.controlSocket, clients: Self.clients, perClient: Self.requestsPerClient)
            #expect(r.failures.isEmpty, "\(r.failures.prefix(5))")
            #expect(r.ok == Self.clients * Self.requestsPerClient, "\(r.ok) ok replies")
            let c = try Self.cycleRound(d.controlSocket, n: Self.cycles)
            #expect(c.answered == Self.cycles / 10)
            let fd1 = Self.settle(pid, fds: fd0)
            let fdList1 = Reliability.fdTargets(pid)
            let rss1 = Reliability.rssKiB(pid)
            #expect(fd1 == fd0, "\(fd1) open descriptors after the load, \(fd0) before")
            // The very same open files, socket inodes included (nothing replaced, nothing left over).
            #expect(fdList1 == fdList0, "descriptors before: \(fdList0), after: \(fdList1)")
            #expect(try d.request(#"{"command":"status"}"#)["ok"] as? Bool == true)
            Reliability.report("load: \(Self.clients) clients at once x \(Self.requestsPerClient) requests (status/activities)", "\(r.ok) ok in \(String(format: "%.1f", r.seconds)) s = \(Int(Double(r.ok) / r.seconds)) requests/s (debug build)")
            Reliability.report("load: \(Self.cycles) connect/disconnect cycles (every 10th with a request)", "\(String(format: "%.2f", c.seconds)) s = \(Int(Double(Self.cycles) / c.seconds)) cycles/s")
            Reliability.report("load: open fds before / after", "\(fd0) / \(fd1)")
            Reliability.report("load: VmRSS before / after", "\(rss0) / \(rss1) KiB (\(rss1 - rss0 >= 0 ? "+" : "")\(rss1 - rss0) KiB)")
            // Tolerance 1 MiB over 40,000 requests and 10,200 connections (measured: +0 to +248
            // KiB; +20 KiB after 200,000 requests).
            #expect(rss1 - rss0 <= 1024, "RSS grew \(rss1 - rss0) KiB over the baseline")
        }
    }
}
