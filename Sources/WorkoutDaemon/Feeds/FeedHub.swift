import Glibc
import WorkoutCore

/// How much feed input one wake-up of the loop may handle: small reads, and back to `poll` once
/// the time is spent (the rest waits in the socket buffer, level-triggered, for the next turn),
/// so a flood on a feed delays a control request by about this much, not by a whole batch
/// (figures: BENCHMARKS.md).
enum FeedBudget {
    static let readBytes = 2048
    static let seconds = 0.001
}

/// The GPS side of the daemon. The feed socket always listens (so `simulate` can connect);
/// fixes are reported only while GPS is open (`open()`, the core's `openGPS` action), which
/// also starts the configured network sources in failover order.
///
/// One source feeds the workout at a time: the first in the configured order (`feeds`) that
/// delivers, and among feed-socket connections the first come, chosen afresh at each `open`
/// (a new workout or a resume). Another source takes over when
/// it ranks higher, or when the feeding one has been silent for `handoverSeconds` or closed.
/// Fixes from the others are counted in `status` (`otherSources`, `otherSourceFixes`), never
/// reported, so they neither join the track nor (with a `SIMULATION` header) move its clock.
///
/// It reports through `report` and holds no reference to the daemon.
final class FeedHub {
    /// What the hub tells its owner.
    enum Report {
        /// A fix from the feeding source.
        case fix(Fix)
        /// Another source feeds the workout from now on (`replay`: it is a simulation).
        case sourceChanged(replay: FeedReplay?)
        /// The feeding simulation closed its connection.
        case replayEnded
        /// A read turn on a feed ended: what it reported should reach the kernel now.
        case readTurnEnded
        /// The feeding source said its track breaks here (a `SEGMENT` line): the next fix starts
        /// a new segment, as after a device's pause.
        case segmentBreak
        /// A heart-rate line from any feed-socket connection (reported whether or not GPS is
        /// open: indoor workouts have heart rate and no GPS).
        case heartRate(HeartRateReading)
        case log(any LogEvent)
    }

    /// A source of fixes.
    enum Source: Equatable {
        case network
        case client(Int32)
    }

    /// A feeding source silent this long (s) gives way to another that delivers.
    static let handoverSeconds = 5.0

    private unowned let loop: EventLoop
    private let paths: Paths
    private let clock: DaemonClock
    private let report: (Report) -> Void
    var maxClients: Int
    var status = GPSStatus()
    /// Whether fixes are reported now (the core's `openGPS`/`closeGPS`).
    private var state = HubState.closed
    private var listenFD: Int32 = -1
    private var acceptor: Acceptor?
    private var clients: [Int32: Client] = [:]
    var feeds: [FeedConfig]
    /// The network source in use or being tried (gpsd / NMEA TCP), in failover order.
    private var network: NetworkFeed?
    private var networkIndex = 0
    private var failures = 0
    private var retryToken: EventLoop.Token?
    /// Which problems were logged, and when to remind (not on every retry).
    private var problems = ProblemReminder()
    /// The current problem of each source, by its label: `status.problem` names them all, in
    /// the configured order (two sources failing in turn are both shown, not the last one).
    private var sourceProblems: [String: String] = [:]
    /// One read buffer for every feed socket client (all read on the loop thread).
    private var reader: FeedReader
    /// The receiver's clock against the workout's (docs/time.md).
    private(set) var receiverClock = ReceiverClock()
    /// The source feeding the workout and when it last delivered (monotonic).
    private var feeding: (source: Source, lastFix: Double)?

    enum HubState { case closed, open }

    /// One feed-socket connection.
    private struct Client {
        var token: EventLoop.Token
        var lines = LineFramer(maxLine: 4096)
        var decoder = FeedSocketDecoder()
        var pace = FeedPace()
        /// Rejections already added to `status.rejectedInput` (they are summed over connections).
        var reportedRejections: [String: Int] = [:]
        /// The next turn, when a spent budget left lines in `lines` and the socket is empty
        /// (its input would not wake the loop for them).
        var resume: EventLoop.Token?
    }

    init(loop: EventLoop, feeds: [FeedConfig], paths: Paths, maxClients: Int, clock: DaemonClock, report: @escaping (Report) -> Void) {
        self.loop = loop
        self.reader = FeedReader(clock: loop.clock)
        self.feeds = feeds
        self.paths = paths
        self.maxClients = maxClients
        self.clock = clock
        self.report = report
        listenFeedSocket()
    }

    var networkFeeds: [FeedConfig] {
        feeds.filter { f in
            switch f {
            case .gpsd, .nmea: return true
            case .socket: return false
            }
        }
    }

