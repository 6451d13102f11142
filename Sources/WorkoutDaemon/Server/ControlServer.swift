import Glibc
import WorkoutCore

/// Serves the JSON-lines control protocol (docs/protocol.md) on a listening Unix socket:
/// many clients at once, request limits, idle timeouts, and `watch` subscriptions.
public final class ControlServer {
    /// Answers one decoded request with the descriptors it carried (`descriptorCount` of them,
    /// owned by the handler from then on). `.watch` is handled here; the handler gives the first event.
    public typealias Handler = (ControlRequest, [Int32]) -> ControlReply

    private let loop: EventLoop
    private let listenFD: Int32
    private var connections: [Int: ControlConnection] = [:]
    private var nextID = 1
    private var sweeper: RepeatingTimer?
    /// The clients' limits (a reload replaces them): the request size applies to the next
    /// bytes read from every client connected (set before each feed: a reload arrives inside
    /// one client's feed), the timeout to the next sweep, the count to the next accept.
    public var limits: LimitsConfig
    private let handler: Handler
    /// Largest backlog of unread events a `watch` subscriber may accumulate before it is dropped
    /// (it stopped reading).
    private let maxPendingOutput = 4 << 20
    /// Most received descriptors a client may have waiting for their request.
    private let maxQueuedDescriptors = 2 * ControlRequest.maxDescriptors
    /// Replies waiting beyond this many bytes stop a client's requests from being read: the rest
    /// of what it sent stays in its line framer and in the socket until it reads its replies. A
    /// client that pipelines 200 `export`s and never reads holds at most this plus one reply
    /// (a single reply is not limited: a `list` of 10,000 workouts is several MiB and is written
    /// as the client reads it), and costs the loop one request per turn, not 200 in a row.
    static let replyBacklogLimit = 256 << 10
    /// Most bytes a client may send while its request is answered off the loop.
    static let maxHeldWhileAwaiting = 1 << 20
    /// Time one client's requests may take in one turn of the loop before the rest wait for the
    /// next turn (at least one request is served): pipelined requests never delay other clients
    /// by more than about one request.
    static let turnBudget = 0.002
    private var acceptor: Acceptor?
    /// The socket file this server bound (not one passed by systemd), removed at `close` so that
    /// clients then read "not running" rather than "connection refused"; with its inode, so a
    /// newer daemon's socket at the same path is left alone.
    private var boundSocket: (path: String, inode: ino_t)?
    /// Called once when the daemon runs out of descriptors (the daemon logs it), and when it ends.
    public var onDescriptorExhaustion: (_ exhausted: Bool, _ reason: String) -> Void = { _, _ in } {
        didSet { acceptor?.onExhausted = onDescriptorExhaustion }
    }

    public init(loop: EventLoop, listenFD: Int32, limits: LimitsConfig, boundPath: String? = nil, handler: @escaping Handler) {
        var st = stat()
        if let boundPath, lstat(boundPath, &st) == 0 { boundSocket = (boundPath, st.st_ino) }
        self.loop = loop
        self.listenFD = listenFD
        self.limits = limits
        self.handler = handler
        let acceptor = Acceptor(loop: loop, listenFD: listenFD) { [unowned self] fd in self.adopt(fd) }
        acceptor.refuse = { fd in
            ControlServer.refuse(fd, ProtocolError(code: "busy", message: "workoutd is out of file descriptors; try again later"))
        }
        self.acceptor = acceptor
        sweeper = loop.every(1) { [unowned self] in self.sweep() }
    }

    public var clientCount: Int { connections.count }
    public var watcherCount: Int {
        connections.values.filter { c in
            switch c.mode {
            case .watching: return true
            case .requests, .closing, .draining, .awaiting: return false
            }
        }.count
    }

    /// Stops accepting and closes every client (shutdown, first step).
    public func close() {
        acceptor?.close()
        sweeper?.cancel()
        for c in Array(connections.values) {
            _ = c.flush()
            drop(c)
        }
        Glibc.close(listenFD)
        var st = stat()
        if let (path, inode) = boundSocket, lstat(path, &st) == 0, st.st_ino == inode, (st.st_mode & S_IFMT) == S_IFSOCK { unlink(path) }
    }

    /// Sends an event line (compact JSON text without the newline) to every `watch` subscriber.
    public func broadcast(encoded event: [UInt8]) {
        for c in connections.values {
            guard case .watching = c.mode else { continue }
            c.queue(encoded: event)
            write(c)
        }
    }

    /// A new client from the acceptor.
    private func adopt(_ fd: Int32) {
        guard UnixSocket.peerIsAllowed(fd) else {
            ControlServer.refuse(fd, ProtocolError(code: "forbidden", message: "only the user running workoutd (uid \(getuid())) may use this socket"))
            return
        }
        guard connections.count < limits.maxClients else {
            ControlServer.refuse(fd, ProtocolError(code: "busy", message: "too many clients (\(limits.maxClients)); try again later"))
            return
        }
        let c = ControlConnection(fd: fd, id: nextID, maxLine: limits.maxRequestBytes, now: loop.now())
        nextID += 1
        connections[c.id] = c
        c.token = loop.watch(fd) { [weak self, weak c] revents in
            guard let self, let c else { return }
            self.ready(c, revents)
        }
        // A client usually sends its request right after connecting: answer it now rather
        // than on the next turn of the loop (which may first spend a feed's budget).
        read(c)
    }

