import Glibc
import Synchronization
import WorkoutCore

/// The daemon's main loop: one thread, `epoll(7)` over every socket, timers, and a queue other
/// threads post closures to (woken through a self-pipe made with `pipe()`). Everything that
/// touches the lifecycle runs here, so transitions are serialised without locks. A hung loop
/// stops pinging the systemd watchdog, which is the point.
///
/// Watches behave as with `poll(2)` (level-triggered, the same event bits, handlers called with
/// the events a poll would report): a descriptor stays registered with the kernel between
/// wake-ups instead of being scanned at each (12 descriptors with four sensors; BENCHMARKS.md).
/// epoll's trap, a registration that outlives its watch (a descriptor closed before `unwatch`
/// while a duplicate of it lives on, or its number reused), is closed by rebuilding the set
/// whenever the kernel's answer shows the set and the watches disagree. What epoll refuses
/// and poll takes is served as poll would: a regular file is always ready, a closed
/// descriptor reports POLLNVAL.
public final class EventLoop: @unchecked Sendable {
    // @unchecked: all mutable state below is touched only on the loop thread (checked in debug
    // builds: `preconditionInLoop`), except `posted` (a Mutex), `runner` (atomic) and `wakeFD`
    // (written atomically by write(2)).
    public typealias Token = Int
    /// `epoll_wait(2)` itself (`EventLoop.wait`), or a stand-in a test gives to make it fail:
    /// (epoll descriptor, event buffer, its capacity, timeout in ms) -> ready count or -1.
    public typealias Poller = (Int32, UnsafeMutableRawPointer, Int32, Int32) -> Int32
    /// The real `epoll_wait`.
    public static func wait(_ epollFD: Int32, _ events: UnsafeMutableRawPointer, _ capacity: Int32, _ timeoutMs: Int32) -> Int32 {
        Epoll.wait(epollFD, events, capacity, timeoutMs)
    }

    private struct Watch {
        var fd: Int32
        var events: Int16
        var mode: WatchMode
        var onReady: (Int16) -> Void
    }
    private struct Timer {
        var due: Double
        var token: Token
        var body: () -> Void
    }

    /// Every clock read of the shell goes through this one: timers, budgets, the dates handed to
    /// the core. The system's clocks in the daemon; a `ManualClock` in tests.
    public let clock: any LoopClock
    private let poller: Poller
    private var watches: [Token: Watch] = [:]
    /// The epoll set; replaced by `rebuild()`.
    private var epollFD: Int32
    /// Each watched descriptor's tokens (a descriptor may be watched twice), in watch order.
    private var tokensByFD: [Int32: [Token]] = [:]
    /// The mask each descriptor has in the epoll set.
    private var registered: [Int32: UInt32] = [:]
    /// Descriptors epoll refused, served as poll would serve them (`Unpollable`).
    private var unpollable: [Int32: Unpollable] = [:]
    private enum Unpollable {
        /// EPERM: a regular file or a directory, which poll reports always ready.
        case alwaysReady
        /// EBADF: not an open descriptor (POLLNVAL).
        case invalid
    }
    private let events: UnsafeMutableRawPointer
    private static let eventCapacity: Int32 = 64
    private var timers: [Timer] = []
    private var nextToken: Token = 1
    private var running = LoopState.running
    /// Read and write ends of the self-pipe that wakes `poll` when another thread posts.
    private let wakeFD: Int32
    private let wakeWriteFD: Int32
    private let posted = Mutex<[@Sendable () -> Void]>([])
    /// Reused between iterations: the coalesced watches polled for input, their tokens, and the
    /// descriptors a wake-up found ready.
    private var lazyFDs: [pollfd] = [], lazyTokens: [Token] = [], ready: [(fd: Int32, events: UInt32)] = []
    /// When coalesced and batched input was last read (monotonic).
    private var lastCoalescedRead: Double = -.infinity
    /// While coalesced and batched input is served: the seconds since it was last read (at most
    /// `batchSeconds`), over which what a handler reads now arrived; 0 otherwise. A batched
    /// watch dates what it reads by it (`arrivalAges`).
    public private(set) var inputSpan: Double = 0
    /// True while coalesced and batched input is being read (`serveCoalesced`).
    public private(set) var isServingInput = false
    /// Run at the end of every read of the coalesced and batched input, before anything else
    /// of that wake-up (`afterInputServed`).
    private var inputServedHooks: [() -> Void] = []

