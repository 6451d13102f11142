import Glibc
import WorkoutCore

/// A message received with the descriptors that came with it. Whoever is handed an
/// `DBusIncoming` owns `fds` and must close those it does not keep.
public struct DBusIncoming {
    public let message: DBusMessage
    public let fds: [Int32]
    public var body: [DBusValue] { message.body }

    /// The descriptor a `.unixFD` body value at `index` refers to.
    public func fd(at bodyIndex: Int) -> Int32? {
        guard bodyIndex < message.body.count, let i = message.body[bodyIndex].unixFDIndex, Int(i) < fds.count else { return nil }
        return fds[Int(i)]
    }
}

/// What an exported method handler answers.
public enum DBusMethodResult {
    /// A return with these values; `fds` are duplicated for sending (the handler keeps its own).
    case reply([DBusValue], fds: [Int32] = [])
    case error(name: String, message: String)
}

/// A client connection to a bus, driven by the daemon's `EventLoop`: the socket is non-blocking,
/// read when poll says so and written when it has room; every callback runs on the loop thread.
/// It authenticates (SASL EXTERNAL, unix fds negotiated), says Hello, and then sends calls
/// (replies matched by serial, error replies as `DBusError.remote`, a timeout per call),
/// receives signals for AddMatch rules, answers calls to exported paths, and passes unix
/// descriptors both ways. Calls made before Hello's reply wait and go out in order.
public final class DBusConnection {
    public typealias ReplyHandler = (Result<DBusIncoming, DBusError>) -> Void

    /// Where the connection stands; its cases carry what exists in that phase.
    public enum Phase {
        /// Handshake lines being exchanged. -> greeting, closed
        case authenticating(DBusAuthentication)
        /// BEGIN and Hello sent; waiting for Hello's reply. -> ready, closed
        case greeting(unixFDs: Bool)
        /// Hello answered: `uniqueName` is our name on the bus. -> closed
        case ready(uniqueName: String, unixFDs: Bool)
        /// Closed for this reason; terminal.
        case closed(DBusError)
    }

    public private(set) var phase: Phase
    /// Called once, on the loop thread, when Hello is answered (or the connection fails first).
    public var onReady: ((Result<String, DBusError>) -> Void)?
    /// Called once when the connection closes for any reason but `close()`.
    public var onClose: ((DBusError) -> Void)?
    /// Default seconds a call waits for its reply.
    public var defaultTimeout = 25.0
    /// The largest message accepted from the bus.
    public static let maximumIncomingMessage = 1 << 24  // 16 MiB
    /// At most this many received descriptors may wait for their message.
    static let maximumPendingFDs = 1024
    /// A bus that stops reading while we keep sending is dropped past this many queued bytes.
    static let maximumQueuedBytes = 1 << 24

    private let loop: EventLoop
    private let fd: Int32
    public let address: DBusAddress
    private var watchToken: EventLoop.Token?
    private var nextSerial: UInt32 = 1
    private var authLine: [UInt8] = []
    private var framer = DBusMessageFramer(maximumMessageLength: DBusConnection.maximumIncomingMessage)
    /// The last header read: a sensor's notifications repeat it (`DBusHeaderCache`).
    private var headerCache = DBusHeaderCache()
    private var receivedFDs: [Int32] = []
    private var readBuffer = [UInt8](repeating: 0, count: 1 << 16)
    private var controlBuffer = [UInt8](repeating: 0, count: DBusSocket.controlSpace(fds: DBusSocket.maximumFDsPerRead))

    private struct Outgoing {
        var bytes: [UInt8]
        /// Our own duplicates, closed once sent.
        var fds: [Int32]
        var sent = 0
        /// The call this is, when a reply handler waits for it.
        var serial: UInt32? = nil
    }
    /// Written in order as the socket has room.
    private var sendQueue: [Outgoing] = []
    /// Messages queued during the handshake; they follow Hello.
    private var held: [Outgoing] = []

    private struct Pending {
        var member: String
        var timer: EventLoop.Token?
        var handler: ReplyHandler
    }
    private var pending: [UInt32: Pending] = [:]
    /// In the order they were added (signals go to handlers in that order).
    private var matches: [(token: Int, rule: DBusMatchRule, handler: (DBusMessage) -> Void)] = []
    private var nextMatch = 1
    private var exported: [String: (DBusIncoming) -> DBusMethodResult] = [:]

