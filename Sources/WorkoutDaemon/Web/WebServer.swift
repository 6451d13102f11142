import Glibc
import Synchronization
import WorkoutCore
import WorkoutSystem

/// The web pages' server (docs/web.md). The daemon's loop only accepts connections (one
/// `accept` each) and hands them to the web thread, which is started at the first connection:
/// until a page is asked for, the pages cost one listening socket and nothing else. The web
/// thread (`WebThread`) reads, parses, renders and writes, never on the daemon's loop.
final class WebServer {
    let port: UInt16
    /// `http://127.0.0.1:8765/` (no token).
    let baseURL: String
    let access: WebAccess
    let keys: WebKeys
    /// What the pages are drawn with; the daemon replaces it on reload.
    let settings: WebSettingsBox
    private let listenFD: Int32
    private var acceptor: Acceptor?
    private let thread: WebThread

    init(loop: EventLoop, listenFD: Int32, keys: WebKeys, settings: WebSettingsBox, backend: WebBackend, limits: WebThread.Limits = WebThread.Limits()) {
        self.settings = settings
        let port = WebListener.boundPort(listenFD) ?? 0
        self.port = port
        self.listenFD = listenFD
        self.baseURL = "http://\(WebListener.urlHost(listenFD) ?? "127.0.0.1"):\(port)/"
        self.access = WebAccess(port: port, formToken: keys.formToken)
        self.keys = keys
        let thread = WebThread(app: WebApp(access: access, keys: keys, backend: backend), limits: limits)
        self.thread = thread
        let acceptor = Acceptor(loop: loop, listenFD: listenFD) { fd in thread.adopt(fd) }
        acceptor.refuse = { fd in WebThread.refuse(fd, .serviceUnavailable, "workoutd is out of file descriptors; try again later") }
        self.acceptor = acceptor
    }

    /// The URL that lets the owner in (`workoutctl open`): the page with the token (single-use).
    func url(path: String = "/") -> String {
        baseURL.dropLast() + path + (path.contains("?") ? "&" : "?") + "token=" + keys.urlToken()
    }

    /// Stops accepting and stops the web thread (its connections are closed).
    func close() {
        acceptor?.close()
        acceptor = nil
        Glibc.close(listenFD)
        thread.stop()
    }
}

/// The web thread: its own `EventLoop`, the connections, their time limits, the live page's
/// events. Everything below runs on that thread, except `adopt` and `stop` (posted to it).
final class WebThread: @unchecked Sendable {
    // @unchecked: `state` is a Mutex; everything else is touched on the web thread only.
    private enum State {
        case notStarted
        /// The thread is starting; these connections wait for its loop.
        case starting([Int32])
        case running(EventLoop)
        case stopped
    }
    private let state = Mutex(State.notStarted)
    private let app: WebApp
    private var loop: EventLoop!
    private var connections = ConnectionTable<WebConnection>()
    private var sweeper: RepeatingTimer?
    private var ticker: RepeatingTimer?
    private var mirror = LiveMirror()
    /// Who waits for the live request that is out (one at a time); nil when none is out.
    private var liveWaiters: [() -> Void]?
    private var streamsWereRecording: [Int: Bool] = [:]
    /// Looks up who is at the other end of each connection (the kernel's socket table).
    private let peers = LoopbackPeer()

    /// The time and connection limits (an embedding test shortens the times: `DaemonPorts.webLimits`).
    struct Limits: Sendable {
        /// Most connections at once (each page load opens a few); more are answered 503.
        var maxConnections = 64
        /// A request must arrive whole within this many seconds of its first byte (slowloris): 408.
        var requestSeconds = 10.0
        /// A keep-alive connection idle this long is closed.
        var idleSeconds = 30.0
        /// A peer that takes nothing of a response for this long is dropped.
        var stallSeconds = 30.0
        /// A connection none of whose requests was let in yet (no good cookie or token) is closed
        /// when it has been idle, or its request has not arrived, for this long.
        var unprovenSeconds = 3.0
    }
    private let limits: Limits
    /// Events unread by a live page beyond this many bytes: the page is dropped.
    static let maxStreamBacklog = 1 << 20
    /// The web thread's niceness: below the daemon's loop, above bulk work.
    static let niceness: Int32 = 10

    init(app: WebApp, limits: Limits) { self.app = app; self.limits = limits }

    /// From the daemon's loop: a connection to serve (the thread starts at the first).
    func adopt(_ fd: Int32) {
        let start: Bool = state.withLock { s in
            switch s {
            case .notStarted: s = .starting([fd]); return true
            case .starting(let fds): s = .starting(fds + [fd]); return false
            case .running(let loop): loop.post { [self] in self.accept(fd) }; return false
            case .stopped: Glibc.close(fd); return false
            }
        }
        if start { WorkerThread.start(niceness: WebThread.niceness) { self.run() } }
    }

    func stop() {
        state.withLock { s in
            switch s {
            case .running(let loop): loop.post { [self] in self.shutDown() }
            case .starting(let fds): for fd in fds { Glibc.close(fd) }
            case .notStarted, .stopped: break
            }
            s = .stopped
        }
    }

