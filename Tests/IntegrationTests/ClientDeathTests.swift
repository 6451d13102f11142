import Foundation
import Glibc
import Testing
import TestRequirements
@testable import WorkoutDaemon
import WorkoutClient

/// Issue 45 item 0: a client that dies while its reply is worked on off the loop. Before the
/// fix the pending reply's completion held the connection `unowned`: the final reply's write
/// failed (the peer was gone), dropped the connection, and the completion then read the freed
/// connection ("Attempted to read an unowned reference"), SIGABRT. Each client here goes away
/// (its socket closed, as the kernel does for a killed process) at one of several points of a
/// long reply: right after sending, a moment later, or after the first line it got.
@Suite struct ClientDeathTests {
    /// When the client goes away.
    enum Death: CaseIterable, Sendable {
        /// With the request (its request and its end arrive together).
        case withTheRequest
        /// 5 ms after sending (the work is under way).
        case soonAfter
        /// After the first line it read (an event, or the reply).
        case afterFirstLine
    }

    static func die(_ c: LineConnection, _ death: Death) {
        switch death {
        case .withTheRequest: break
        case .soonAfter: Pace.window(0.005)
        case .afterFirstLine: _ = try? c.readLine(timeout: 10)
        }
        // Reset rather than an orderly end, as a killed client's unread input makes it.
        var linger = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(c.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        shutdown(c.fd, Int32(SHUT_RDWR))
    }

    @Test func clientsDyingDuringLongRepliesLeaveTheDaemonRunning() throws {
        let d = try EmbeddedDaemon()
        d.ports.exportStallSeconds = 0.3
        try d.start()
        defer { d.stop() }
        let gpx = d.dir + "/a.gpx"
        try ExportPipeTests.gpx(points: 2_500, start: 1_700_000_000).write(toFile: gpx, atomically: true, encoding: .utf8)
        let imported = try d.request(#"{"command":"import","files":["\#(gpx)"]}"#)
        let id = try #require((imported["results"] as? [[String: Any]])?.first?["id"] as? String, "\(imported)")
        var others: [String] = []
        for k in 0..<3 {
            let path = d.dir + "/other\(k).gpx"
            try ExportPipeTests.gpx(points: 300, start: 1_700_200_000 + Double(k) * 10_000).write(toFile: path, atomically: true, encoding: .utf8)
            others.append(path)
        }
        let socket = d.controlSocket
        let files = others

        var alive: [String] = []
        do { alive = try { () throws -> [String] in
            var failures: [String] = []
            var heldPipes: [Int32] = []
            defer { for fd in heldPipes { close(fd) } }
            func check(_ what: String) {
                if !(d.isRunning) { failures.append("daemon ended after \(what)") }
            }
            for round in 0..<4 {
                for death in Death.allCases {
                    guard d.isRunning else { break }
                    // An export into a pipe (descriptor passing): read by nobody (it stalls, then
                    // fails after the test's 0.3 s), or closed at once (EPIPE).
                    var p: [Int32] = [0, 0]
                    _ = pipe(&p)
                    let c1 = try LineConnection.connect(path: socket)
                    try c1.send(line: #"{"command":"export","id":"\#(id)","format":"gpx","descriptor":true}"#, descriptors: [p[1]])
                    close(p[1])
                    if round % 2 == 0 { heldPipes.append(p[0]) } else { close(p[0]) }
                    Self.die(c1, death)
                    // An import with progress (by descriptors: an event per file).
                    let fds = files.map { open($0, O_RDONLY | O_CLOEXEC) }
                    let items = files.indices.map { #"{"file":"r\#(round)-\#($0).gpx"}"# }.joined(separator: ",")
                    let c2 = try LineConnection.connect(path: socket)
                    try c2.send(line: #"{"command":"import","descriptors":[\#(items)]}"#, descriptors: fds)
                    for fd in fds { close(fd) }
                    Self.die(c2, death)
                    // A recompute and an edit (the bulk worker), a show (the reader).
                    for line in [#"{"command":"recompute","id":"\#(id)","set":{"metrics.autoPauseSeconds":0},"save":false}"#,
                                 #"{"command":"edit","id":"\#(id)","title":"round \#(round)"}"#,
                                 #"{"command":"show","id":"\#(id)"}"#] {
                        let c = try LineConnection.connect(path: socket)
                        try c.send(line: line)
                        Self.die(c, death)
                    }
                    // A watcher that dies; the edit above and this one broadcast to it.
                    let w = try LineConnection.connect(path: socket)
                    try w.send(line: #"{"command":"watch"}"#)
                    Self.die(w, death)
                    _ = try? d.request(#"{"command":"edit","id":"\#(id)","notes":"after \#(death)"}"#, timeoutSeconds: 10)
                    check("round \(round), \(death)")
                }
            }
            // The stalled exports end after 0.3 s: their replies find their clients gone. (Each
            // export reached the writer before the edit after it was answered: one bulk worker.)
            if !pollUntil(seconds: 10, { d.onLoop { $0.history.exportWriter.waitingCount } == 0 }) {
                failures.append("exports still waiting after 10 s")
            }
            check("the stalled exports ended")
            let status = try? d.request(#"{"command":"status"}"#, timeoutSeconds: 10)
            if status?["ok"] as? Bool != true { failures.append("status afterwards: \(String(describing: status))") }
            check("status")
            return failures
        }() } catch {
            alive = ["\(error)"]  // the daemon went away mid-round
        }
        let log = d.stderrText()
        #expect(alive.isEmpty, "\(alive) \(log.suffix(1500))")
        #expect(!log.contains("Fatal error"), "\(log.suffix(1500))")
    }
}
