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

    private var watches: [Token: Watch] = [:]
    private var timers: [Timer] = []
    private var nextToken: Token = 1
    private var running = LoopState.running
    /// Read and write ends of the self-pipe that wakes `poll` when another thread posts.
    private let wakeFD: Int32
    private let wakeWriteFD: Int32
    private let posted = Mutex<[@Sendable () -> Void]>([])

    private enum LoopState { case running, stopping }

    public init() throws {
        var p: [Int32] = [0, 0]
        guard pipe(&p) == 0 else { throw SystemError.last("pipe") }
        for fd in p { setNonBlockingCloExec(fd) }
        wakeFD = p[0]
        wakeWriteFD = p[1]
    }

    deinit { close(wakeFD); close(wakeWriteFD) }

    /// Seconds on the monotonic clock: immune to the wall clock stepping.
    public static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

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
        at(EventLoop.monotonic() + max(0, seconds), body)
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
    /// posted closures, then due timers.
    public func run(onIteration: () -> Void = {}) {
        var fds: [pollfd] = []
        var tokens: [Token] = []
        var lazyFDs: [pollfd] = []
        var lazyTokens: [Token] = []
        while case .running = running {
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
            var timeoutMs: Int32 = 1000
            var next = Double.infinity
            for t in timers where t.due < next { next = t.due }
            if next < .infinity {
                timeoutMs = Int32(max(0, min(1000, ((next - EventLoop.monotonic()) * 1000).rounded(.up))))
            }
            let n = poll(&fds, nfds_t(fds.count), timeoutMs)
            if n < 0 && errno != EINTR { break }
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
            // Timers due within `timerSlack` run now too: one wake-up instead of two.
            let now = EventLoop.monotonic() + EventLoop.timerSlack
            if timers.contains(where: { $0.due <= now }) {
                let due = timers.filter { $0.due <= now }.sorted { $0.due < $1.due }
                timers.removeAll { $0.due <= now }
                for t in due { t.body() }
            }
        }
        running = .running
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
        let now = EventLoop.monotonic()
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