    /// Connects and starts the handshake; `onReady` (set right after, before the loop runs
    /// again) reports Hello's answer. Throws only when the socket cannot be connected.
    /// `mode`: how the connection's socket wakes the loop (`setMode`).
    public init(address: DBusAddress, loop: EventLoop, uid: UInt32 = getuid(), mode: WatchMode = .immediate) throws(DBusError) {
        self.loop = loop
        self.address = address
        fd = try DBusSocket.connect(address)
        phase = .authenticating(DBusAuthentication())
        sendQueue.append(Outgoing(bytes: DBusAuthentication.opening(uid: uid), fds: []))
        watchToken = loop.watch(fd, events: Int16(POLLIN | POLLOUT), mode: mode) { [weak self] revents in self?.ready(revents) }
    }

    deinit {
        if case .closed = phase {} else { shutdown(.disconnected("connection released"), notify: false) }
    }

    /// While a handler runs for a message: about how many seconds before now it arrived. 0 but
    /// for messages read together in `.batched` mode, which are spread evenly over the time
    /// since the last read (`EventLoop.arrivalAges`).
    public private(set) var messageAge: Double = 0

    /// How the socket wakes the loop: `.batched` for a sensor's connection once subscribed
    /// (its notifications come many times a second; a reply then waits up to 1 s),
    /// `.immediate` while calls go back and forth.
    public func setMode(_ mode: WatchMode) {
        if let watchToken { loop.setMode(watchToken, mode) }
    }

    /// Our unique name once Hello is answered.
    public var uniqueName: String? {
        if case .ready(let name, _) = phase { return name }
        return nil
    }

    public var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    // MARK: - API

    /// Sends a method call; `reply` gets the return (with any descriptors) or an error.
    /// `fds` are duplicated for sending: the caller keeps (and closes) its own. The message's
    /// `.unixFD(i)` values index into `fds`.
    public func call(_ message: DBusMessage, fds: [Int32] = [], timeout: Double? = nil, reply: @escaping ReplyHandler) {
        var m = message
        m.flags.remove(.noReplyExpected)
        let serial = allocateSerial()
        let name = "\(m.interface.map { $0 + "." } ?? "")\(m.member ?? "?")"
        switch enqueue(&m, serial: serial, fds: fds) {
        case .failure(let e):
            loop.after(0) { reply(.failure(e)) }  // never call back before `call` returned
            return
        case .success: break
        }
        let seconds = timeout ?? defaultTimeout
        let timer = loop.after(seconds) { [weak self] in
            guard let self, let p = self.pending.removeValue(forKey: serial) else { return }
            p.handler(.failure(.timedOut(member: name, seconds: seconds)))
        }
        pending[serial] = Pending(member: name, timer: timer, handler: reply)
    }

    /// Sends a message expecting no reply (a signal, or a call flagged noReplyExpected).
    public func send(_ message: DBusMessage, fds: [Int32] = []) throws(DBusError) {
        var m = message
        if m.kind == .methodCall { m.flags.insert(.noReplyExpected) }
        if case .failure(let e) = enqueue(&m, serial: allocateSerial(), fds: fds) { throw e }
    }

