import Foundation
import Glibc
import Testing
@testable import WorkoutDaemon

/// Issue 44: with the web port taken (another program, another user's daemon) the daemon came
/// up without pages and `open` exited 1. The default address now moves to a free port, the log
/// says which and `open` finds it; an address the user wrote still fails loudly.
@Suite(.serialized) struct WebPortTests {
    /// A listening TCP socket on a free loopback port: another program holding it.
    static func takePort() throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        a.sin_port = 0
        let bound = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard fd >= 0, bound == 0, listen(fd, 8) == 0 else { throw HarnessError.notReady("cannot take a port: errno \(errno)") }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return (fd, UInt16(bigEndian: a.sin_port))
    }

    @Test func theDefaultPortTakenMovesThePagesToAFreeOne() throws {
        let taken = try Self.takePort()
        defer { close(taken.fd) }
        // No `web` key: the default address, whose port the daemon's port makes the taken one.
        let d = try EmbeddedDaemon(config: #"{"feeds": []}"#)
        d.ports.webDefaultPort = taken.port
        try d.start()
        defer { d.stop() }
        let r = try d.ctl(["open", "--print"])
        #expect(r.status == 0, "\(r.stderr)")
        let url = try #require(URLComponents(string: r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let port = try #require(url.port)
        #expect(port != Int(taken.port))
        let token = try #require(url.queryItems?.first { $0.name == "token" }?.value)
        #expect(try WebClient.get(UInt16(port), "/?token=\(token)").status == 303)  // the pages answer there
        d.stop()
        let log = d.stderrText()
        let line = try #require(log.split(separator: "\n").first { $0.contains("web.port_taken") }, "\(log)")
        #expect(line.contains("127.0.0.1:\(taken.port)") && line.contains("http://127.0.0.1:\(port)/"))
        #expect(!log.contains("web.unavailable"))
    }

    @Test func aWrittenAddressTakenFailsLoudly() throws {
        let taken = try Self.takePort()
        defer { close(taken.fd) }
        let d = try EmbeddedDaemon(config: #"{"feeds": [], "web": {"listen": "127.0.0.1:\#(taken.port)"}}"#)
        try d.start()
        defer { d.stop() }
        let r = try d.ctl(["open", "--print"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("web pages are not available"))
        d.stop()
        let log = d.stderrText()
        #expect(log.contains("web.unavailable") && log.contains("127.0.0.1:\(taken.port)"), "\(log)")
        #expect(!log.contains("web.port_taken"))
    }
}