    private enum LoopState { case running, stopping }
    /// The thread running the loop now (`pthread_self`), 0 while none does (`isInLoop`).
    private let runner = Atomic<UInt>(0)

    public init(clock: any LoopClock = SystemClock(), poller: @escaping Poller = EventLoop.wait) throws {
        self.clock = clock
        self.poller = poller
        var p: [Int32] = [0, 0]
        guard pipe(&p) == 0 else { throw SystemError.last("pipe") }
        for fd in p { setNonBlockingCloExec(fd) }
        wakeFD = p[0]
        wakeWriteFD = p[1]
        epollFD = Epoll.create()
        guard epollFD >= 0, Epoll.control(epollFD, Epoll.add, wakeFD, events: UInt32(POLLIN), data: UInt64(UInt32(bitPattern: wakeFD))) == 0 else {
            let e = SystemError.last("epoll")
            close(wakeFD); close(wakeWriteFD)
            if epollFD >= 0 { close(epollFD) }
            throw e
        }
        events = UnsafeMutableRawPointer.allocate(byteCount: Int(EventLoop.eventCapacity) * Epoll.eventSize, alignment: 8)
    }

    deinit { close(wakeFD); close(wakeWriteFD); close(epollFD); events.deallocate() }

    /// Seconds on the loop clock's monotonic clock: immune to the wall clock stepping.
    public func now() -> Double { clock.monotonic() }

    /// Calls `onReady(revents)` whenever `fd` has any of `events` (POLLIN, POLLOUT) or an error;
    /// with `.coalesced`, only when the loop wakes up for something else (see `WatchMode`).
    @discardableResult
    public func watch(_ fd: Int32, events: Int16 = Int16(POLLIN), mode: WatchMode = .immediate,
                      _ onReady: @escaping (Int16) -> Void) -> Token {
        preconditionInLoop()
        let t = nextToken; nextToken += 1
        watches[t] = Watch(fd: fd, events: events, mode: mode, onReady: onReady)
        tokensByFD[fd, default: []].append(t)
        register(fd)
        return t
    }

    public func setEvents(_ token: Token, _ events: Int16) {
        preconditionInLoop()
        guard let w = watches[token], w.events != events else { return }
        watches[token]?.events = events
        register(w.fd)
    }

    public func setMode(_ token: Token, _ mode: WatchMode) {
        preconditionInLoop()
        guard let w = watches[token], w.mode != mode else { return }
        watches[token]?.mode = mode
        register(w.fd)
    }

    public func mode(_ token: Token) -> WatchMode? { watches[token]?.mode }

    public func unwatch(_ token: Token) {
        preconditionInLoop()
        guard let w = watches.removeValue(forKey: token) else { return }
        tokensByFD[w.fd]?.removeAll { $0 == token }
        if tokensByFD[w.fd]?.isEmpty == true { tokensByFD[w.fd] = nil }
        register(w.fd)
    }

    // MARK: - The epoll set

    /// What the watches of `fd` ask of the kernel: an immediate watch's events, a coalesced
    /// watch's hang-up only (its input is polled when the loop wakes anyway). Errors and
    /// hang-ups are always reported.
    private func wanted(_ fd: Int32) -> UInt32? {
        guard let tokens = tokensByFD[fd] else { return nil }
        var mask: UInt32 = 0
        for t in tokens {
            guard let w = watches[t] else { continue }
            switch w.mode {
            case .immediate: mask |= UInt32(UInt16(bitPattern: w.events))
            case .coalesced: mask |= UInt32(UInt16(bitPattern: EventLoop.pollRDHUP))
            case .batched: mask |= UInt32(UInt16(bitPattern: (w.events & ~Int16(POLLIN)) | EventLoop.pollRDHUP))
            }
        }
        return mask
    }

