import Glibc
import WorkoutCore

/// A TCP GPS source (gpsd or an NMEA server) on the event loop: name lookup off the loop
/// (`NameResolver`), non-blocking connect, read, decode. It reports what happens to its owner;
/// failover and backoff are the core's (`FeedSelection`).
/// Confined to the loop thread: the resolver's answer comes back through a `LoopBound`.
final class NetworkFeed {
    /// What the connection is doing.
    enum Phase {
        /// The host name is being looked up (`attempt`: which `connect` asked, so a late answer
        /// for an earlier one is dropped).
        case resolving(attempt: Int)
        case connecting(fd: Int32, token: EventLoop.Token)
        case connected(fd: Int32, token: EventLoop.Token)
        case closed
    }

    let config: FeedConfig
    let host: String
    let port: UInt16
    private unowned let loop: EventLoop
    private let resolver: NameResolver
    private var phase = Phase.closed
    /// Counts `connect` calls (see `Phase.resolving`).
    private var attempts = 0
    private(set) var decoder: StreamDecoder
    private var reader: FeedReader
    private var pace = FeedPace()
    var onFix: (Fix) -> Void = { _ in }
    /// Called once when the connection fails or ends, with the reason in words.
    var onFailure: (String) -> Void = { _ in }
    var onConnected: () -> Void = {}
    /// Called after each read turn (its fixes were all reported).
    var onReadEnd: () -> Void = {}

    init(_ config: FeedConfig, loop: EventLoop, resolver: NameResolver = .system) {
        self.config = config
        self.loop = loop
        self.resolver = resolver
        self.reader = FeedReader(clock: loop.clock)
        self.decoder = StreamDecoder(for: config)
        switch config {
        case .gpsd(let h, let p), .nmea(let h, let p): host = h; port = p
        case .socket: host = ""; port = 0
        }
    }

    /// Looks the host up off the loop, then connects (non-blocking).
    func connect() {
        close()
        decoder = StreamDecoder(for: config)
        pace = FeedPace()
        attempts += 1
        let attempt = attempts
        phase = .resolving(attempt: attempt)
        let me = LoopBound(WeakReference(self), loop: loop)
        resolver.resolve(host, port: port, on: loop) { result in
            guard let self = me.value.object, case .resolving(let current) = self.phase, current == attempt else { return }  // closed or retried meanwhile
            switch result {
            case .success(let address): self.connect(to: address)
            case .failure(let e):
                self.phase = .closed
                self.onFailure(e.description)
            }
        }
    }

    private func connect(to address: NameResolver.Address) {
        var address = address
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { phase = .closed; onFailure(SystemError.last("socket").reason); return }
        setNonBlockingCloExec(fd)
        let rc = withUnsafePointer(to: &address.storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, address.length) } }
        if rc == 0 || errno == EINPROGRESS {
            let token = loop.watch(fd, events: Int16(POLLOUT)) { [weak self] _ in self?.connectFinished(fd) }
            phase = .connecting(fd: fd, token: token)
        } else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            phase = .closed
            onFailure(describe(reason))
        }
    }

    private func describe(_ reason: String) -> String {
        reason == "Connection refused" ? "refused the connection" : reason.lowercased()
    }

    private func connectFinished(_ fd: Int32) {
        guard case .connecting(_, let token) = phase else { return }
        var err: Int32 = 0
        var len = socklen_t(4)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len)
        loop.unwatch(token)
        guard err == 0 else {
            Glibc.close(fd)
            phase = .closed
            onFailure(describe(String(cString: strerror(err))))
            return
        }
        let t = loop.watch(fd) { [weak self] _ in self?.readable(fd) }
        phase = .connected(fd: fd, token: t)
        if case .gpsd = config {
            // (Re-)WATCH on every connection, so a restarted gpsd streams again.
            let watch = Array(GpsdReader.watchRequest.utf8)
            _ = watch.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        onConnected()
    }

    private func readable(_ fd: Int32) {
        // Bounded work per wake-up so a flood cannot delay the control socket (FeedBudget).
        let (outcome, bytes) = reader.read(fd) { chunk in
            chunk.withMemoryRebound(to: UInt8.self) { decoder.feed($0) { onFix($0) } }
        }
        onReadEnd()
        guard case .connected(_, let token) = phase else { return }  // onFix may have closed us
        if let mode = pace.next(after: outcome, bytes: bytes, now: loop.now()) {
            loop.setMode(token, mode)
        } else if case .ended(let e) = outcome {
            close()
            onFailure(e == 0 ? "closed the connection" : describe(String(cString: strerror(e))))
        }
    }

    var isConnected: Bool {
        switch phase {
        case .connected: return true
        case .resolving, .connecting, .closed: return false
        }
    }

    func close() {
        switch phase {
        case .connecting(let fd, let token), .connected(let fd, let token):
            loop.unwatch(token)
            Glibc.close(fd)
        case .resolving, .closed: break  // a lookup's late answer is dropped (`connect`)
        }
        phase = .closed
    }
}