    var feedSocketPath: String? {
        for f in feeds { if case .socket(let p) = f { return paths.expand(p) } }
        return nil
    }

    func listenFeedSocket() {
        guard let path = feedSocketPath else { return }
        do {
            listenFD = try UnixSocket.listen(path: path)
            acceptor = Acceptor(loop: loop, listenFD: listenFD) { [unowned self] fd in self.adopt(fd) }
        } catch {
            setProblem("feed socket \(path): \(error)", for: feeds.first { if case .socket = $0 { return true } else { return false } }?.label ?? path)
        }
    }

    func configure(_ new: [FeedConfig]) {
        guard new != feeds else { return }
        let wasOpen = state
        close()
        stopListening()
        feeds = new
        listenFeedSocket()
        if case .open = wasOpen { open() }
    }

    func open() {
        if case .open = state { return }
        state = .open
        receiverClock = ReceiverClock()  // learned afresh for each workout (and after a pause)
        status.clockProblem = nil
        status.clockOffsetSeconds = nil
        status.source = feedSocketPath.map { "feed socket \($0)" } ?? feeds.first?.label
        // A new workout (or a resume) chooses which source feeds it afresh, and learns whether it
        // replays, from the first fix delivered (`deliver`). Keeping the last workout's source
        // dropped the fixes of a feed connection opened after it closed, for as long as its
        // hang-up was not yet read (regression: FeedSourceTests.aNewConnectionFeedsTheNextWorkout).
        feeding = nil
        networkIndex = 0
        failures = 0
        tryNetwork()
    }

    /// The workout's clock moved by `seconds` (`DaemonClock.shift`): the receiver's offset to it
    /// is restated, and its clock problem with it.
    func workoutClockShifted(by seconds: Double) {
        for e in receiverClock.workoutClockShifted(by: seconds) { report(.log(ClockLogEvent.receiver(e))) }
        status.clockProblem = receiverClock.problem
        status.clockOffsetSeconds = receiverClock.measuredOffset
    }

    func close() {
        guard case .open = state else { return }
        state = .closed
        status.fixMode = .noFix
        if feeding?.source == .network { feeding = nil }
        closeNetwork()
        if let t = retryToken { loop.cancel(t) }
        retryToken = nil
        for f in networkFeeds { setProblem(nil, for: f.label) }
        problems.reset()
        // A closed source's satellites and fix age are no longer news (idle `status` showed
        // "12 satellites, 923 s ago").
        status.satellites = nil
        status.lastFixMonotonic = nil
        updateOtherSources()
    }

    /// Connects to the current network source; on failure moves to the next, and after a whole
    /// round waits with backoff (1, 2, 4 ... 30 s) before starting again from the first.
    private func tryNetwork() {
        let list = networkFeeds
        guard case .open = state, !list.isEmpty else { return }
        let cfg = list[networkIndex % list.count]
        let feed = NetworkFeed(cfg, loop: loop)
        network = feed
        feed.onFix = { [unowned self] fix in self.deliver(fix, from: .network, replay: nil) }
        feed.onConnected = { [unowned self] in
            self.failures = 0
            if self.feeding == nil { self.status.source = cfg.label }
            self.setProblem(nil, for: cfg.label)
            self.problems.reset()
            self.updateOtherSources()
            self.report(.log(GPSLogEvent.connected(cfg.label)))
        }
        feed.onFailure = { [unowned self] reason in self.networkFailed(cfg, reason) }
        feed.onReadEnd = { [unowned self] in self.report(.readTurnEnded) }
        feed.connect()
    }

    /// Closes the network source, keeping the count of what it rejected.
    private func closeNetwork() {
        if let n = network { addRejections(n.decoder.rejected, reported: [:]) }
        network?.close()
        network = nil
        if feeding?.source == .network { feeding = nil }
    }

    private func networkFailed(_ cfg: FeedConfig, _ reason: String) {
        guard case .open = state else { return }
        closeNetwork()
        networkIndex += 1
        var delay = 0.2
        if networkIndex % max(1, networkFeeds.count) == 0 {
            failures += 1
            delay = min(30, Double(1 << min(failures - 1, 5)))
        }
        let problem = "\(cfg.label) \(reason); retrying in \(Int(delay.rounded(.up))) s"
        setProblem(problem, for: cfg.label)
        // Each problem once (two sources failing in turn are two problems, not a change on
        // every retry), then a reminder at a falling rate while they go on.
        switch problems.report("\(cfg.label) \(reason)", now: loop.now()) {
        case .new: report(.log(GPSLogEvent.problem(problem)))
        case .reminder(let repeats): report(.log(GPSLogEvent.problem(problem + " (still failing: \(repeats) more retries since the last line)")))
        case .quiet: break
        }
        // The failed source's fix is gone; another source feeding the workout keeps its own.
        if feeding == nil { status.fixMode = .noFix; status.satellites = nil }
        updateOtherSources()
        retryToken = loop.after(delay) { [unowned self] in
            self.retryToken = nil
            self.tryNetwork()
        }
    }