    /// Brings `fd`'s registration in line with its watches. An answer that shows the set does
    /// not hold what we think (the descriptor was closed and its number reused, or closed while
    /// a duplicate lives on) rebuilds the set.
    private func register(_ fd: Int32) {
        let mask = wanted(fd), current = registered[fd]
        if mask == current && unpollable[fd] == nil { return }
        guard let mask else {
            unpollable[fd] = nil
            guard current != nil else { return }
            registered[fd] = nil
            if Epoll.control(epollFD, Epoll.delete, fd, events: 0, data: 0) != 0 { rebuild() }
            return
        }
        let op = current == nil ? Epoll.add : Epoll.modify
        if Epoll.control(epollFD, op, fd, events: mask, data: UInt64(UInt32(bitPattern: fd))) == 0 {
            registered[fd] = mask
            unpollable[fd] = nil
            return
        }
        let e = errno
        if op == Epoll.add && e == EPERM { unpollable[fd] = .alwaysReady; return }
        if op == Epoll.add && e == EBADF { unpollable[fd] = .invalid; return }
        rebuild()
    }

    /// What the refused descriptors report now, as poll would: a regular file is ready for the
    /// input or output an immediate watch asks; a closed descriptor reports POLLNVAL to any.
    private func unpollableEvents(into out: inout [(fd: Int32, events: UInt32)]) {
        for (fd, kind) in unpollable {
            switch kind {
            case .invalid: out.append((fd, UInt32(POLLNVAL)))
            case .alwaysReady:
                var asked: UInt32 = 0
                for t in tokensByFD[fd] ?? [] {
                    guard let w = watches[t] else { continue }
                    switch w.mode {
                    case .immediate: asked |= UInt32(UInt16(bitPattern: w.events)) & UInt32(POLLIN | POLLOUT)
                    case .batched: asked |= UInt32(UInt16(bitPattern: w.events)) & UInt32(POLLOUT)
                    case .coalesced: break  // its input is polled for with the others
                    }
                }
                if asked != 0 { out.append((fd, asked)) }
            }
        }
    }

    /// A fresh epoll set holding exactly the watches: drops any registration left behind.
    private func rebuild() {
        close(epollFD)
        epollFD = Epoll.create()
        registered = [:]
        unpollable = [:]
        _ = Epoll.control(epollFD, Epoll.add, wakeFD, events: UInt32(POLLIN), data: UInt64(UInt32(bitPattern: wakeFD)))
        for fd in tokensByFD.keys.sorted() {
            guard let mask = wanted(fd) else { continue }
            if Epoll.control(epollFD, Epoll.add, fd, events: mask, data: UInt64(UInt32(bitPattern: fd))) == 0 {
                registered[fd] = mask
            } else {
                unpollable[fd] = errno == EPERM ? .alwaysReady : .invalid
            }
        }
    }

    /// Runs `body` at the end of every read of the coalesced and batched input, before the
    /// wake-up's requests, posted closures and timers: an owner of several batched watches puts
    /// what they read in order there (`SensorHub`: readings of several sensors by their dates).
    public func afterInputServed(_ body: @escaping () -> Void) {
        preconditionInLoop()
        inputServedHooks.append(body)
    }

    /// Runs `body` once, `seconds` from now (monotonic).
    @discardableResult
    public func after(_ seconds: Double, _ body: @escaping () -> Void) -> Token {
        at(now() + max(0, seconds), body)
    }

    /// Runs `body` once at the monotonic time `due`.
    @discardableResult
    public func at(_ due: Double, _ body: @escaping () -> Void) -> Token {
        preconditionInLoop()
        let t = nextToken; nextToken += 1
        timers.append(Timer(due: due, token: t, body: body))
        return t
    }

    /// Runs `body` every `seconds` until cancelled with the returned token's `cancel`.
    public func every(_ seconds: Double, _ body: @escaping () -> Void) -> RepeatingTimer {
        let r = RepeatingTimer(loop: self, interval: seconds, body: body)
        r.schedule()
        return r
    }

    /// The timer never runs after this, even when it was due in the batch being run.
    public func cancel(_ token: Token) {
        preconditionInLoop()
        timers.removeAll { $0.token == token }
    }