    /// Calls a method of the bus itself (org.freedesktop.DBus).
    public func callBus(_ member: String, _ body: [DBusValue] = [], reply: @escaping ReplyHandler) {
        call(.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                         interface: "org.freedesktop.DBus", member: member, body: body), reply: reply)
    }

    /// Subscribes to signals matching `rule` (AddMatch); `handler` gets each one. `done`
    /// reports whether the bus accepted the rule. Returns a token for `removeMatch`.
    @discardableResult
    public func addMatch(_ rule: DBusMatchRule, done: ((Result<Void, DBusError>) -> Void)? = nil,
                         handler: @escaping (DBusMessage) -> Void) -> Int {
        let token = nextMatch
        nextMatch += 1
        matches.append((token, rule, handler))
        callBus("AddMatch", [.string(rule.description)]) { [weak self] result in
            switch result {
            case .success: done?(.success(()))
            case .failure(let e):
                self?.matches.removeAll { $0.token == token }
                done?(.failure(e))
            }
        }
        return token
    }

    public func removeMatch(_ token: Int) {
        guard let i = matches.firstIndex(where: { $0.token == token }) else { return }
        let m = matches.remove(at: i)
        guard !isClosed else { return }
        callBus("RemoveMatch", [.string(m.rule.description)]) { _ in }
    }

    /// Answers method calls to `path` with `handler` (any interface). The handler owns the
    /// descriptors it receives. Calls to other paths get UnknownObject.
    public func export(path: String, handler: @escaping (DBusIncoming) -> DBusMethodResult) {
        exported[path] = handler
    }

    /// Closes the connection: pending calls fail with `.disconnected`; `onClose` is not called.
    public func close() {
        shutdown(.disconnected("closed by us"), notify: false)
    }

    /// Tests: stop reading and writing without closing the socket (a peer that hangs).
    func detachForTesting() {
        if let watchToken { loop.unwatch(watchToken) }
        watchToken = nil
    }

    // MARK: - Sending

    private func allocateSerial() -> UInt32 {
        let s = nextSerial
        nextSerial = nextSerial == .max ? 1 : nextSerial + 1
        return s
    }

    private func enqueue(_ m: inout DBusMessage, serial: UInt32, fds: [Int32]) -> Result<Void, DBusError> {
        let canPassFDs: Bool
        switch phase {
        case .closed(let e): return .failure(e)
        case .authenticating: canPassFDs = true  // checked again when the handshake ends
        case .greeting(let u), .ready(_, let u): canPassFDs = u
        }
        if !fds.isEmpty && !canPassFDs {
            return .failure(.disconnected("the bus does not pass unix file descriptors"))
        }
        m.unixFDCount = UInt32(fds.count)
        let bytes: [UInt8]
        do { bytes = try m.encoded(serial: serial) } catch { return .failure(.malformed(error)) }
        var dups: [Int32] = []
        for f in fds {
            let d = fcntl(f, F_DUPFD_CLOEXEC, 0)
            guard d >= 0 else {
                let e = SystemError.last("dup fd \(f)")
                for x in dups { Glibc.close(x) }
                return .failure(.disconnected(e.description))
            }
            dups.append(d)
        }
        let out = Outgoing(bytes: bytes, fds: dups, serial: serial)
        let queued = (sendQueue + held).reduce(0) { $0 + $1.bytes.count - $1.sent }
        if queued + bytes.count > DBusConnection.maximumQueuedBytes {
            closeAll(dups)
            let e = DBusError.disconnected("the bus stopped reading (\(queued) bytes waiting to be sent)")
            loop.after(0) { [weak self] in self?.shutdown(e, notify: true) }
            return .failure(e)
        }
        switch phase {
        case .authenticating: held.append(out)
        case .greeting, .ready:
            sendQueue.append(out)
            flush()
        case .closed: break
        }
        return .success(())
    }

    private func flush() {
        while let first = sendQueue.first {
            let n = DBusSocket.send(fd, first.bytes, from: first.sent, fds: first.sent == 0 ? first.fds : [])
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                shutdown(.disconnected(SystemError.last("send").description), notify: true)
                return
            }
            sendQueue[0].sent += n
            if sendQueue[0].sent == sendQueue[0].bytes.count {
                for d in sendQueue[0].fds { Glibc.close(d) }
                sendQueue.removeFirst()
            } else if first.sent == 0 {
                // The descriptors went with the first bytes: never send them twice.
                for d in sendQueue[0].fds { Glibc.close(d) }
                sendQueue[0].fds = []
            }
        }
        if let watchToken { loop.setEvents(watchToken, Int16(sendQueue.isEmpty ? POLLIN : POLLIN | POLLOUT)) }
    }

    // MARK: - Receiving

    private func ready(_ revents: Int16) {
        if revents & Int16(POLLOUT) != 0 { flush() }
        guard !isClosed else { return }
        if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { readAvailable(untilEmpty: revents & Int16(POLLHUP | POLLERR) != 0) }
    }

    /// Reads what the socket holds. `untilEmpty` (the peer hung up or the socket failed): on
    /// to the end of stream or the error, which the connection then reports at once.
    private func readAvailable(untilEmpty: Bool) {
        while !isClosed {
            let r = DBusSocket.receive(fd, into: &readBuffer, control: &controlBuffer)
            receivedFDs += r.fds
            if r.truncatedFDs {
                shutdown(.disconnected("descriptors from the bus were dropped (too many at once)"), notify: true)
                return
            }
            if receivedFDs.count > DBusConnection.maximumPendingFDs {
                shutdown(.disconnected("more than \(DBusConnection.maximumPendingFDs) descriptors without their messages"), notify: true)
                return
            }
            if r.count == 0 {
                shutdown(.disconnected("the bus closed the connection"), notify: true)
                return
            }
            if r.count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
                shutdown(.disconnected(SystemError.last("recv").description), notify: true)
                return
            }
            consume(readBuffer[0..<r.count])
            // A short read emptied the socket (a stream gives what it holds, up to a boundary
            // where descriptors travel): the next read would only say EAGAIN. Anything left or
            // arriving meanwhile makes the descriptor ready again (poll is level-triggered).
            // A notification costs one recvmsg instead of two (BENCHMARKS.md, four sensors).
            if !untilEmpty && r.count < readBuffer.count && r.fds.isEmpty { return }
        }
    }

    private func consume(_ bytes: ArraySlice<UInt8>) {
        var rest = bytes
        if case .authenticating = phase {
            while case .authenticating(var auth) = phase, !rest.isEmpty {
                let b = rest.removeFirst()
                guard b != UInt8(ascii: "\n") else {
                    var line = authLine
                    authLine = []
                    if line.last == UInt8(ascii: "\r") { line.removeLast() }
                    let step = auth.receive(line: String(decoding: line, as: UTF8.self))
                    switch step {
                    case .send(let out):
                        phase = .authenticating(auth)
                        sendQueue.append(Outgoing(bytes: out, fds: []))
                        flush()
                    case .begin(let out, let unixFDs):
                        phase = .greeting(unixFDs: unixFDs)
                        sendQueue.append(Outgoing(bytes: out, fds: []))
                        sayHello(unixFDs: unixFDs)
                    case .fail(let why):
                        shutdown(.authenticationFailed(why), notify: true)
                        return
                    }
                    continue
                }
                authLine.append(b)
                if authLine.count > DBusAuthentication.maximumLineLength {
                    shutdown(.authenticationFailed("handshake line longer than \(DBusAuthentication.maximumLineLength) bytes"), notify: true)
                    return
                }
            }
            if rest.isEmpty { return }
        }
        framer.append(rest)
        // Every whole message first, then each dispatched: how many came together dates them
        // (`messageAge`). A malformed one ends the connection after those before it.
        var incoming: [DBusIncoming] = []
        var failure: DBusError?
        while failure == nil {
            let frame: [UInt8]
            do {
                guard let f = try framer.nextFrame() else { break }
                frame = f
            } catch {
                failure = .malformed(error)
                break
            }
            let message: DBusMessage
            do { message = try DBusMessage.decode(frame, headerCache: &headerCache) } catch {
                if case .unknownMessageType = error { continue }  // the specification: ignore
                failure = .malformed(error)
                break
            }
            let n = Int(message.unixFDCount)
            guard n <= receivedFDs.count else {
                failure = .disconnected("a message announced \(n) descriptors but \(receivedFDs.count) arrived")
                break
            }
            let fds = Array(receivedFDs.prefix(n))
            receivedFDs.removeFirst(n)
            incoming.append(DBusIncoming(message: message, fds: fds))
        }
        let ages = arrivalAges(incoming)
        for (i, m) in incoming.enumerated() {
            guard !isClosed else { closeAll(m.fds); continue }
            messageAge = ages.isEmpty ? 0 : ages[i]
            dispatch(m)
        }
        messageAge = 0
        if let failure { shutdown(failure, notify: true) }
    }

    /// How long ago each of these messages, read together, arrived (`messageAge`); empty when
    /// read as they came.
    private func arrivalAges(_ incoming: [DBusIncoming]) -> [Double] {
        guard incoming.count > 1, loop.inputSpan > 0 else { return [] }
        return DBusConnection.arrivalAges(paths: incoming.map(\.message.path), span: loop.inputSpan)
    }

    /// The ages of messages read together after `span` seconds unread: the messages of one
    /// object (a characteristic's notifications, which come at its own rate) spread evenly over
    /// the span, its last at 0 (`EventLoop.arrivalAges`), each object's apart; so a device's
    /// drop that follows a reading is not dated a share of the span after it.
    static func arrivalAges(paths: [String?], span: Double) -> [Double] {
        var counts: [String: Int] = [:]
        for p in paths { counts[p ?? "", default: 0] += 1 }
        var seen: [String: Int] = [:]
        return paths.map { p in
            let path = p ?? "", k = counts[path] ?? 1, j = seen[path, default: 0]
            seen[path] = j + 1
            return span * Double(k - 1 - j) / Double(k)
        }
    }

    private func sayHello(unixFDs: Bool) {
        var hello = DBusMessage.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                           interface: "org.freedesktop.DBus", member: "Hello")
        let serial = allocateSerial()
        hello.serial = serial
        guard let bytes = try? hello.encoded(serial: serial) else { return }
        pending[serial] = Pending(member: "Hello", timer: nil, handler: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let r):
                guard let name = r.body.first?.string else {
                    self.shutdown(.disconnected("Hello's reply has no name"), notify: true)
                    return
                }
                self.phase = .ready(uniqueName: name, unixFDs: unixFDs)
                let ready = self.onReady
                self.onReady = nil
                ready?(.success(name))
            case .failure(let e):
                self.shutdown(e, notify: true)
            }
        })
        sendQueue.append(Outgoing(bytes: bytes, fds: []))
        let waiting = held
        held = []
        for w in waiting {
            if !w.fds.isEmpty && !unixFDs {
                // Queued during the handshake, before we knew the bus cannot pass descriptors.
                closeAll(w.fds)
                if let s = w.serial, let p = pending.removeValue(forKey: s) {
                    if let t = p.timer { loop.cancel(t) }
                    loop.after(0) { p.handler(.failure(.disconnected("the bus does not pass unix file descriptors"))) }
                }
                continue
            }
            sendQueue.append(w)
        }
        flush()
    }

    private func dispatch(_ incoming: DBusIncoming) {
        let m = incoming.message
        switch m.kind {
        case .methodReturn, .error:
            guard let serial = m.replySerial, let p = pending.removeValue(forKey: serial) else {
                closeAll(incoming.fds)  // a late reply after a timeout: nobody wants it
                return
            }
            if let t = p.timer { loop.cancel(t) }
            if m.kind == .error {
                closeAll(incoming.fds)
                p.handler(.failure(.remote(name: m.errorName ?? "?", message: m.errorMessage ?? "")))
            } else {
                p.handler(.success(incoming))
            }
        case .signal:
            closeAll(incoming.fds)
            // Tokens only grow, so the array is in token order already (no sort per signal).
            // A handler may add or remove matches: the ones present when the signal came are
            // offered it, as before (a copy of an array is not a copy of its storage).
            for entry in matches where entry.rule.matches(m) {
                entry.handler(m)
                if isClosed { return }
            }
        case .methodCall:
            answer(incoming)
        }
    }

    private func answer(_ incoming: DBusIncoming) {
        let m = incoming.message
        let result: DBusMethodResult
        if m.interface == "org.freedesktop.DBus.Peer" && m.member == "Ping" {
            closeAll(incoming.fds)
            result = .reply([])
        } else if let path = m.path, let handler = exported[path] {
            result = handler(incoming)
        } else {
            closeAll(incoming.fds)
            result = .error(name: "org.freedesktop.DBus.Error.UnknownObject", message: "no object at \(m.path ?? "?")")
        }
        guard !m.flags.contains(.noReplyExpected), !isClosed else { return }
        switch result {
        case .reply(let values, let fds):
            if case .failure(let e) = enqueueReply(.methodReturn(to: m, body: values), fds: fds) {
                // The caller still gets an answer: why its reply could not be sent.
                _ = enqueueReply(.error(to: m, name: "org.freedesktop.DBus.Error.Failed", message: "\(e)"), fds: [])
            }
        case .error(let name, let message):
            _ = enqueueReply(.error(to: m, name: name, message: message), fds: [])
        }
    }

    private func enqueueReply(_ reply: DBusMessage, fds: [Int32]) -> Result<Void, DBusError> {
        var r = reply
        return enqueue(&r, serial: allocateSerial(), fds: fds)
    }

    private func closeAll(_ fds: [Int32]) { for f in fds { Glibc.close(f) } }

    // MARK: - Closing

    private func shutdown(_ reason: DBusError, notify: Bool) {
        if case .closed = phase { return }
        phase = .closed(reason)
        if let watchToken { loop.unwatch(watchToken) }
        watchToken = nil
        Glibc.close(fd)
        closeAll(receivedFDs)
        receivedFDs = []
        for o in sendQueue + held { closeAll(o.fds) }
        sendQueue = []
        held = []
        let calls = pending
        pending = [:]
        matches = []
        for (_, p) in calls.sorted(by: { $0.key < $1.key }) {
            if let t = p.timer { loop.cancel(t) }
            if p.member != "Hello" { p.handler(.failure(reason)) }
        }
        let ready = onReady
        onReady = nil
        ready?(.failure(reason))
        let closed = onClose
        onClose = nil
        if notify { closed?(reason) }
    }
}
