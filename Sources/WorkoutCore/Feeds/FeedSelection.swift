/// Which GPS source feeds the workout, and the failover of the network sources: a pure machine
/// (events in, with the monotonic time where it matters; actions and verdicts out) that the
/// shell's `FeedHub` performs. The shape of `FeedPace`: policy decided here, table-tested.
///
/// - One source feeds the workout at a time: the first in the configured order (`feeds`) that
///   delivers, chosen afresh at each `open` (a new workout or a resume). Another source takes
///   over when it ranks higher (its position in `feeds`), or when the feeding one has been silent
///   for `handoverSeconds`, or closed. Fixes from the others are counted, never delivered.
/// - The network sources (gpsd, NMEA TCP) are tried in their configured order while GPS is
///   open: a failure moves to the next after 0.2 s; after a whole round of failures the first is
///   tried again after a backoff of 1, 2, 4 ... 30 s (`Backoff`; a test daemon's is shorter). A
///   connection resets the backoff.
public struct FeedSelection: Sendable {
    /// A source of fixes.
    public enum Source: Sendable, Hashable {
        /// The network source in use (gpsd, NMEA TCP).
        case network
        /// A feed-socket connection (its descriptor).
        case client(Int32)
    }

    /// What the hub must do after an event.
    public enum Action: Sendable, Equatable {
        /// Connect to this network source (an element of `networkFeeds`).
        case connect(FeedConfig)
        /// Close the network source (it failed, or GPS closed).
        case closeNetwork
        /// Send `retryDue` after this many seconds.
        case scheduleRetry(after: Double)
        /// Forget the retry scheduled, if any.
        case cancelRetry
    }

    /// What becomes of a fix.
    public enum Verdict: Sendable, Equatable {
        /// GPS is closed: dropped.
        case dropped
        /// Another source feeds the workout: counted (`otherSourceFixes`) and left out.
        case otherSource
        /// The workout's fix; `sourceChanged`: this source feeds it from now on.
        case deliver(sourceChanged: Bool)
    }

    /// A feeding source silent this long (s) gives way to another that delivers.
    public static let handoverSeconds = 5.0

    /// The waits between tries of the network sources (s): the next source of a round after
    /// `nextSource`; after a whole round failed, the first again after `firstRound`, doubling
    /// with each round failed in a row, at most `longest`. The defaults are the product's.
    public struct Backoff: Sendable, Equatable {
        public var nextSource: Double
        public var firstRound: Double
        public var longest: Double

        public init(nextSource: Double = 0.2, firstRound: Double = 1, longest: Double = 30) {
            self.nextSource = nextSource
            self.firstRound = firstRound
            self.longest = longest
        }

        /// The wait after `failed` (>= 1) whole rounds failed in a row.
        public func afterRounds(_ failed: Int) -> Double {
            min(longest, firstRound * Double(1 << min(max(failed - 1, 0), 5)))
        }
    }

    private struct Feeding: Sendable, Equatable {
        var source: Source
        /// When it last delivered (monotonic).
        var lastFix: Double
    }

    /// The network sources while GPS is open. `attempt` counts every try since `open` (the
    /// source tried is `networkFeeds[attempt % count]`); `failures` the whole rounds failed in a
    /// row (the backoff).
    private enum Network: Sendable, Equatable {
        /// None configured.
        case none
        /// Connecting. -> connected, waiting
        case connecting(attempt: Int, failures: Int)
        /// Connected. -> waiting (it failed or closed)
        case connected(attempt: Int)
        /// A retry is scheduled. -> connecting (`retryDue`)
        case waiting(attempt: Int, failures: Int)

        var attempt: Int? {
            switch self {
            case .none: return nil
            case .connecting(let a, _), .connected(let a), .waiting(let a, _): return a
            }
        }
    }

    private enum State: Sendable, Equatable {
        /// GPS closed; a feed-socket connection that fed the workout stays known (its close still
        /// ends a simulation; it is read first). -> open
        case closed(feedingClient: Int32?)
        /// GPS open. -> closed
        case open(network: Network, feeding: Feeding?)
    }

    /// The configured sources, in failover order.
    public let feeds: [FeedConfig]
    /// The network sources among them, in order.
    public let networkFeeds: [FeedConfig]
    /// The waits between tries.
    public let backoff: Backoff
    private var state = State.closed(feedingClient: nil)

    public init(feeds: [FeedConfig], backoff: Backoff = Backoff()) {
        self.feeds = feeds
        self.backoff = backoff
        self.networkFeeds = feeds.filter { f in
            switch f {
            case .gpsd, .nmea: return true
            case .socket: return false
            }
        }
    }