    /// From any thread: run `body` on the loop thread soon.
    public func post(_ body: @escaping @Sendable () -> Void) {
        posted.withLock { $0.append(body) }
        var one: UInt8 = 1
        _ = write(wakeWriteFD, &one, 1)  // a full pipe already means "wake up": EAGAIN is fine
    }

    /// Makes `run()` return after the current iteration.
    public func stop() {
        preconditionInLoop()
        running = .stopping
    }

    /// Runs until `stop()`. `onIteration` runs once per wake-up (the watchdog ping lives there).
    /// Each wake-up: coalesced and batched watches with input first, then the ready immediate
    /// watches, then posted closures, then due timers. With a batched watch it wakes at the
    /// latest `batchSeconds` after the last such read. Throws
    /// when `poll` fails (anything but EINTR): the loop cannot go on, and the daemon must say so
    /// and exit non-zero, not return as if stopped. `betweenTurns` runs between wake-ups,
    /// outside any handler: a host embedding the loop moves its `ManualClock` there.
    public func run(onIteration: () -> Void = {}, betweenTurns: () throws(SystemError) -> Void = {}) throws(SystemError) {
        try runningHere { () throws(SystemError) in
            defer { running = .running }
            while case .running = running {
                try betweenTurns()
                guard case .running = running else { break }
                var timeoutMs: Int32 = 1000
                if let next = nextDue() {
                    timeoutMs = Int32(max(0, min(1000, ((next - now()) * 1000).rounded(.up))))
                }
                try turn(timeoutMs: timeoutMs, onIteration: onIteration)
            }
        }
    }

    /// For a loop on a `ManualClock`: moves the clock forward by `seconds`, stopping at each timer
    /// due on the way to run it (and whatever it schedules) at its own time, serving ready
    /// descriptors and posted closures without waiting at every stop. Like swift-nio's
    /// `EmbeddedEventLoop.advanceTime(by:)`.
    public func advanceTime(by seconds: Double) throws(SystemError) {
        guard let manual = clock as? ManualClock else { preconditionFailure("advanceTime(by:) needs a loop on a ManualClock") }
        try runningHere { () throws(SystemError) in
            let end = now() + seconds
            try turn(timeoutMs: 0)
            while let next = nextDue(), next <= end {
                if next > now() { manual.advance(by: next - now()) }
                try turn(timeoutMs: 0)
            }
            if end > now() { manual.advance(by: end - now()) }
            try turn(timeoutMs: 0)
        }
    }

    /// Serves what is ready now (descriptors, posted closures, due timers) without waiting.
    public func runReady() throws(SystemError) {
        try runningHere { () throws(SystemError) in try turn(timeoutMs: 0) }
    }

    // MARK: - Confinement

    /// Whether the calling thread may touch what belongs to the loop: it is the thread running
    /// the loop now (`run`, or a test's `runReady` and `advanceTime`), or nobody runs it (before
    /// `run`, between a test's turns, after `run` returned), when its owner holds it. Like
    /// swift-nio's `EventLoop.inEventLoop`, for whichever thread drives the loop.
    public var isInLoop: Bool {
        let r = runner.load(ordering: .acquiring)
        return r == 0 || r == UInt(pthread_self())
    }

    /// Traps in debug builds when called off the loop's thread (`isInLoop`); free in release
    /// builds. State confined to the loop checks it where it is touched (`LoopBound`), as
    /// swift-nio's `preconditionInEventLoop`.
    @inlinable
    public func preconditionInLoop(file: StaticString = #fileID, line: UInt = #line) {
        assert(isInLoop, "touched off the event loop's thread", file: file, line: line)
    }

    /// Runs `body` as the thread that runs the loop (`isInLoop`); a nested run on the same
    /// thread keeps it. Two threads running one loop at once trap in debug builds.
    private func runningHere(_ body: () throws(SystemError) -> Void) throws(SystemError) {
        let me = UInt(pthread_self())
        let (exchanged, previous) = runner.compareExchange(expected: 0, desired: me, ordering: .acquiringAndReleasing)
        assert(exchanged || previous == me, "the event loop is run by two threads at once")
        defer { if exchanged { runner.store(0, ordering: .releasing) } }
        try body()
    }

