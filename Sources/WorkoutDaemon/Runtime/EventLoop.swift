import Glibc
import Synchronization
import WorkoutCore

/// The daemon's main loop: one thread, `poll(2)` over every socket, timers, and a queue other
/// threads post closures to (woken through a self-pipe made with `pipe()`). Everything that
/// touches the lifecycle runs here, so transitions are serialised without locks. A hung loop
/// stops pinging the systemd watchdog, which is the point.
public final class EventLoop: @unchecked Sendable {
    // @unchecked: all mutable state below is touched only on the loop thread, except `posted`
    // (a Mutex) and `wakeFD` (written atomically by write(2)).
    public typealias Token = Int
    /// `poll(2)` itself, or a stand-in a test gives to make it fail.
    public typealias Poller = (inout [pollfd], Int32) -> Int32

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
    private var timers: [Timer] = []
    private var nextToken: Token = 1
    private var running = LoopState.running
    /// Read and write ends of the self-pipe that wakes `poll` when another thread posts.
    private let wakeFD: Int32
    private let wakeWriteFD: Int32
    private let posted = Mutex<[@Sendable () -> Void]>([])
    /// Reused between iterations (the descriptors polled and the tokens they belong to).
    private var fds: [pollfd] = [], tokens: [Token] = [], lazyFDs: [pollfd] = [], lazyTokens: [Token] = []

    private enum LoopState { case running, stopping }

    public init(clock: any LoopClock = SystemClock(), poller: @escaping Poller = { fds, timeout in poll(&fds, nfds_t(fds.count), timeout) }) throws {
        self.clock = clock
        self.poller = poller
        var p: [Int32] = [0, 0]
        guard pipe(&p) == 0 else { throw SystemError.last("pipe") }
        for fd in p { setNonBlockingCloExec(fd) }
        wakeFD = p[0]
        wakeWriteFD = p[1]
    }

    deinit { close(wakeFD); close(wakeWriteFD) }

    /// Seconds on the loop clock's monotonic clock: immune to the wall clock stepping.
    public func now() -> Double { clock.monotonic() }

    /// Calls `onReady(revents)` whenever `fd` has any of `events` (POLLIN, POLLOUT) or an error;
    /// with `.coalesced`, only when the loop wakes up for something else (see `WatchMode`).
    @discardableResult
    public func watch(_ fd: Int32, events: Int16 = Int16(POLLIN), mode: WatchMode = .immediate,
                      _ onReady: @escaping (Int16) -> Void) -> Token {
        let t = nextToken; nextToken += 1
        watches[t] = Watch(fd: fd, events: events, mode: mode, onReady: onReady)
        return t
    }

    public func setEvents(_ token: Token, _ events: Int16) { watches[token]?.events = events }
    public func setMode(_ token: Token, _ mode: WatchMode) { watches[token]?.mode = mode }
    public func mode(_ token: Token) -> WatchMode? { watches[token]?.mode }
    public func unwatch(_ token: Token) { watches[token] = nil }

    /// Runs `body` once, `seconds` from now (monotonic).
    @discardableResult
    public func after(_ seconds: Double, _ body: @escaping () -> Void) -> Token {
        at(now() + max(0, seconds), body)
    }

