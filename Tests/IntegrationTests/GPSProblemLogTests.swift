import Foundation
import Glibc
import Testing
@testable import WorkoutDaemon

/// #18: with two sources failing in turn, `gps.problem` was logged on every retry (18 lines in
/// 90 s). Each problem is logged once; reminders come no sooner than a minute later. Embedded on
/// a `ManualClock`: the retry rounds run at their times on the test's clock, not in 8 s of waiting.
@Suite struct GPSProblemLogTests {
    /// A loopback port nothing listens on (bound, then closed).
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return Int(UInt16(bigEndian: a.sin_port))
    }

    /// The backoff a source's problem announces ("retrying in 4 s"), the last in `problem`.
    static func backoff(_ problem: String) -> Int? {
        problem.components(separatedBy: "retrying in ").dropFirst().last.flatMap { Int($0.prefix { $0.isNumber }) }
    }

    @Test func twoFailingSourcesAreEachLoggedOnceNotPerRetry() throws {
        let (p1, p2) = (Self.freePort(), Self.freePort())
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"gpsd","address":"127.0.0.1:\#(p1)"},{"kind":"nmea","address":"127.0.0.1:\#(p2)"}]}"#,
                                   clock: ManualClock())
        try d.start()
        _ = try d.request(#"{"command":"start","activity":"running"}"#)
        // Retry rounds at about 0, 1.2, 3.4 and 7.6 s: 8 failed connections, the fourth round's
        // backoff 8 s. Each failure is reported on the loop a moment after the connection is
        // tried: the clock moves in small steps, each once the status has been read, until the
        // second source announces that backoff (at most 30 s: no reminder is due yet).
        func problem(_ s: [String: Any]) -> String { (s["gps"] as? [String: Any])?["problem"] as? String ?? "" }
        var status = try d.request(#"{"command":"status"}"#)
        var moved = 0.0
        while Self.backoff(problem(status)) != 8 && moved < 30 {
            d.advance(0.1)
            moved += 0.1
            status = try d.request(#"{"command":"status"}"#)
        }
        #expect(Self.backoff(problem(status)) == 8, "after \(moved) s: \(problem(status))")
        _ = try d.request(#"{"command":"stop"}"#)
        d.stop()
        let lines = d.stderrText().split(separator: "\n").filter { $0.contains("event=gps.problem") }
        #expect(lines.count == 2, "one line per failing source, not per retry: \(lines)")
        #expect(lines.contains { $0.contains("127.0.0.1:\(p1)") } && lines.contains { $0.contains("127.0.0.1:\(p2)") })
        #expect(!problem(status).isEmpty, "status still shows the current problem")
        print("gps problems: 8 failed connections in \(String(format: "%.1f", moved)) s of the test's clock, \(lines.count) log lines")
    }
}