    private func run() {
        guard let loop = try? EventLoop() else {
            let fds = state.withLock { s -> [Int32] in
                if case .starting(let fds) = s { s = .notStarted; return fds }
                return []
            }
            for fd in fds { WebThread.refuse(fd, .serviceUnavailable, "the web thread could not start") }
            return
        }
        self.loop = loop
        let waiting = state.withLock { s -> [Int32]? in
            guard case .starting(let fds) = s else { return nil }
            s = .running(loop)
            return fds
        }
        guard let waiting else { return }  // stopped meanwhile
        sweeper = loop.every(1) { [unowned self] in self.sweep() }
        for fd in waiting { accept(fd) }
        do { try loop.run() } catch {
            // poll failed (never EINTR): the pages stop; the daemon and its recording go on.
            state.withLock { $0 = .stopped }
            for c in Array(connections.values) { drop(c) }
        }
    }

    private func shutDown() {
        for c in Array(connections.values) { drop(c) }
        sweeper?.cancel()
        ticker?.cancel()
        loop.stop()
    }

    static func refuse(_ fd: Int32, _ status: HTTPStatus, _ message: String) {
        let bytes = HTTPResponse.text(status, message, headers: WebAccess.securityHeaders).serialized(close: true)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        Glibc.close(fd)
    }

    // MARK: - Connections

    private func accept(_ fd: Int32) {
        // Only the owner's own processes, before a byte is read: another user's connection is
        // refused here and holds no slot, whatever cookie or token it carries.
        switch peers.owner(of: fd) {
        case .user(let uid) where uid == getuid():
            break
        case .user(let uid):
            WebThread.refuse(fd, .forbidden, "only the user running workoutd (uid \(getuid())) may use these pages; this connection is uid \(uid)'s")
            return
        case .notLocal:
            WebThread.refuse(fd, .forbidden, "only the user running workoutd on this machine may use these pages")
            return
        case .unknown(let why):
            WebThread.refuse(fd, .serviceUnavailable, "cannot tell whose connection this is (\(why))")
            return
        }
        guard connections.count < limits.maxConnections else {
            WebThread.refuse(fd, .serviceUnavailable, "too many connections (\(limits.maxConnections)); try again")
            return
        }
        let c = connections.add(on: loop, owner: self, { WebConnection(fd: fd, id: $0, limits: .default, now: loop.now()) },
                                ready: { server, c, revents in server.ready(c, revents) })
        read(c)
    }

    private func ready(_ c: WebConnection, _ revents: Int16) {
        if revents & Int16(POLLOUT) != 0 { write(c) }
        guard connections[c.id] != nil else { return }
        if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { read(c) }
    }