    /// Runs `body` once at the monotonic time `due`.
    @discardableResult
    public func at(_ due: Double, _ body: @escaping () -> Void) -> Token {
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
    public func cancel(_ token: Token) { timers.removeAll { $0.token == token } }

    /// From any thread: run `body` on the loop thread soon.
    public func post(_ body: @escaping @Sendable () -> Void) {
        posted.withLock { $0.append(body) }
        var one: UInt8 = 1
        _ = write(wakeWriteFD, &one, 1)  // a full pipe already means "wake up": EAGAIN is fine
    }

    /// Makes `run()` return after the current iteration.
    public func stop() { running = .stopping }

    /// Runs until `stop()`. `onIteration` runs once per wake-up (the watchdog ping lives there).
    /// Each wake-up: coalesced watches with input first, then the ready immediate watches, then
    /// posted closures, then due timers. Throws when `poll` fails (anything but EINTR): the loop
    /// cannot go on, and the daemon must say so and exit non-zero, not return as if stopped.
    public func run(onIteration: () -> Void = {}) throws(SystemError) {
        defer { running = .running }
        while case .running = running {
            var timeoutMs: Int32 = 1000
            if let next = nextDue() {
                timeoutMs = Int32(max(0, min(1000, ((next - now()) * 1000).rounded(.up))))
            }
            try turn(timeoutMs: timeoutMs, onIteration: onIteration)
        }
    }

    /// For a loop on a `ManualClock`: moves the clock forward by `seconds`, stopping at each timer
    /// due on the way to run it (and whatever it schedules) at its own time, serving ready
    /// descriptors and posted closures without waiting at every stop. Like swift-nio's
    /// `EmbeddedEventLoop.advanceTime(by:)`.
    public func advanceTime(by seconds: Double) throws(SystemError) {
        guard let manual = clock as? ManualClock else { preconditionFailure("advanceTime(by:) needs a loop on a ManualClock") }
        let end = now() + seconds
        try turn(timeoutMs: 0)
        while let next = nextDue(), next <= end {
            if next > now() { manual.advance(by: next - now()) }
            try turn(timeoutMs: 0)
        }
        if end > now() { manual.advance(by: end - now()) }
        try turn(timeoutMs: 0)
    }

    /// Serves what is ready now (descriptors, posted closures, due timers) without waiting.
    public func runReady() throws(SystemError) { try turn(timeoutMs: 0) }

    private func nextDue() -> Double? { timers.lazy.map(\.due).min() }

    /// One wake-up: poll (at most `timeoutMs`), then coalesced input, ready watches, posted
    /// closures and due timers, in that order.
    private func turn(timeoutMs: Int32, onIteration: () -> Void = {}) throws(SystemError) {
        fds.removeAll(keepingCapacity: true)
        tokens.removeAll(keepingCapacity: true)
        lazyFDs.removeAll(keepingCapacity: true)
        lazyTokens.removeAll(keepingCapacity: true)
        fds.append(pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0))
        tokens.append(0)
        for (t, w) in watches {
            switch w.mode {
            case .immediate:
                fds.append(pollfd(fd: w.fd, events: w.events, revents: 0))
                tokens.append(t)
            case .coalesced:
                // Only a hang-up or an error wakes the loop for it (POLLHUP/POLLERR are
                // always reported; POLLRDHUP covers a TCP peer's FIN).
                fds.append(pollfd(fd: w.fd, events: EventLoop.pollRDHUP, revents: 0))
                tokens.append(t)
                lazyFDs.append(pollfd(fd: w.fd, events: w.events | EventLoop.pollRDHUP, revents: 0))
                lazyTokens.append(t)
            }
        }
        let n = poller(&fds, timeoutMs)
        if n < 0 {
            let e = errno
            if e == EINTR { return }
            throw SystemError("poll", code: e)
        }
        onIteration()
        // Coalesced input first, whatever woke the loop: every handler, timer and posted
        // closure below sees all of it that had arrived.
        if !lazyFDs.isEmpty, poll(&lazyFDs, nfds_t(lazyFDs.count), 0) > 0 {
            for k in lazyFDs.indices where lazyFDs[k].revents != 0 {
                guard let w = watches[lazyTokens[k]], w.fd == lazyFDs[k].fd else { continue }
                w.onReady(lazyFDs[k].revents)
            }
        }
        if n > 0 {
            if fds[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 256)
                while read(wakeFD, &drain, 256) > 0 {}
            }
            for k in 1..<fds.count where fds[k].revents != 0 {
                // A handler may have unwatched this token (or closed the fd) meanwhile;
                // coalesced watches were served above (their hang-ups included).
                guard let w = watches[tokens[k]], w.fd == fds[k].fd else { continue }
                switch w.mode {
                case .immediate: w.onReady(fds[k].revents)
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
