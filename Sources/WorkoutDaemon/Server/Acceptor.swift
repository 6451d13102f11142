import Glibc

/// The one accept loop, for the control, feed and web sockets: accepts the pending connections
/// (retrying on EINTR; at most `acceptsPerTurn` per turn of the loop), makes each non-blocking
/// and close-on-exec, and hands it over.
///
/// Out of descriptors (EMFILE/ENFILE), `accept` fails and leaves the client waiting, so a
/// level-triggered `poll` would report the listening socket ready on every turn and the loop
/// would spin. Instead, every client waiting is accepted through a spare descriptor and told
/// `busy` (`refuse`), which empties the queue: the socket stays watched, and each client who
/// connects while descriptors are short is told so at once. Only if the spare itself cannot be
/// had back (another thread took the descriptor) is the socket unwatched and accepting retried
/// every 100 ms. `onExhausted` is called once when descriptors run out, and with false when a
/// client is accepted normally again.
final class Acceptor {
    private let loop: EventLoop
    private let listenFD: Int32
    private var token: EventLoop.Token = 0
    private var backoff: RepeatingTimer?
    /// From running out of descriptors until a client can be accepted normally again.
    private var exhaustion = Exhaustion.none
    private enum Exhaustion { case none, since(Double) }
    /// Held in reserve, closed to accept (and answer) one client when out of descriptors.
    private var spareFD: Int32 = open("/dev/null", O_RDONLY | O_CLOEXEC)
    private let onClient: (Int32) -> Void
    /// Tells a client accepted through the spare descriptor that we are busy (then closes it).
    var refuse: (Int32) -> Void = { _ = Glibc.close($0) }
    var onExhausted: (_ exhausted: Bool, _ reason: String) -> Void = { _, _ in }
    /// Clients refused in one turn of the loop at most; the rest are refused on the next turns.
    static let refusalsPerTurn = 64

    init(loop: EventLoop, listenFD: Int32, onClient: @escaping (Int32) -> Void) {
        self.loop = loop
        self.listenFD = listenFD
        self.onClient = onClient
        setNonBlockingCloExec(listenFD)
        token = loop.watch(listenFD) { [unowned self] _ in self.acceptAll() }
    }

    /// Stops accepting (the listening descriptor stays open: its owner closes it).
    func close() {
        loop.unwatch(token)
        backoff?.cancel()
        backoff = nil
        if spareFD >= 0 { Glibc.close(spareFD); spareFD = -1 }
    }

    /// Clients accepted in one turn of the loop at most. A client that connects again as soon
    /// as it has its reply (a script's loop of requests) finds its next connection accepted in
    /// the same `accept` loop: without a bound, that loop never returned to `poll`, so the
    /// earlier connections' hang-ups went unseen (64 of them: "too many clients"), and
    /// timers and the watchdog waited (`FullPipeTests`, 2 runs in 60).
    static let acceptsPerTurn = 16

    func acceptAll() {
        for _ in 0..<Self.acceptsPerTurn {
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                if errno == EMFILE || errno == ENFILE { exhausted(errno) }
                // EAGAIN: drained.
                return
            }
            // Accepted normally: descriptors are available again.
            if case .since = exhaustion { exhaustion = .none; onExhausted(false, "") }
            setNonBlockingCloExec(fd)
            onClient(fd)
        }
        // More may wait: the listening socket is still readable, so the next turn goes on.
    }

    private func exhausted(_ code: Int32) {
        if case .none = exhaustion {
            exhaustion = .since(loop.now())
            onExhausted(true, String(cString: strerror(code)))
        }
        switch refuseWaiting() {
        case .drained, .more:
            // The queue is empty, or the rest are refused on the next turn: no spin either way.
            return
        case .noSpare:
            guard backoff == nil else { return }
            loop.setEvents(token, 0)
            backoff = loop.every(0.1) { [unowned self] in self.retry() }
        }
    }

    private enum Refusal { case drained, more, noSpare }

    /// Accepts waiting clients through the spare descriptor, one at a time, and refuses them.
    private func refuseWaiting() -> Refusal {
        for _ in 0..<Self.refusalsPerTurn {
            if spareFD < 0 { spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC) }
            guard spareFD >= 0 else { return .noSpare }
            Glibc.close(spareFD)
            let fd = accept(listenFD, nil, nil)
            let failure = errno
            // The client holds the spare's slot until it is refused: take the slot back after.
            if fd >= 0 { refuse(fd) }
            spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
            if fd < 0 {
                if failure == EINTR { continue }
                if failure == EMFILE || failure == ENFILE { return .noSpare }
                return .drained
            }
        }
        return .more
    }

    private func retry() {
        let probe = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard probe >= 0 else { return }
        Glibc.close(probe)
        if spareFD < 0 { spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC) }
        backoff?.cancel()
        backoff = nil
        loop.setEvents(token, Int16(POLLIN))
        acceptAll()
    }
}
