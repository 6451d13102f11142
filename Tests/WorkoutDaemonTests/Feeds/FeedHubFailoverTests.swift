import Glibc
import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// Failover between configured sources as `status` shows it (issue 18): after a network source
/// failed, the feed socket's fixes were shown with the failed source's satellite count, a retry
/// of the failed source reset the fix shown to "no fix" while the socket fed the workout, and a
/// problem named only the source that failed last. The hub retries on a test's short backoff
/// (`fast`): 0.1 s after a whole round, not the product's 1 s.
@Suite(.serialized) struct FeedHubFailoverTests {
    /// A TCP listener on 127.0.0.1 (an NMEA server stand-in); `port` is the kernel's choice.
    final class TCPServer {
        private(set) var fd: Int32
        let port: Int
        init() {
            let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_addr.s_addr = inet_addr("127.0.0.1")
            a.sin_port = 0
            var len = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, len) } }
            listen(s, 4)
            _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(s, $0, &len) } }
            fd = s
            port = Int(UInt16(bigEndian: a.sin_port))
        }
        func acceptOne() -> Int32 { accept(fd, nil, nil) }
        func shut() { if fd >= 0 { close(fd); fd = -1 } }
        deinit { shut() }
    }

    static func nmea(_ body: String) -> String {
        var x: UInt8 = 0
        for b in body.utf8 { x ^= b }
        let hex = Array("0123456789ABCDEF")
        return "$" + body + "*" + String(hex[Int(x >> 4)]) + String(hex[Int(x & 15)]) + "\r\n"
    }

    /// One epoch with 12 satellites at 09:30:0s on 21 Nov 2026.
    static func epoch(_ s: Int) -> String {
        nmea("GPGGA,09300\(s).00,4806.000,N,01100.000,E,1,12,0.9,520.0,M,47.0,M,,")
            + nmea("GPRMC,09300\(s).00,A,4806.000,N,01100.000,E,5.0,90.0,211126,,,A")
    }

    /// The product's schedule, shortened: 0.05 s to the next source, 0.1 then 0.2 s after a round.
    static let fast = FeedSelection.Backoff(nextSource: 0.05, firstRound: 0.1, longest: 0.2)

    static func rig(feeds: (String) -> [FeedConfig]) throws -> (EventLoop, FeedHub, String) {
        let loop = try EventLoop()
        var template = Array("/tmp/ff.XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let hub = FeedHub(loop: loop, feeds: feeds(dir + "/feed.sock"), backoff: fast, paths: Paths(environment: ["HOME": dir]), maxClients: 8) { _ in }
        return (loop, hub, dir)
    }

    @Test func theFeedSocketTakingOverShowsItsOwnSourceAndSatellites() throws {
        let server = TCPServer()
        let (loop, hub, dir) = try Self.rig { [.nmea(host: "127.0.0.1", port: UInt16(server.port)), .socket(path: $0)] }
        defer { hub.shutdown(); _ = rmdir(dir) }
        hub.open()
        var receiver: Int32 = -1
        var seen: [(source: String?, satellites: Int?, fix: FixMode, problem: String?)] = []
        loop.after(0.2) {
            receiver = server.acceptOne()
            let text = Self.epoch(0) + Self.epoch(1) + Self.epoch(2)
            _ = text.withCString { write(receiver, $0, strlen($0)) }
        }
        loop.after(0.5) {
            seen.append((hub.status.source, hub.status.satellites, hub.status.fixMode, hub.status.problem))
            close(receiver)  // the receiver's server goes away; its retries are refused
            server.shut()
        }
        var feeder: Int32 = -1
        loop.after(0.8) {
            feeder = (try? UnixSocket.connect(path: dir + "/feed.sock")) ?? -1
            let lines = (3...5).map { #"{"class":"FIX","time":"2026-11-21T09:30:0\#($0)Z","lat":48.1,"lon":11.0,"mode":3}"# + "\n" }.joined()
            _ = lines.withCString { write(feeder, $0, strlen($0)) }
        }
        loop.after(1.1) { seen.append((hub.status.source, hub.status.satellites, hub.status.fixMode, hub.status.problem)) }
        // After more of the failed source's retries (from 0.6 s on, every 0.2 s at most).
        loop.after(1.4) { seen.append((hub.status.source, hub.status.satellites, hub.status.fixMode, hub.status.problem)); loop.stop() }
        try loop.run()
        close(feeder)
        try #require(seen.count == 3)
        #expect(seen[0].source == "NMEA server at 127.0.0.1:\(server.port)" && seen[0].satellites == 12 && seen[0].fix == .threeD)
        for s in seen.dropFirst() {
            #expect(s.source == "feed socket \(dir)/feed.sock", "\(s)")
            #expect(s.satellites == nil, "the NMEA server's 12 satellites shown for the feed socket: \(s)")
            #expect(s.fix == .threeD, "\(s)")
        }
        #expect(seen[2].problem?.contains("NMEA server at 127.0.0.1:\(server.port)") == true, "\(seen[2])")
    }

    @Test func everyFailingSourceIsNamed() throws {
        // Two ports nothing listens on (bound and closed at once).
        let a = TCPServer(), b = TCPServer()
        let pa = a.port, pb = b.port
        a.shut(); b.shut()
        let (loop, hub, dir) = try Self.rig { [.gpsd(host: "127.0.0.1", port: UInt16(pa)), .nmea(host: "127.0.0.1", port: UInt16(pb)), .socket(path: $0)] }
        defer { hub.shutdown(); _ = rmdir(dir) }
        hub.open()
        var problem: String?
        // Both tried (the second 0.05 s after the first failed), then the round's backoff.
        loop.after(0.4) { problem = hub.status.problem; loop.stop() }
        try loop.run()
        let p = try #require(problem)
        #expect(p.contains("gpsd at 127.0.0.1:\(pa)") && p.contains("NMEA server at 127.0.0.1:\(pb)"), "\(p)")
        #expect(p.range(of: "gpsd")!.lowerBound < p.range(of: "NMEA")!.lowerBound, "in the configured order: \(p)")
    }
}