    /// Reads while the connection is between requests or in one; a request being answered or
    /// written leaves further input in the socket (the client waits: no unbounded buffering).
    private func read(_ c: WebConnection) {
        let limits = c.parser.limits
        let cap = limits.requestLineBytes + limits.headerBytes + limits.bodyBytes + 4
        while connections[c.id] != nil {
            switch c.phase {
            case .idle, .reading: break
            case .streaming:
                // Input on an event stream is ignored; only its end matters.
                var sink = [UInt8](repeating: 0, count: 512)
                let n = recv(c.fd, &sink, sink.count, Int32(MSG_DONTWAIT))
                if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) { drop(c) }
                return
            case .answering, .writing:
                updateInterest(c)
                return
            }
            guard c.parser.pendingBytes < cap else { process(c); return }
            var buffer = [UInt8](repeating: 0, count: 8192)
            let n = buffer.withUnsafeMutableBytes { recv(c.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                drop(c); return
            }
            if n == 0 { drop(c); return }
            buffer.withUnsafeBytes { c.parser.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            process(c)
            if n < buffer.count { break }
        }
    }

    /// Takes the next request the parser has, if the connection is free to answer one.
    private func process(_ c: WebConnection) {
        guard connections[c.id] != nil else { return }
        switch c.phase {
        case .idle, .reading: break
        case .answering, .writing, .streaming: return
        }
        let now = loop.now()
        switch c.parser.next() {
        case .needMore:
            if c.parser.isMidRequest {
                if case .idle = c.phase { c.phase = .reading(since: now) }
            } else {
                c.phase = .idle(since: now)
            }
            updateInterest(c)
        case .failure(let e):
            c.phase = .writing(close: true)
            c.queue(app.refusal(e).serialized(close: true))
            write(c)
        case .request(let request):
            c.phase = .answering
            app.respond(to: request, on: self) { [weak self] answer in
                // Answers come on this thread (edits are carried back by `onWebThread`).
                self?.deliver(answer, for: request, to: c)
            }
        }
    }

    private func deliver(_ answer: WebApp.Answer, for request: HTTPRequest, to c: WebConnection) {
        guard connections[c.id] != nil else { return }
        switch answer {
        case .response(let r):
            if r.status.rawValue < 400 { c.standing = .proven }
            let close = !request.keepsAlive
            c.phase = .writing(close: close)
            c.queue(r.serialized(method: request.method, close: close))
        case .eventStream(let head):
            c.standing = .proven
            c.phase = .streaming
            c.queue(head.serialized(method: request.method, streaming: true))
            streamsWereRecording[c.id] = mirror.snapshot.isRecording
            startTicker()
            pushLive(to: c)
        }
        write(c)
    }

    private func write(_ c: WebConnection) {
        guard c.flush(now: loop.now()) else { drop(c); return }
        if c.pendingOutput == 0, case .writing(let close) = c.phase {
            if close { drop(c); return }
            c.phase = .idle(since: loop.now())
            if connections.values.allSatisfy({ $0.pendingOutput == 0 }) { MemoryPolicy.returnFreedMemory() }
            // A request that arrived while this one was answered (pipelining).
            process(c)
            if case .idle = c.phase { read(c) }
            return
        }
        updateInterest(c)
    }

    private func updateInterest(_ c: WebConnection) {
        var events: Int16 = 0
        switch c.phase {
        case .idle, .reading, .streaming: events = Int16(POLLIN)
        case .answering: events = 0
        case .writing: break
        }
        if c.pendingOutput > 0 { events |= Int16(POLLOUT) }
        loop.setEvents(c.token, events)
    }

    private func drop(_ c: WebConnection) {
        guard connections.remove(c) else { return }
        loop.unwatch(c.token)
        Glibc.close(c.fd)
        streamsWereRecording[c.id] = nil
        if connections.isEmpty { MemoryPolicy.returnFreedMemory() }
    }

    /// Once a second: requests that take too long to arrive (slowloris) get 408, idle
    /// keep-alive connections and peers that stopped reading are closed; a connection not yet
    /// let in gets `unprovenSeconds` for both.
    private func sweep() {
        let now = loop.now()
        for c in Array(connections.values) {
            let idle: Double, request: Double
            switch c.standing {
            case .unproven: idle = min(limits.idleSeconds, limits.unprovenSeconds); request = min(limits.requestSeconds, limits.unprovenSeconds)
            case .proven: idle = limits.idleSeconds; request = limits.requestSeconds
            }
            switch c.phase {
            case .reading(let since) where now - since > request:
                c.phase = .writing(close: true)
                c.queue(HTTPResponse.text(.requestTimeout, "the request did not arrive within \(JSON.format(request)) s", headers: WebAccess.securityHeaders).serialized(close: true))
                write(c)
            case .idle(let since) where now - since > idle:
                drop(c)
            case .writing, .streaming:
                if c.pendingOutput > 0, now - c.lastProgress > limits.stallSeconds { drop(c) }
            case .reading, .idle, .answering:
                break
            }
        }
    }

    // MARK: - Live events

    private var streams: [WebConnection] {
        connections.values.filter { if case .streaming = $0.phase { return true } else { return false } }
    }

    private func startTicker() {
        guard ticker == nil else { return }
        ticker = loop.every(1) { [unowned self] in
            if self.streams.isEmpty {
                self.ticker?.cancel()
                self.ticker = nil
                self.mirror = LiveMirror()  // nobody watches: the copy of the track goes
                return
            }
            self.refreshLive { self.broadcastLive() }
        }
    }

    /// Asks the daemon's loop for the live workout's news (one request at a time).
    func refreshLive(_ then: @escaping () -> Void) {
        if liveWaiters != nil { liveWaiters!.append(then); return }
        liveWaiters = [then]
        let loop = self.loop!
        app.backend.live(mirror.request) { [weak self] delta in
            loop.post { [weak self] in
                guard let self else { return }
                self.mirror.apply(delta)
                let waiters = self.liveWaiters ?? []
                self.liveWaiters = nil
                for w in waiters { w() }
            }
        }
    }

    var liveSnapshot: LiveSnapshot { mirror.snapshot }

    private func broadcastLive() {
        let targets = streams
        guard !targets.isEmpty else { return }
        let context = app.context()
        var withRoute: [UInt8]?
        var withReload: [UInt8]?
        for c in targets {
            let was = streamsWereRecording[c.id] ?? false
            let event: [UInt8]
            if was != mirror.snapshot.isRecording {
                if withReload == nil { withReload = LivePage.event(mirror.snapshot, context, wasRecording: was, includeRoute: false) }
                event = withReload!
            } else {
                if withRoute == nil { withRoute = LivePage.event(mirror.snapshot, context, wasRecording: was) }
                event = withRoute!
            }
            guard c.pendingOutput + event.count <= WebThread.maxStreamBacklog else { drop(c); continue }
            c.queue(event)
            write(c)
        }
    }

    private func pushLive(to c: WebConnection) {
        refreshLive { [weak self] in self?.broadcastLive() }
    }

    /// Runs `body` on the web thread (answers that come back from the daemon's loop).
    func onWebThread(_ body: @escaping @Sendable () -> Void) { loop.post(body) }

    /// `value` bound to the web thread's loop (made there): it may travel through the daemon's
    /// loop and back (`onWebThread`), and is reached on the web thread alone.
    func bound<T>(_ value: T) -> LoopBound<T> { LoopBound(value, loop: loop) }
}