    private func nextDue() -> Double? { timers.lazy.map(\.due).min() }

    /// One wake-up: epoll_wait (at most `timeoutMs`), then coalesced input, ready watches,
    /// posted closures and due timers, in that order.
    private func turn(timeoutMs: Int32, onIteration: () -> Void = {}) throws(SystemError) {
        lazyFDs.removeAll(keepingCapacity: true)
        lazyTokens.removeAll(keepingCapacity: true)
        var batched = false
        for (t, w) in watches {
            switch w.mode {
            case .immediate: break
            case .coalesced:
                // Only a hang-up or an error wakes the loop for it (the set holds POLLRDHUP,
                // a TCP peer's FIN; POLLHUP/POLLERR are always reported).
                lazyFDs.append(pollfd(fd: w.fd, events: w.events | EventLoop.pollRDHUP, revents: 0))
                lazyTokens.append(t)
            case .batched:
                // Its input only; its output wakes the loop as an immediate watch's does.
                lazyFDs.append(pollfd(fd: w.fd, events: (w.events & Int16(POLLIN)) | EventLoop.pollRDHUP, revents: 0))
                lazyTokens.append(t)
                batched = true
            }
        }
        var timeoutMs = timeoutMs
        if batched {
            // Batched input is read at the latest `batchSeconds` after it was last read.
            let left = (lastCoalescedRead + EventLoop.batchSeconds - now()) * 1000
            timeoutMs = min(timeoutMs, Int32(max(0, left.rounded(.up))))
        }
        ready.removeAll(keepingCapacity: true)
        if !unpollable.isEmpty { unpollableEvents(into: &ready) }
        let n = poller(epollFD, events, EventLoop.eventCapacity, ready.isEmpty ? timeoutMs : 0)
        if n < 0 {
            let e = errno
            if e == EINTR { return }
            throw SystemError("epoll_wait", code: e)
        }
        var woken = false, stale = false
        for i in 0..<Int(n) {
            let (mask, data) = Epoll.event(i, in: events)
            let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: data))
            if fd == wakeFD {
                woken = true
            } else if tokensByFD[fd] == nil {
                stale = true  // a registration left behind by a descriptor closed before its unwatch
            } else {
                ready.append((fd, mask))
            }
        }
        if stale { rebuild() }
        onIteration()
        // Coalesced and batched input first, whatever woke the loop (a timeout too): every
        // handler, timer and posted closure below sees all of it that had arrived.
        serveCoalesced()
        if woken {
            var drain = [UInt8](repeating: 0, count: 256)
            while read(wakeFD, &drain, 256) > 0 {}
        }
        for (fd, mask) in ready {
            guard let tokens = tokensByFD[fd] else { continue }  // unwatched meanwhile
            for t in tokens {
                // A handler may have unwatched this token (or closed the fd) meanwhile;
                // coalesced watches were served above (their hang-ups included).
                guard let w = watches[t], w.fd == fd else { continue }
                switch w.mode {
                case .immediate:
                    let always = UInt32(POLLERR | POLLHUP | POLLNVAL)
                    let revents = mask & (UInt32(UInt16(bitPattern: w.events)) | always)
                    if revents != 0 { w.onReady(Int16(truncatingIfNeeded: revents)) }
                case .batched:
                    // Room to write; its input, hang-ups and errors were served above.
                    let revents = mask & UInt32(UInt16(bitPattern: w.events & ~Int16(POLLIN)))
                    if revents != 0 { w.onReady(Int16(truncatingIfNeeded: revents)) }
                case .coalesced: continue
                }
            }
        }
        let jobs = posted.withLock { q -> [@Sendable () -> Void] in
            let j = q; q.removeAll(); return j
        }
        for j in jobs { j() }
        runDueTimers()
    }

    /// Reads the coalesced and batched watches that have input (or a hang-up, an error), with
    /// `inputSpan` set to the seconds since the last such read, then runs the hooks.
    private func serveCoalesced() {
        let at = now()
        inputSpan = min(EventLoop.batchSeconds, max(0, at - lastCoalescedRead))
        lastCoalescedRead = at
        isServingInput = true
        defer {
            inputSpan = 0
            isServingInput = false
            for h in inputServedHooks { h() }
        }
        guard !lazyFDs.isEmpty, poll(&lazyFDs, nfds_t(lazyFDs.count), 0) > 0 else { return }
        for k in lazyFDs.indices where lazyFDs[k].revents != 0 {
            guard let w = watches[lazyTokens[k]], w.fd == lazyFDs[k].fd else { continue }
            w.onReady(lazyFDs[k].revents)
        }
    }

    /// Timers due within `timerSlack` run now too: one wake-up instead of two. In due order; each
    /// is taken off the list just before it runs, so one that an earlier body of this batch
    /// cancelled does not run.
    private func runDueTimers() {
        let limit = now() + EventLoop.timerSlack
        guard timers.contains(where: { $0.due <= limit }) else { return }
        let due = timers.filter { $0.due <= limit }.sorted { ($0.due, $0.token) < ($1.due, $1.token) }
        for t in due {
            guard let i = timers.firstIndex(where: { $0.token == t.token }) else { continue }  // cancelled meanwhile
            timers.remove(at: i)
            t.body()
        }
    }

    /// POLLRDHUP, Linux's "peer closed its end" (Glibc exports it only under _GNU_SOURCE).
    static let pollRDHUP: Int16 = 0x2000

    /// How early a timer may run so that it shares a wake-up with one due just before it.
    static let timerSlack = 0.002

    /// The longest a `.batched` watch's input waits to be read.
    public static let batchSeconds = 1.0

    /// Estimated ages (seconds before now) of `count` messages read together from a batched
    /// watch, oldest first: spread evenly over `inputSpan`, the last at 0 (one read alone is
    /// dated when read). Each date is then off by at most `batchSeconds`, and readings of one
    /// source keep distinct, increasing dates. All 0 outside a batched read.
    public func arrivalAges(count: Int) -> [Double] {
        guard count > 0 else { return [] }
        let step = inputSpan / Double(count)
        return (0..<count).map { step * Double(count - 1 - $0) }
    }
}

