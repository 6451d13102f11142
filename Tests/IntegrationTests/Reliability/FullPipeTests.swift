import Foundation
import Glibc
import Testing
import TestRequirements
import WorkoutDaemon

extension ReliabilitySuite {
    /// Issue 27 item 1: stderr a pipe nobody reads. Before, ~440 `lap`s or two 30 KB markers
    /// filled it and the daemon blocked in write(2): `status` unanswered for over 15 s, no
    /// WATCHDOG=1 (systemd would have killed it). Now the loop never waits for a log line (its
    /// log sink's thread is the one that waits on the pipe).
    @Suite struct FullPipeTests {
        /// A notify socket that a thread reads all the time, as systemd does (a full socket
        /// queue would block a daemon that sends without MSG_DONTWAIT: the old one did).
        final class NotifySocket: @unchecked Sendable {
            let fd: Int32
            let path: String
            private let lock = NSLock()
            private var received: [String] = []
            private var stopped = false
            init(dir: String) {
                path = dir + "/n.sock"
                fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                var sa = sockaddr_un()
                sa.sun_family = sa_family_t(AF_UNIX)
                withUnsafeMutableBytes(of: &sa.sun_path) { raw in for (i, b) in Array(path.utf8).enumerated() { raw[i] = b } }
                _ = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
                var tv = timeval(tv_sec: 0, tv_usec: 100_000)
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
                Thread { [self] in
                    var buf = [UInt8](repeating: 0, count: 4096)
                    while !lock.withLock({ stopped }) {
                        let n = recv(fd, &buf, buf.count, 0)
                        if n > 0 { let text = String(decoding: buf[0..<n], as: UTF8.self); lock.withLock { received.append(text) } }
                    }
                }.start()
            }
            func stop() { lock.withLock { stopped = true } }
            /// What was received since the last call.
            func drain() -> [String] {
                lock.withLock { defer { received = [] }; return received }
            }
        }

        static func pipeFill(_ fd: Int32) -> (queued: Int32, size: Int32) {
            var queued: Int32 = 0
            _ = ioctl(fd, UInt(FIONREAD), &queued)
            return (queued, fcntl(fd, 1032))  // F_GETPIPE_SZ (not in the Glibc module)
        }

        struct StatusFailure: Error, CustomStringConvertible { let description: String }