    // MARK: - Questions

    public var isOpen: Bool {
        switch state {
        case .open: return true
        case .closed: return false
        }
    }

    /// The source feeding the workout (while closed: the connection that fed it, if still open).
    public var feeding: Source? {
        switch state {
        case .closed(let fd): return fd.map { .client($0) }
        case .open(_, let f): return f?.source
        }
    }

    /// The network source being tried or in use (nil: closed, none configured).
    public var currentNetworkFeed: FeedConfig? {
        guard case .open(let network, _) = state, let a = network.attempt, !networkFeeds.isEmpty else { return nil }
        return networkFeeds[a % networkFeeds.count]
    }

    /// Where a source stands in the failover order (lower first): its configured position.
    public func rank(_ source: Source) -> Int {
        let target: FeedConfig?
        switch source {
        case .network: target = currentNetworkFeed ?? networkFeeds.first
        case .client: target = feeds.first { if case .socket = $0 { return true } else { return false } }
        }
        return target.flatMap { t in feeds.firstIndex(of: t) } ?? feeds.count
    }

    // MARK: - Events

    /// GPS opens (a workout starts or resumes): the source is chosen afresh, the network
    /// sources are tried from the first.
    public mutating func open() -> [Action] {
        if isOpen { return [] }
        guard let first = networkFeeds.first else {
            state = .open(network: .none, feeding: nil)
            return []
        }
        state = .open(network: .connecting(attempt: 0, failures: 0), feeding: nil)
        return [.connect(first)]
    }

    /// GPS closes (paused, stopped): the network source closes; a feed-socket connection that
    /// fed the workout stays known.
    public mutating func close() -> [Action] {
        guard case .open(let network, let feeding) = state else { return [] }
        var client: Int32?
        if case .client(let fd)? = feeding?.source { client = fd }
        state = .closed(feedingClient: client)
        switch network {
        case .none: return []
        case .connecting, .connected, .waiting: return [.closeNetwork, .cancelRetry]
        }
    }

    /// The network source connected: the backoff starts again.
    public mutating func networkConnected() {
        guard case .open(.connecting(let attempt, _), let feeding) = state else { return }
        state = .open(network: .connected(attempt: attempt), feeding: feeding)
    }

    /// The network source failed (refused, closed, unreachable): the next one after 0.2 s, or
    /// after a whole round the first again after the backoff. Closed GPS: an expected race (a
    /// failure reported as it closed), nothing.
    public mutating func networkFailed() -> [Action] {
        guard case .open(let network, var feeding) = state else { return [] }
        let attempt: Int, failures: Int
        switch network {
        case .none, .waiting: return []  // no network source in use: a stale report
        case .connecting(let a, let f): attempt = a; failures = f
        case .connected(let a): attempt = a; failures = 0
        }
        if feeding?.source == .network { feeding = nil }
        let next = attempt + 1
        var delay = backoff.nextSource
        var failed = failures
        if next % networkFeeds.count == 0 {
            failed += 1
            delay = backoff.afterRounds(failed)
        }
        state = .open(network: .waiting(attempt: next, failures: failed), feeding: feeding)
        return [.closeNetwork, .scheduleRetry(after: delay)]
    }

    /// The retry's time came: connect to the next source.
    public mutating func retryDue() -> [Action] {
        guard case .open(.waiting(let attempt, let failures), let feeding) = state else { return [] }
        state = .open(network: .connecting(attempt: attempt, failures: failures), feeding: feeding)
        return [.connect(networkFeeds[attempt % networkFeeds.count])]
    }

    /// A fix from `source` at the monotonic time `now`.
    public mutating func fix(from source: Source, at now: Double) -> Verdict {
        guard case .open(let network, var feeding) = state else { return .dropped }
        if let f = feeding, f.source != source {
            guard rank(source) < rank(f.source) || now - f.lastFix > FeedSelection.handoverSeconds else { return .otherSource }
            feeding = nil
        }
        let changed = feeding == nil
        feeding = Feeding(source: source, lastFix: now)
        state = .open(network: network, feeding: feeding)
        return .deliver(sourceChanged: changed)
    }

    /// A feed-socket connection closed. Returns whether it fed the workout (a simulation that
    /// ends so stops the workout's clock).
    public mutating func clientClosed(_ fd: Int32) -> Bool {
        switch state {
        case .closed(let client):
            guard client == fd else { return false }
            state = .closed(feedingClient: nil)
            return true
        case .open(let network, let feeding):
            guard feeding?.source == .client(fd) else { return false }
            state = .open(network: network, feeding: nil)
            return true
        }
    }
}