    private static func refuse(_ fd: Int32, _ error: ProtocolError) {
        var s = ControlServer.errorReply(error).serialized()
        s += "\n"
        _ = s.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        Glibc.close(fd)
    }

    private func ready(_ c: ControlConnection, _ revents: Int16) {
        if revents & Int16(POLLOUT) != 0 { write(c) }
        guard connections[c.id] != nil else { return }
        // Requests held for a later turn (budget) or until replies were read (backlog).
        if c.lines.hasHeldLines, !c.isAwaiting, c.pendingOutput <= ControlServer.replyBacklogLimit {
            c.turnStarted = loop.now()
            c.lines.maxLine = limits.maxRequestBytes
            c.lines.drain { item in take(item, on: c) }
            notePartial(c)
            write(c)
            guard connections[c.id] != nil, !c.lines.hasHeldLines else { return }
        }
        if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { read(c) }
    }

    private func read(_ c: ControlConnection) {
        var buf = [UInt8](repeating: 0, count: 16384)
        c.turnStarted = loop.now()
        // While requests are held (replies waiting), nothing more is read: see `replyBacklogLimit`.
        // Awaiting a reply off the loop, input is still read (held in the framer, bounded) so that
        // a client shutting its writing side (Ctrl-C) is seen at once.
        while connections[c.id] != nil, !c.lines.hasHeldLines || c.isAwaiting {
            let n = buf.withUnsafeMutableBytes { ReceivedDescriptors.receive(c.fd, into: $0, descriptors: &c.descriptors) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                drop(c); return
            }
            if c.descriptors.count > maxQueuedDescriptors {
                // More than any request can take: a client hoarding our descriptor table.
                c.closeDescriptors()
                c.queue(ControlServer.errorReply(.badRequest("more than \(maxQueuedDescriptors) descriptors sent ahead of their requests")))
                c.mode = .closing
            }
            if n == 0 {
                if case .awaiting(let pending, .open) = c.mode {
                    // Shut for writing (Ctrl-C in workoutctl import): stop after the current
                    // file, then send what was done and close.
                    c.mode = .awaiting(pending, input: .finished)
                    pending.cancel.set()
                    loop.setEvents(c.token, c.pendingOutput > 0 ? Int16(POLLOUT) : 0)
                    return
                }
                drop(c); return  // peer closed (possibly mid-request): forget it
            }
            switch c.mode {
            case .draining: continue  // dropped unread; the 2 s limit counts from the reply
            case .awaiting:
                if c.lines.pendingCount > ControlServer.maxHeldWhileAwaiting { drop(c); return }
                c.lastActivity = loop.now()
            case .requests, .watching, .closing: c.lastActivity = loop.now()
            }
            c.lines.maxLine = limits.maxRequestBytes
            buf.withUnsafeBytes { raw in
                // Held lines (a false `take`) are drained when the reply goes out.
                _ = c.lines.feed(UnsafeRawBufferPointer(rebasing: raw[0..<n])) { item in take(item, on: c) }
            }
            notePartial(c)
            if n < buf.count { break }
        }
        write(c)
    }

    /// One framed request line (or an overlong one). Returns false to stop taking requests from
    /// this client while more than `replyBacklogLimit` bytes of replies wait to be read.
    private func take(_ item: LineFramer.Item, on c: ControlConnection) -> Bool {
        guard case .requests = c.mode else { return true }  // watchers' and closing input is ignored
        switch item {
        case .tooLong:
            c.queue(ControlServer.errorReply(.badRequest("request line longer than \(limits.maxRequestBytes) bytes")))
            c.mode = .closing
        case .line(let line):
            handle(line, on: c)
            // Computing a big reply (a `list` of 10,000 workouts on a loaded machine) is not the
            // client's silence: the idle timeout counts from when its reply is ready.
            c.lastActivity = loop.now()
        }
        // A request answered off the loop: what the client sends next is held until its reply.
        if case .awaiting = c.mode { return false }
        if c.pendingOutput > ControlServer.replyBacklogLimit { _ = c.flush() }
        return c.pendingOutput <= ControlServer.replyBacklogLimit && loop.now() - c.turnStarted < ControlServer.turnBudget
    }

    /// When the unfinished request now buffered began (the slowloris limit; held requests count).
    private func notePartial(_ c: ControlConnection) {
        if c.lines.pendingCount == 0 {
            c.partialSince = nil
        } else if c.partialSince == nil {
            c.partialSince = loop.now()
        }
    }