        /// One `status` on a new connection (as workoutctl does): its round trip in seconds, or
        /// what went wrong (connect, send, read within 5 s, or the reply itself).
        static func timedStatusOrWhy(_ d: some DaemonUnderTest) -> Result<Double, StatusFailure> {
            let t0 = Reliability.monotonic()
            let c: UnixClient
            do { c = try UnixClient(path: d.controlSocket, timeoutSeconds: 5) } catch { return .failure(.init(description: "connect: \(error)")) }
            defer { c.close() }
            do { try c.send(#"{"command":"status"}"# + "\n") } catch { return .failure(.init(description: "send: \(error)")) }
            let line: String?
            do { line = try c.readLine() } catch { return .failure(.init(description: "read after \(Reliability.ms(Reliability.monotonic() - t0)): \(error)")) }
            guard let line else { return .failure(.init(description: "closed without a reply after \(Reliability.ms(Reliability.monotonic() - t0))")) }
            guard line.contains("\"ok\":true") else { return .failure(.init(description: "reply: \(line.prefix(300))")) }
            return .success(Reliability.monotonic() - t0)
        }

        /// `count` timed `status` round trips (`timedStatusOrWhy`), one every 5 ms or so (the
        /// watchdog's pings are counted while they run: they must last about a second); the
        /// round trips answered, and why the first that was not failed. `stoppingAtAFailure`: no
        /// more after it (each would wait 5 s on a daemon that is stuck).
        static func timedStatuses(_ d: some DaemonUnderTest, count: Int, stoppingAtAFailure: Bool = false) -> (rtts: [Double], failure: String?) {
            var rtts: [Double] = []
            var failure: String?
            var pace = Pace(every: 0.005)
            for _ in 0..<count {
                switch timedStatusOrWhy(d) {
                case .success(let rtt): rtts.append(rtt)
                case .failure(let why): failure = failure ?? why.description
                }
                if stoppingAtAFailure && failure != nil { break }
                pace.next()
            }
            return (rtts, failure)
        }

        @Test func statusAnswersAndTheWatchdogIsFedWithStderrFull() throws {
            // The daemon's stderr (its log port): a pipe nobody reads until the end.
            let stderrPipe = Pipe()
            try Self.fillAndMeasure(stderrPipe)
            // The daemon is gone: its log writer has let go of the pipe; the end of the reader.
            try stderrPipe.fileHandleForWriting.close()
        }

        /// The daemon is embedded (its stderr is the log port `logFD`; systemd's variables are in
        /// its environment), and released when this returns.
        static func fillAndMeasure(_ stderrPipe: Pipe) throws {
            let d = try EmbeddedDaemon(config: #"{"statusLogSeconds":0}"#)
            let notify = NotifySocket(dir: d.dir)
            d.environment["NOTIFY_SOCKET"] = notify.path
            d.environment["WATCHDOG_USEC"] = "200000"  // a ping every 0.1 s while the loop turns
            d.ports.logFD = stderrPipe.fileHandleForWriting.fileDescriptor
            try d.start()
            let stderrFD = stderrPipe.fileHandleForReading.fileDescriptor
            #expect(try d.request(#"{"command":"start","activity":"running"}"#)["ok"] as? Bool == true)
            _ = notify.drain()
            let baseline = Self.timedStatuses(d, count: 50).rtts

            // Two 30 KB markers, then laps until the pipe is full; nobody reads stderr.
            let text = String(repeating: "x", count: 30_000)
            var answered = 0
            var stuck = false  // a request went unanswered (the old daemon, blocked): stop sending
            func marker() {
                guard !stuck else { return }
                if (try? d.request(#"{"command":"marker","text":"\#(text)"}"#)) != nil { answered += 1 } else { stuck = true }
            }
            for _ in 0..<2 { marker() }
            var laps = 0
            while laps < 3000, !stuck {
                let fill = Self.pipeFill(stderrFD)
                if fill.queued > fill.size - 4096 { break }  // no room for a whole line (PIPE_BUF)
                guard (try? UnixClient(path: d.controlSocket, timeoutSeconds: 5)).map({ c -> Bool in
                    defer { c.close() }
                    return (try? c.send(#"{"command":"lap"}"# + "\n")) != nil && (try? c.readLine()) != nil
                }) == true else { stuck = true; break }
                laps += 1
            }
            // Then more than the daemon queues in memory (256 KiB): 150 more markers.
            for _ in 0..<150 { marker() }
            let fill = Self.pipeFill(stderrFD)
            #expect(fill.queued > fill.size - 4096, "stderr is full: \(fill.queued) of \(fill.size) bytes")
            let sentDuringLaps = notify.drain()
            let statusLines = sentDuringLaps.filter { $0.contains("STATUS=") }.count

            // With the pipe full: status round trips, and the watchdog.
            let (rtts, unanswered) = Self.timedStatuses(d, count: 200, stoppingAtAFailure: true)
            #expect(rtts.count == 200, "every status answered with stderr full (\(rtts.count) of 200; then \(unanswered ?? "-"))")
            let pings = notify.drain().filter { $0.contains("WATCHDOG=1") }.count
            #expect(pings >= 5, "the watchdog kept being fed: \(pings) pings")
            #expect(Self.pipeFill(stderrFD).queued > fill.size - 4096, "still full while measured")

            // Drained: the lines that did not fit are reported.
            var log = ""
            var chunk = [UInt8](repeating: 0, count: 65536)
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, !log.contains("event=log.dropped") {
                var p = pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 100) > 0 else { continue }
                let n = read(stderrFD, &chunk, chunk.count)
                if n <= 0 { break }
                log += String(decoding: chunk[0..<n], as: UTF8.self)
            }
            // The same workout with stderr read (a reader drains it meanwhile): the comparison.
            let reader = Thread {
                var buf = [UInt8](repeating: 0, count: 65536)
                while read(stderrFD, &buf, buf.count) > 0 {}
            }
            reader.start()
            let drained = Self.timedStatuses(d, count: 200).rtts
            Reliability.report("status, same workout, stderr read", "p50 \(Reliability.ms(Reliability.quantile(drained, 0.5))), p99 \(Reliability.ms(Reliability.quantile(drained, 0.99))), max \(Reliability.ms(drained.max() ?? .nan))")
            let report = log.split(separator: "\n").first { $0.contains("event=log.dropped") }
            #expect(report != nil, "the dropped lines are reported once stderr is read")
            let marker = log.split(separator: "\n").first { $0.contains("event=workout.marker") }
            #expect(marker.map { $0.utf8.count < 2400 } ?? true, "a marker line is bounded: \(marker?.utf8.count ?? 0) bytes")
            Reliability.report("status before stderr filled", "p50 \(Reliability.ms(Reliability.quantile(baseline, 0.5))), p99 \(Reliability.ms(Reliability.quantile(baseline, 0.99))), max \(Reliability.ms(baseline.max() ?? .nan))")
            Reliability.report("status with stderr a full pipe", "\(rtts.count) answered, p50 \(Reliability.ms(Reliability.quantile(rtts, 0.5))), p99 \(Reliability.ms(Reliability.quantile(rtts, 0.99))), max \(Reliability.ms(rtts.max() ?? .nan)) (\(answered) markers of 30 KB and \(laps) laps sent before)")
            Reliability.report("watchdog with stderr a full pipe", "\(pings) WATCHDOG=1 while 200 status requests were timed; STATUS= datagrams during \(laps) laps: \(statusLines)")
            Reliability.report("log lines dropped while stderr was full", report.map(String.init) ?? "(no report)")
            #expect(statusLines < laps / 4 + 3, "one STATUS= per change, not per lap: \(statusLines) for \(laps) laps")
            d.stop()
            notify.stop()
        }
    }
}