/// How a watched descriptor wakes the loop.
public enum WatchMode {
    /// `poll` returns as soon as the descriptor is ready: control clients, a feed in a flood.
    case immediate
    /// The descriptor's input does not wake the loop; it is handled first thing whenever the
    /// loop wakes for anything else: a control request, a posted closure, or a timer (the 1 s
    /// tick at the latest). A hang-up or an error still wakes it at once. For light GPS feeds,
    /// whose ten fixes a second then cost one wake-up instead of ten (BENCHMARKS.md, CPU).
    case coalesced
    /// Input does not wake the loop; it is read with the coalesced input whenever the loop wakes
    /// for anything else, and at the latest `EventLoop.batchSeconds` (1 s, the 1 s tick's pace)
    /// after it was last read (the loop wakes for that). Output (POLLOUT), hang-ups and errors
    /// wake it at once. For Bluetooth sensors once subscribed: four at 4 Hz woke the loop 16
    /// times a second; batched, they are read with the light feed about once a second
    /// (BENCHMARKS.md, four sensors). What is read is dated by `arrivalAges`.
    case batched
}

/// A timer that re-arms itself; the interval can change (reload) and it can be cancelled.
public final class RepeatingTimer {
    private unowned let loop: EventLoop
    public var interval: Double
    private let body: () -> Void
    private var token: EventLoop.Token?

    init(loop: EventLoop, interval: Double, body: @escaping () -> Void) {
        self.loop = loop; self.interval = interval; self.body = body
    }

    /// Fixed rate: the next run is due one interval after this one was due (not after its body
    /// returned), so timers of equal interval stay in step and share wake-ups. After a stall
    /// (a hung loop, a suspended machine) missed runs are skipped, not caught up.
    func schedule(after previousDue: Double? = nil) {
        let now = loop.now()
        var due = (previousDue ?? now) + interval
        if due < now { due = now + interval }
        token = loop.at(due) { [weak self] in
            guard let self else { return }
            self.body()
            if self.token != nil { self.schedule(after: due) }
        }
    }

    public func cancel() {
        if let token { loop.cancel(token) }
        token = nil
    }
}