    private func handle(_ line: UnsafeBufferPointer<UInt8>, on c: ControlConnection) {
        if line.isEmpty { return }
        switch ControlRequest.decode(line: line) {
        case .failure(let e):
            c.queue(ControlServer.errorReply(e))
        case .success(let request):
            let wanted = request.descriptorCount
            guard let fds = c.takeDescriptors(wanted) else {
                c.queue(ControlServer.errorReply(.badRequest("\(request.commandName) carries \(wanted) descriptor\(wanted == 1 ? "" : "s") (SCM_RIGHTS) but \(c.descriptors.count) arrived with it")))
                c.closeDescriptors()
                return
            }
            let reply = handler(request, fds)
            c.queue(reply)
            if case .watch = request, reply.succeeded { c.mode = .watching }
            if case .pending(let pending) = reply { awaitReply(pending, on: c) }
        }
    }

    /// Streams a pending reply's lines to the client; the client's next requests stay held in
    /// its line framer until the reply is done (then they are taken, or the connection closes if
    /// the client had shut its side). The reply outlives the connection when the client dies
    /// first: it holds only the connection's id and finds it (awaiting this very reply) or
    /// nothing, never a reference to a connection that was dropped.
    private func awaitReply(_ pending: PendingReply, on c: ControlConnection) {
        c.mode = .awaiting(pending, input: .open)
        let id = c.id, reply = ObjectIdentifier(pending)
        pending.attach(deliver: { [weak self] line in
            guard let self, let c = self.connection(id, awaiting: reply) else { return }
            c.queue(encoded: line)
            self.write(c)
        }, completed: { [weak self] in
            guard let self, let c = self.connection(id, awaiting: reply), case .awaiting(_, let input) = c.mode else { return }
            c.lastActivity = self.loop.now()
            switch input {
            case .open: c.mode = .requests
            case .finished: c.mode = .closing
            }
            // The requests that waited behind it: taken on the next turn (POLLOUT wakes it).
            self.write(c)
        })
    }

    /// The live connection `id` while it awaits the pending reply `reply`; nil once it was dropped.
    private func connection(_ id: Int, awaiting reply: ObjectIdentifier) -> ControlConnection? {
        guard let c = connections[id], case .awaiting(let p, _) = c.mode, ObjectIdentifier(p) == reply else { return nil }
        return c
    }

    private func write(_ c: ControlConnection) {
        let before = c.pendingOutput
        guard c.flush() else { drop(c); return }
        // A client reading a long reply is not idle (the timeout is for silent clients).
        if c.pendingOutput < before { c.lastActivity = loop.now() }
        switch c.mode {
        case .watching:
            if c.pendingOutput > maxPendingOutput { drop(c); return }
        case .requests, .closing, .awaiting:
            // A client reading a big reply is not silent: its reading is activity.
            if c.pendingOutput < before { c.lastActivity = loop.now() }
        case .draining:
            break
        }
        if case .awaiting(_, let input) = c.mode {
            // Lines and the reply still to come: write what is there; read (for a hang-up or a
            // shut writing side: cancel) unless the client's input is over or requests are held.
            let reading: Int16
            switch input {
            case .open: reading = Int16(POLLIN)
            case .finished: reading = 0
            }
            loop.setEvents(c.token, reading | (c.pendingOutput > 0 ? Int16(POLLOUT) : 0))
            return
        }
        if c.lines.hasHeldLines {
            // Held requests: POLLOUT only (its input stays unread), which wakes the loop on its
            // next turn when the socket is writable, or once the client has read its replies.
            loop.setEvents(c.token, Int16(POLLOUT))
        } else if c.pendingOutput > 0 {
            loop.setEvents(c.token, Int16(POLLIN | POLLOUT))
        } else if case .closing = c.mode {
            shutdown(c.fd, Int32(SHUT_WR))
            c.mode = .draining
            c.lastActivity = loop.now()
            loop.setEvents(c.token, Int16(POLLIN))
        } else {
            loop.setEvents(c.token, Int16(POLLIN))
        }
    }

    private func drop(_ c: ControlConnection) {
        if case .awaiting(let pending, _) = c.mode { pending.abandon() }
        c.closeDescriptors()
        loop.unwatch(c.token)
        Glibc.close(c.fd)
        connections[c.id] = nil
    }

    /// Closes clients silent for longer than the timeout (slow or stuck); watchers are exempt
    /// because they only listen, but are dropped if they stop reading (see `maxPendingOutput`).
    private func sweep() {
        let now = loop.now()
        for c in Array(connections.values) {
            switch c.mode {
            case .watching, .awaiting: continue  // awaiting: the work's own pace (a batch of files)
            case .draining:
                if now - c.lastActivity > 2 { drop(c) }  // a peer still sending after 2 s is cut off
            case .requests, .closing:
                // Silent too long, or trickling a request too slowly (slowloris: each byte is
                // activity, but the line as a whole must arrive within the timeout).
                if now - c.lastActivity > limits.clientTimeoutSeconds { drop(c); continue }
                if let since = c.partialSince, now - since > limits.clientTimeoutSeconds { drop(c) }
            }
        }
    }

    /// The failure reply (`ProtocolError.reply`, typed once with the client's reading of it).
    public static func errorReply(_ e: ProtocolError) -> JSON { e.reply }

    public static func okReply(_ fields: [(String, JSON)] = []) -> JSON {
        var o = JSONObject([("ok", true)])
        for (k, v) in fields { o[k] = v }
        return .object(o)
    }
}