    func shutdown() {
        close()
        stopListening()
    }

    private func stopListening() {
        for (fd, c) in clients {
            loop.unwatch(c.token)
            if let t = c.resume { loop.cancel(t) }
            Glibc.close(fd)
        }
        clients = [:]
        if case .client? = feeding?.source { feeding = nil }
        if listenFD >= 0 {
            acceptor?.close()
            acceptor = nil
            Glibc.close(listenFD)
            if let p = feedSocketPath { unlink(p) }
            listenFD = -1
        }
    }

    private func adopt(_ fd: Int32) {
        guard UnixSocket.peerIsAllowed(fd), clients.count < maxClients else { Glibc.close(fd); return }
        let token = loop.watch(fd) { [unowned self] _ in self.read(fd) }
        clients[fd] = Client(token: token)
        updateOtherSources()
    }

    /// Reads every feed-socket line sent so far before a control request is handled: accepts
    /// connections waiting in the listen queue, then reads each connection's buffered lines and
    /// the bytes queued in its socket now (`FIONREAD`), whatever the read budget, and its
    /// hang-up. A sender that wrote its lines and closed before the request was sent (`simulate
    /// FILE; stop`) has them all counted: its writes were in the socket before its close. Bounded
    /// by what is queued at the call, so a flood cannot hold the request back beyond that.
    func catchUp() {
        guard listenFD >= 0 else { return }
        acceptor?.acceptAll()
        // The feeding connection first: its lines decide the workout's clock and track.
        var order = clients.keys.sorted()
        if case .client(let fd)? = feeding?.source, let i = order.firstIndex(of: fd) { order.remove(at: i); order.insert(fd, at: 0) }
        for fd in order where clients[fd] != nil {
            var queued: Int32 = 0
            if ioctl(fd, UInt(FIONREAD), &queued) != 0 { queued = 0 }
            read(fd, budget: .infinity, maxBytes: Int(queued))
            // A read that emptied the socket ends on a short chunk, before the end of stream:
            // a sender that closed is closed now too (a simulation's clock stops at its last fix).
            if clients[fd] != nil, FeedHub.peerHungUp(fd) { read(fd, budget: .infinity, maxBytes: 0) }
        }
    }

    private func read(_ fd: Int32, budget: Double = FeedBudget.seconds, maxBytes: Int = .max) {
        // The feeding connection has hung up but its hang-up is not handled yet (both came in one
        // poll turn; a loaded machine): its last lines and its close come first, so a new
        // connection (the next `simulate`, a restarted sender) takes over at once instead of
        // being counted as another source until the handover delay.
        if case .client(let old)? = feeding?.source, old != fd, clients[old] != nil, FeedHub.peerHungUp(old) {
            read(old)
        }
        guard var c = clients[fd] else { return }
        if let t = c.resume { loop.cancel(t); c.resume = nil }
        // Bounded work per wake-up so a flood cannot delay the control socket (FeedBudget),
        // checked after every line: a turn ends within the budget and one line, whatever a line
        // costs (a debug build, a loaded machine), not after a whole read chunk of them. The
        // lines not handled yet wait in the framer for the next turn.
        let deadline = loop.now() + budget
        var lines = c.lines
        c.lines = LineFramer(maxLine: 0)  // `lines` holds the only reference to its buffer
        func handle(_ item: LineFramer.Item) -> Bool {
            switch item {
            case .tooLong: status.rejectedInput["line_too_long", default: 0] += 1
            case .line(let line):
                for fix in c.decoder.decode(line: line) { deliver(fix, from: .client(fd), replay: c.decoder.replay) }
                if c.decoder.takeSegmentBreak(), case .open = state, feeding?.source == .client(fd) { report(.segmentBreak) }
                if !c.decoder.heartRates.isEmpty { for r in c.decoder.takeHeartRates() { report(.heartRate(r)) } }
            }
            return loop.now() < deadline
        }
        var outcome = FeedReadOutcome.budgetSpent, bytes = 0
        if lines.drain(handle) {
            (outcome, bytes) = reader.readChunks(fd, budget: max(0, deadline - loop.now()), maxBytes: maxBytes) { chunk in
                lines.feed(chunk, handle)
            }
        }
        c.lines = lines
        report(.readTurnEnded)
        addRejections(c.decoder.rejected, reported: c.reportedRejections)
        c.reportedRejections = c.decoder.rejected
        // Satellites of the feeding connection only (none from a closed GPS, none from another).
        if case .open = state, feeding?.source == .client(fd), let n = c.decoder.satellites { status.satellites = n }
        guard let mode = c.pace.next(after: outcome, bytes: bytes, now: loop.now()) else {
            loop.unwatch(c.token); Glibc.close(fd); clients[fd] = nil
            if feeding?.source == .client(fd) {
                feeding = nil
                if c.decoder.replay != nil { report(.replayEnded) }
            }
            updateOtherSources()
            return
        }
        // A simulation drives the workout's clock from each fix's arrival: read it at once.
        loop.setMode(c.token, c.decoder.replay == nil ? mode : .immediate)
        if c.lines.hasHeldLines && !FeedHub.hasInput(fd) {
            c.resume = loop.after(0) { [unowned self] in
                self.clients[fd]?.resume = nil
                self.read(fd)
            }
        }
        clients[fd] = c
    }

