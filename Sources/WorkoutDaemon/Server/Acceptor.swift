import Glibc

/// The one accept loop, for the control and feed sockets: accepts every pending connection
/// (retrying on EINTR), makes it non-blocking and close-on-exec, and hands it over. Out of
/// descriptors (EMFILE/ENFILE), a level-triggered `poll` would report the listening socket
/// ready on every turn and the loop would spin at 100 % of a core: instead the socket is
/// unwatched, the clients waiting are accepted through a spare descriptor and told `busy`
/// (`refuse`), `onExhausted` is called once, and accepting is retried every 100 ms until every
/// waiting client could be accepted again (then `onExhausted` is called with false).
final class Acceptor {
    private let loop: EventLoop
    private let listenFD: Int32
    private var token: EventLoop.Token = 0
    private var backoff: RepeatingTimer?
    /// From running out of descriptors until the queue of waiting clients is drained again.
    private var exhaustion = Exhaustion.none
    private enum Exhaustion { case none, since(Double) }
    /// Held in reserve, closed to accept (and answer) one client when out of descriptors.
    private var spareFD: Int32 = open("/dev/null", O_RDONLY | O_CLOEXEC)
    private let onClient: (Int32) -> Void
    /// Tells a client accepted through the spare descriptor that we are busy (then closes it).
    var refuse: (Int32) -> Void = { _ = Glibc.close($0) }
    var onExhausted: (_ exhausted: Bool, _ reason: String) -> Void = { _, _ in }

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

    func acceptAll() {
        while true {
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                if errno == EMFILE || errno == ENFILE { exhausted(errno); return }
                // EAGAIN: drained. Every waiting client was accepted: the exhaustion is over.
                if case .since = exhaustion { exhaustion = .none; onExhausted(false, "") }
                return
            }
            setNonBlockingCloExec(fd)
            onClient(fd)
        }
    }

    private func exhausted(_ code: Int32) {
        for _ in 0..<64 where spareFD >= 0 {
            Glibc.close(spareFD)
            let fd = accept(listenFD, nil, nil)
            spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { break }
            refuse(fd)
        }
        guard backoff == nil else { return }
        if case .none = exhaustion {
            exhaustion = .since(loop.now())
            onExhausted(true, String(cString: strerror(code)))
        }
        loop.setEvents(token, 0)
        backoff = loop.every(0.1) { [unowned self] in self.retry() }
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
