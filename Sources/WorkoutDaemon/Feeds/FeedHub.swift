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
/// Which source feeds the workout, and the failover and backoff of the network sources, are
/// decided by the core's `FeedSelection` (one source at a time; the others' fixes are counted in
/// `status`, `otherSources` and `otherSourceFixes`, never reported, so they neither join the
/// track nor, with a `SIMULATION` header, move its clock); the hub performs its actions.
///
/// Fixes are reported as they arrive, with the receiver's own times: placing them on the
/// workout's clock is the core's (`WorkoutInProgress.receiver`, docs/time.md). It reports
/// through `report` and holds no reference to the daemon.
final class FeedHub {
    /// What the hub tells its owner.
    enum Report {
        /// A fix from the feeding source, as the receiver dated it, reported when it arrived.
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

    typealias Source = FeedSelection.Source

    private unowned let loop: EventLoop
    private let paths: Paths
    private let report: (Report) -> Void
    var maxClients: Int
    var status = GPSStatus()
    /// Whether fixes are reported now (the core's `openGPS`/`closeGPS`), which source feeds the
    /// workout, and where the network sources' failover stands.
    private var selection: FeedSelection
    private var listenFD: Int32 = -1
    private var acceptor: Acceptor?
    private var clients: [Int32: Client] = [:]
    var feeds: [FeedConfig] { selection.feeds }
    /// The network source in use or being tried (gpsd / NMEA TCP).
    private var network: NetworkFeed?
    private var retryToken: EventLoop.Token?
    /// Which problems were logged, and when to remind (not on every retry).
    private var problems = ProblemReminder()
    /// The current problem of each source, by its label: `status.problem` names them all, in
    /// the configured order (two sources failing in turn are both shown, not the last one).
    private var sourceProblems: [String: String] = [:]
    /// One read buffer for every feed socket client (all read on the loop thread).
    private var reader: FeedReader

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

    /// `backoff`: the waits between tries of the network sources (the product's by default).
    init(loop: EventLoop, feeds: [FeedConfig], backoff: FeedSelection.Backoff = .init(), paths: Paths, maxClients: Int,
         report: @escaping (Report) -> Void) {
        self.loop = loop
        self.reader = FeedReader(clock: loop.clock)
        self.selection = FeedSelection(feeds: feeds, backoff: backoff)
        self.paths = paths
        self.maxClients = maxClients
        self.report = report
        listenFeedSocket()
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
        let wasOpen = selection.isOpen
        close()
        stopListening()
        selection = FeedSelection(feeds: new, backoff: selection.backoff)
        listenFeedSocket()
        if wasOpen { open() }
    }

    func open() {
        guard !selection.isOpen else { return }
        // A new workout (or a resume) chooses which source feeds it afresh, and learns whether it
        // replays, from the first fix delivered (`deliver`). Keeping the last workout's source
        // dropped the fixes of a feed connection opened after it closed, for as long as its
        // hang-up was not yet read (regression: FeedSourceTests.aNewConnectionFeedsTheNextWorkout).
        let actions = selection.open()
        status.source = feedSocketPath.map { "feed socket \($0)" } ?? feeds.first?.label
        perform(actions)
    }

    /// Performs what the selection decided.
    private func perform(_ actions: [FeedSelection.Action]) {
        for action in actions {
            switch action {
            case .connect(let cfg): connect(cfg)
            case .closeNetwork: closeNetwork()
            case .scheduleRetry(let delay):
                retryToken = loop.after(delay) { [unowned self] in
                    self.retryToken = nil
                    self.perform(self.selection.retryDue())
                }
            case .cancelRetry:
                if let t = retryToken { loop.cancel(t) }
                retryToken = nil
            }
        }
    }

    func close() {
        guard selection.isOpen else { return }
        status.fixMode = .noFix
        perform(selection.close())
        for f in selection.networkFeeds { setProblem(nil, for: f.label) }
        problems.reset()
        // A closed source's satellites and fix age are no longer news (idle `status` showed
        // "12 satellites, 923 s ago").
        status.satellites = nil
        status.lastFixMonotonic = nil
        updateOtherSources()
    }

