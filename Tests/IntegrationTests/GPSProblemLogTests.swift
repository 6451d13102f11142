import Foundation
import Glibc
import Testing

/// #18: with two sources failing in turn, `gps.problem` was logged on every retry (18 lines in
/// 90 s). Each problem is logged once; reminders come no sooner than a minute later.
@Suite(.serialized, .offPool) struct GPSProblemLogTests {
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

    @Test func twoFailingSourcesAreEachLoggedOnceNotPerRetry() throws {
        let (p1, p2) = (Self.freePort(), Self.freePort())
        let d = try DaemonHarness(config: #"{"feeds":[{"kind":"gpsd","address":"127.0.0.1:\#(p1)"},{"kind":"nmea","address":"127.0.0.1:\#(p2)"}]}"#)
        try d.start()
        _ = try d.request(#"{"command":"start","activity":"running"}"#)
        sleep(8)  // retry rounds at about 0, 1.2, 3.4 and 7.6 s: 8 failed connections
        let status = try d.request(#"{"command":"status"}"#)
        _ = try d.request(#"{"command":"stop"}"#)
        d.stop()
        let lines = d.stderrText().split(separator: "\n").filter { $0.contains("event=gps.problem") }
        #expect(lines.count == 2, "one line per failing source, not per retry: \(lines)")
        #expect(lines.contains { $0.contains("127.0.0.1:\(p1)") } && lines.contains { $0.contains("127.0.0.1:\(p2)") })
        #expect(((status["gps"] as? [String: Any])?["problem"] as? String) != nil, "status still shows the current problem")
    }
}
