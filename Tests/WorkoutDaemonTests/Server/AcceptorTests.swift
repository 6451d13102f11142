import Glibc
import Testing
@testable import WorkoutDaemon

/// The accept loop gives the rest of the loop its turn: a client that connects again the moment
/// it is served never keeps the loop in `accept`.
@Suite struct AcceptorTests {
    /// A client faster than the daemon: each connection it makes is served (the handler runs)
    /// and the next one is already waiting. Before the bound, one `acceptAll` took all 200 and
    /// the timer due meanwhile waited for the last (in the daemon: 64 hang-ups unseen, every
    /// new client told "too many clients", the watchdog not fed; `FullPipeTests`).
    @Test func aClientReconnectingAtOnceLetsTheLoopTurn() throws {
        let loop = try EventLoop()
        var template = "/tmp/acc.XXXXXX".utf8CString
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { rmdir(dir) }
        let path = dir + "/s"
        let listenFD = try UnixSocket.listen(path: path)
        defer { close(listenFD); unlink(path) }
        var accepted = 0
        var clients: [Int32] = []
        defer { clients.forEach { _ = close($0) } }
        let total = 200
        let acceptor = Acceptor(loop: loop, listenFD: listenFD) { fd in
            accepted += 1
            close(fd)
            if accepted < total, let next = try? UnixSocket.connect(path: path) { clients.append(next) }
        }
        clients.append(try UnixSocket.connect(path: path))
        var acceptedWhenTheTimerRan: Int?
        loop.after(0) { acceptedWhenTheTimerRan = accepted }
        try loop.runReady()
        #expect(accepted == Acceptor.acceptsPerTurn, "one turn accepts at most \(Acceptor.acceptsPerTurn): \(accepted)")
        #expect(acceptedWhenTheTimerRan == Acceptor.acceptsPerTurn, "the timer ran in that turn")
        // The listening socket is still readable: the next turns accept the rest.
        var turns = 1
        while accepted < total, turns < 100 { try loop.runReady(); turns += 1 }
        #expect(accepted == total)
        #expect(turns == (total + Acceptor.acceptsPerTurn - 1) / Acceptor.acceptsPerTurn, "\(turns) turns")
        acceptor.close()
    }
}