    /// Whether `fd` has input waiting (its readiness then wakes the loop).
    /// Whether the peer of `fd` has closed its end (POLLRDHUP; Linux).
    private static func peerHungUp(_ fd: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(0x2000 /* POLLRDHUP */), revents: 0)
        return poll(&p, 1, 0) > 0 && p.revents & Int16(0x2000 | Int32(POLLHUP)) != 0
    }

    private static func hasInput(_ fd: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) > 0
    }

    /// Adds to `status.rejectedInput` what a decoder rejected since `reported`: counts are
    /// summed over connections and never go down.
    private func addRejections(_ now: [String: Int], reported: [String: Int]) {
        for (k, v) in now where v > reported[k, default: 0] {
            status.rejectedInput[k, default: 0] += v - reported[k, default: 0]
        }
    }

    /// Where a source stands in the failover order (lower first): its configured position.
    private func rank(_ source: Source) -> Int {
        let target: FeedConfig?
        switch source {
        case .network:
            let list = networkFeeds
            target = list.isEmpty ? nil : list[networkIndex % list.count]
        case .client:
            target = feeds.first { if case .socket = $0 { return true } else { return false } }
        }
        return target.flatMap { t in feeds.firstIndex(of: t) } ?? feeds.count
    }

    /// Sources connected but not feeding the workout.
    private func updateOtherSources() {
        let connected = clients.count + (network?.isConnected == true ? 1 : 0)
        status.otherSources = max(0, connected - (feeding == nil ? 0 : 1))
    }

    /// Sets (or clears, with nil) the problem of the source labelled `label`.
    private func setProblem(_ text: String?, for label: String) {
        sourceProblems[label] = text
        let known = feeds.map(\.label)
        let ordered = known.compactMap { sourceProblems[$0] } + sourceProblems.filter { !known.contains($0.key) }.map(\.value).sorted()
        status.problem = ordered.isEmpty ? nil : ordered.joined(separator: "; ")
    }

    private func deliver(_ fix: Fix, from source: Source, replay: FeedReplay?) {
        guard case .open = state else { return }
        let t = loop.now()
        if let f = feeding, f.source != source {
            guard rank(source) < rank(f.source) || t - f.lastFix > FeedHub.handoverSeconds else {
                status.otherSourceFixes += 1
                return
            }
            feeding = nil
        }
        feeding?.lastFix = t
        if feeding == nil {
            feeding = (source, t)
            updateOtherSources()
            switch source {
            case .network: status.source = network?.config.label
            case .client: status.source = feedSocketPath.map { "feed socket \($0)" }
            }
            status.satellites = nil  // the previous source's count is not this one's
            report(.sourceChanged(replay: replay))
        }
        if fix.mode != status.fixMode { report(.log(GPSLogEvent.fix(fix.mode, source: status.source ?? ""))) }
        status.fixMode = fix.mode
        status.lastFixMonotonic = t
        status.satellites = fix.satellites ?? status.satellites
        var placed = fix
        if replay == nil {
            // Placed on the workout's clock by the receiver's own intervals (docs/time.md); a
            // simulation's fix times drive the workout's clock instead.
            let p = receiverClock.place(receiverTime: fix.time, arrival: clock.now())
            placed.time = p.time
            for e in p.events { report(.log(ClockLogEvent.receiver(e))) }
            status.clockProblem = receiverClock.problem
            status.clockOffsetSeconds = receiverClock.measuredOffset
        } else {
            status.clockOffsetSeconds = fix.time - clock.now()
        }
        report(.fix(placed))
    }
}
