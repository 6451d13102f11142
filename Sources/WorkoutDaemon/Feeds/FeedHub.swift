import Glibc
import WorkoutCore

/// How much feed input one wake-up of the loop may handle: small reads, and back to `poll` once
/// the time is spent (the rest waits in the socket buffer, level-triggered, for the next turn),
/// so a flood on a feed delays a control request by about this much, not by a whole batch.
/// (It was 16 reads of 64 KiB: ~9,000 fix lines, ~0.5 s in a debug build, per wake-up.)
enum FeedBudget {
    static let readBytes = 2048
    static let seconds = 0.001
}

/// The GPS side of the daemon. The feed socket always listens (so `simulate` can connect);
/// fixes reach the lifecycle only while a GPS workout is active (`open()`), which also starts
/// the configured network sources in failover order.
final class FeedHub {
    unowned let daemon: Daemon
    var status = GPSStatus()
    var state = HubState.closed
    private var listenFD: Int32 = -1
    private var acceptor: Acceptor?
    private var clients: [Int32: (token: EventLoop.Token, lines: LineFramer, decoder: FeedSocketDecoder, pace: FeedPace)] = [:]
    var feeds: [FeedConfig]
    /// The network source in use or being tried (gpsd / NMEA TCP), in failover order.
    private var network: NetworkFeed?
    private var networkIndex = 0
    private var failures = 0
    private var retryToken: EventLoop.Token?
    private var lastLoggedProblem: String?
    /// One read buffer for every feed socket client (all read on the loop thread).
    private var reader = FeedReader()

    var networkFeeds: [FeedConfig] {
        feeds.filter { f in
            switch f {
            case .gpsd, .nmea: return true
            case .socket: return false
            }
        }
    }

    enum HubState { case closed, open }

    init(daemon: Daemon) {
        self.daemon = daemon
        self.feeds = daemon.config.feeds
        listenFeedSocket()
    }

    var feedSocketPath: String? {
        for f in feeds { if case .socket(let p) = f { return daemon.paths.expand(p) } }
        return nil
    }

    func listenFeedSocket() {
        guard let path = feedSocketPath else { return }
        do {
            listenFD = try UnixSocket.listen(path: path)
            acceptor = Acceptor(loop: daemon.loop, listenFD: listenFD) { [unowned self] fd in self.adopt(fd) }
        } catch {
            status.problem = "feed socket \(path): \(error)"
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
        status.source = feedSocketPath.map { "feed socket \($0)" } ?? feeds.first?.label
        networkIndex = 0
        failures = 0
        tryNetwork()
    }

    func close() {
        guard case .open = state else { return }
        state = .closed
        status.fixMode = .noFix
        network?.close()
        network = nil
        if let t = retryToken { daemon.loop.cancel(t) }
        retryToken = nil
        status.problem = nil
        lastLoggedProblem = nil
    }

    /// Connects to the current network source; on failure moves to the next, and after a whole
    /// round waits with backoff (1, 2, 4 ... 30 s) before starting again from the first.
    private func tryNetwork() {
        let list = networkFeeds
        guard case .open = state, !list.isEmpty else { return }
        let cfg = list[networkIndex % list.count]
        let feed = NetworkFeed(cfg, loop: daemon.loop)
        network = feed
        feed.onFix = { [unowned self] fix in
            self.status.source = cfg.label
            self.deliver(fix)
        }
        feed.onConnected = { [unowned self] in
            self.failures = 0
            self.status.source = cfg.label
            self.status.problem = nil
            self.lastLoggedProblem = nil
            self.daemon.log(GPSLogEvent.connected(cfg.label))
        }
        feed.onFailure = { [unowned self] reason in self.networkFailed(cfg, reason) }
        feed.connect()
    }

    private func networkFailed(_ cfg: FeedConfig, _ reason: String) {
        guard case .open = state else { return }
        for (k, v) in network?.decoder.rejected ?? [:] { status.rejectedInput[k] = v }
        network?.close()
        network = nil
        networkIndex += 1
        var delay = 0.2
        if networkIndex % max(1, networkFeeds.count) == 0 {
            failures += 1
            delay = min(30, Double(1 << min(failures - 1, 5)))
        }
        let problem = "\(cfg.label) \(reason); retrying in \(Int(delay.rounded(.up))) s"
        status.problem = problem
        // Log once per change of problem, not on every retry.
        let key = "\(cfg.label) \(reason)"
        if key != lastLoggedProblem {
            lastLoggedProblem = key
            daemon.log(GPSLogEvent.problem(problem))
        }
        status.fixMode = .noFix
        retryToken = daemon.loop.after(delay) { [unowned self] in
            self.retryToken = nil
            self.tryNetwork()
        }
    }

    func shutdown() {
        close()
        stopListening()
    }

    private func stopListening() {
        for (fd, c) in clients { daemon.loop.unwatch(c.token); Glibc.close(fd) }
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
        guard UnixSocket.peerIsAllowed(fd), clients.count < daemon.config.limits.maxClients else { Glibc.close(fd); return }
        let token = daemon.loop.watch(fd) { [unowned self] _ in self.read(fd) }
        clients[fd] = (token, LineFramer(maxLine: 4096), FeedSocketDecoder(), FeedPace())
    }

    private func read(_ fd: Int32) {
        guard var c = clients[fd] else { return }
        // Bounded work per wake-up so a flood cannot delay the control socket (FeedBudget).
        let (outcome, bytes) = reader.read(fd) { chunk in
            c.lines.feed(chunk) { item in
                switch item {
                case .tooLong: status.rejectedInput["line_too_long", default: 0] += 1
                case .line(let line):
                    for fix in c.decoder.decode(line: line) { deliver(fix, simulation: c.decoder.simulationSpeed.map { ($0, c.decoder.recordedTrack) }) }
                }
            }
        }
        for (k, v) in c.decoder.rejected { status.rejectedInput[k] = v }
        status.satellites = c.decoder.satellites ?? status.satellites
        guard let mode = c.pace.next(after: outcome, bytes: bytes, now: EventLoop.monotonic()) else {
            daemon.loop.unwatch(c.token); Glibc.close(fd); clients[fd] = nil
            if c.decoder.simulationSpeed != nil { daemon.simulationEnded() }
            return
        }
        // A simulation drives the workout's clock from each fix's arrival: read it at once.
        daemon.loop.setMode(c.token, c.decoder.simulationSpeed == nil ? mode : .immediate)
        clients[fd] = c
    }

    func deliver(_ fix: Fix, simulation: (speed: Double, origin: TrackOrigin)? = nil) {
        guard case .open = state else { return }
        if fix.mode != status.fixMode { daemon.log(GPSLogEvent.fix(fix.mode, source: status.source ?? "")) }
        status.fixMode = fix.mode
        status.lastFixMonotonic = EventLoop.monotonic()
        status.satellites = fix.satellites ?? status.satellites
        status.clockOffsetSeconds = fix.time - daemon.now()
        daemon.fixArrived(fix, simulation: simulation)
    }
}