    /// Connects to a network source; what happens is reported to the selection.
    private func connect(_ cfg: FeedConfig) {
        let feed = NetworkFeed(cfg, loop: loop)
        network = feed
        feed.onFix = { [unowned self] fix in self.deliver(fix, from: .network, replay: nil) }
        feed.onConnected = { [unowned self] in
            self.selection.networkConnected()
            if self.selection.feeding == nil { self.status.source = cfg.label }
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
    }

    private func networkFailed(_ cfg: FeedConfig, _ reason: String) {
        let actions = selection.networkFailed()
        guard case .scheduleRetry(let delay)? = actions.last else { return }  // closed meanwhile
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
        if selection.feeding == nil { status.fixMode = .noFix; status.satellites = nil }
        perform(actions)
        updateOtherSources()
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
        for fd in clients.keys { _ = selection.clientClosed(fd) }
        clients = [:]
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
        if case .client(let fd)? = selection.feeding, let i = order.firstIndex(of: fd) { order.remove(at: i); order.insert(fd, at: 0) }
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
        if case .client(let old)? = selection.feeding, old != fd, clients[old] != nil, FeedHub.peerHungUp(old) {
            read(old)
        }
        // The client is moved out while it is read and put back after (async-http-client's
        // `.modifying`): a placeholder keeps its place (and `clients.count`), so `c` is the only
        // owner of its buffers and they are mutated without a copy.
        guard let token = clients[fd]?.token, var c = clients.updateValue(Client(token: token), forKey: fd) else { return }
        if let t = c.resume { loop.cancel(t); c.resume = nil }
        // Bounded work per wake-up so a flood cannot delay the control socket (FeedBudget),
        // checked after every line: a turn ends within the budget and one line, whatever a line
        // costs (a debug build, a loaded machine), not after a whole read chunk of them. The
        // lines not handled yet wait in the framer for the next turn.
        let deadline = loop.now() + budget
        // `handle` mutates `c.decoder` while `lines` runs it: the framer is taken out of `c`
        // (the only owner of its buffer, see above) and put back after.
        var lines = c.lines
        c.lines = LineFramer(maxLine: 0)
        func handle(_ item: LineFramer.Item) -> Bool {
            switch item {
            case .tooLong: status.rejectedInput["line_too_long", default: 0] += 1
            case .line(let line):
                for fix in c.decoder.decode(line: line) { deliver(fix, from: .client(fd), replay: c.decoder.replay) }
                if c.decoder.takeSegmentBreak(), selection.isOpen, selection.feeding == .client(fd) { report(.segmentBreak) }
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
        if selection.isOpen, selection.feeding == .client(fd), let n = c.decoder.satellites { status.satellites = n }
        guard let mode = c.pace.next(after: outcome, bytes: bytes, now: loop.now()) else {
            loop.unwatch(c.token); Glibc.close(fd); clients[fd] = nil
            if selection.clientClosed(fd), c.decoder.replay != nil { report(.replayEnded) }
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

    /// Sources connected but not feeding the workout.
    private func updateOtherSources() {
        let connected = clients.count + (network?.isConnected == true ? 1 : 0)
        status.otherSources = max(0, connected - (selection.feeding == nil ? 0 : 1))
    }

    /// Sets (or clears, with nil) the problem of the source labelled `label`.
    private func setProblem(_ text: String?, for label: String) {
        sourceProblems[label] = text
        let known = feeds.map(\.label)
        let ordered = known.compactMap { sourceProblems[$0] } + sourceProblems.filter { !known.contains($0.key) }.map(\.value).sorted()
        status.problem = ordered.isEmpty ? nil : ordered.joined(separator: "; ")
    }

    private func deliver(_ fix: Fix, from source: Source, replay: FeedReplay?) {
        let t = loop.now()
        switch selection.fix(from: source, at: t) {
        case .dropped: return
        case .otherSource:
            status.otherSourceFixes += 1
            return
        case .deliver(let sourceChanged):
            guard sourceChanged else { break }
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
        report(.fix(fix))
    }
}
