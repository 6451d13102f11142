import Testing
@testable import WorkoutCore

/// Which source feeds the workout and how the network sources fail over (time is passed in).
@Suite struct FeedSelectionTests {
    static let gpsdA = FeedConfig.gpsd(host: "127.0.0.1", port: 2947)
    static let nmeaB = FeedConfig.nmea(host: "127.0.0.1", port: 10110)
    static let socket = FeedConfig.socket(path: "/tmp/feed.sock")

    @Test func theNetworkSourcesFailOverInOrderWithABackoffAfterEachRound() {
        var s = FeedSelection(feeds: [Self.gpsdA, Self.nmeaB, Self.socket])
        expectEqual(s.open(), [.connect(Self.gpsdA)])
        var delays: [Double] = []
        var connects: [FeedConfig] = []
        for _ in 0..<14 {
            for case .scheduleRetry(let d) in s.networkFailed() { delays.append(d) }
            for case .connect(let f) in s.retryDue() { connects.append(f) }
        }
        expectEqual(delays, [0.2, 1, 0.2, 2, 0.2, 4, 0.2, 8, 0.2, 16, 0.2, 30, 0.2, 30], "\(delays)")
        expectEqual(connects, Array(repeating: [Self.nmeaB, Self.gpsdA], count: 7).flatMap { $0 })
    }

    @Test func anotherBackoffKeepsTheSameShape() {
        // A host's shorter waits (a test daemon's): the same doubling, capped at its longest.
        var s = FeedSelection(feeds: [Self.gpsdA, Self.nmeaB], backoff: .init(nextSource: 0.05, firstRound: 0.1, longest: 0.3))
        _ = s.open()
        var delays: [Double] = []
        for _ in 0..<6 {
            for case .scheduleRetry(let d) in s.networkFailed() { delays.append(d) }
            _ = s.retryDue()
        }
        expectEqual(delays, [0.05, 0.1, 0.05, 0.2, 0.05, 0.3], "\(delays)")
    }

    @Test func aConnectionStartsTheBackoffAgain() {
        var s = FeedSelection(feeds: [Self.gpsdA])
        _ = s.open()
        _ = s.networkFailed(); _ = s.retryDue()
        _ = s.networkFailed(); _ = s.retryDue()
        expectEqual(s.networkFailed(), [.closeNetwork, .scheduleRetry(after: 4)])
        _ = s.retryDue()
        s.networkConnected()
        expectEqual(s.networkFailed(), [.closeNetwork, .scheduleRetry(after: 1)], "a connection resets the backoff")
    }

    @Test func theFirstSourceThatDeliversFeedsTheWorkout() {
        var s = FeedSelection(feeds: [Self.socket])
        _ = s.open()
        expectEqual(s.fix(from: .client(7), at: 10), .deliver(sourceChanged: true))
        expectEqual(s.fix(from: .client(7), at: 11), .deliver(sourceChanged: false))
        expectEqual(s.fix(from: .client(9), at: 12), .otherSource, "another connection of the same rank is counted")
        expectEqual(s.fix(from: .client(9), at: 15.9), .otherSource, "within the handover time")
        expectEqual(s.fix(from: .client(9), at: 16.1), .deliver(sourceChanged: true), "the feeding one was silent for 5 s")
        expectEqual(s.feeding, .client(9))
    }

    @Test func aHigherRankedSourceTakesOverAtOnce() {
        var s = FeedSelection(feeds: [Self.gpsdA, Self.socket])
        _ = s.open()
        s.networkConnected()
        expectEqual(s.fix(from: .client(5), at: 1), .deliver(sourceChanged: true))
        expectEqual(s.fix(from: .network, at: 1.5), .deliver(sourceChanged: true), "gpsd is configured first")
        expectEqual(s.fix(from: .client(5), at: 2), .otherSource)
        expectEqual(s.networkFailed(), [.closeNetwork, .scheduleRetry(after: 1)])
        expectNil(s.feeding, "the failed source feeds no more")
        expectEqual(s.fix(from: .client(5), at: 2.5), .deliver(sourceChanged: true), "the socket takes over at once")
    }

    @Test func closingKeepsTheFeedingConnectionKnownUntilItCloses() {
        var s = FeedSelection(feeds: [Self.gpsdA, Self.socket])
        _ = s.open()
        _ = s.fix(from: .client(4), at: 1)
        expectEqual(s.close(), [.closeNetwork, .cancelRetry])
        expectEqual(s.feeding, .client(4))
        expectEqual(s.fix(from: .client(4), at: 2), .dropped)
        expectEqual(s.clientClosed(3), false)
        expectEqual(s.clientClosed(4), true, "a simulation that closes ends its clock even while paused")
        expectNil(s.feeding)
        _ = s.open()
        _ = s.fix(from: .network, at: 3)
        _ = s.close()
        expectNil(s.feeding, "a network source is forgotten when GPS closes")
    }

    @Test func eachOpenChoosesAfresh() {
        var s = FeedSelection(feeds: [Self.socket])
        _ = s.open()
        _ = s.fix(from: .client(4), at: 1)
        _ = s.close()
        _ = s.open()
        expectNil(s.feeding)
        expectEqual(s.fix(from: .client(8), at: 2), .deliver(sourceChanged: true), "a new connection feeds the next workout")
    }

    /// Every phase of the network side x every event: the actions, and no change where the event
    /// does not fit (an expected race is a no-op).
    @Test func everyPhaseAndEvent() {
        enum Phase: CaseIterable { case closed, connecting, connected, waiting }
        enum Event: CaseIterable { case open, close, connected, failed, retryDue }
        func machine(_ p: Phase) -> FeedSelection {
            var s = FeedSelection(feeds: [Self.gpsdA, Self.nmeaB])
            switch p {
            case .closed: break
            case .connecting: _ = s.open()
            case .connected: _ = s.open(); s.networkConnected()
            case .waiting: _ = s.open(); _ = s.networkFailed()
            }
            return s
        }
        let expected: [Phase: [Event: [FeedSelection.Action]]] = [
            .closed: [.open: [.connect(Self.gpsdA)], .close: [], .connected: [], .failed: [], .retryDue: []],
            .connecting: [.open: [], .close: [.closeNetwork, .cancelRetry], .connected: [], .failed: [.closeNetwork, .scheduleRetry(after: 0.2)], .retryDue: []],
            .connected: [.open: [], .close: [.closeNetwork, .cancelRetry], .connected: [], .failed: [.closeNetwork, .scheduleRetry(after: 0.2)], .retryDue: []],
            .waiting: [.open: [], .close: [.closeNetwork, .cancelRetry], .connected: [], .failed: [], .retryDue: [.connect(Self.nmeaB)]],
        ]
        for p in Phase.allCases {
            for e in Event.allCases {
                var s = machine(p)
                let actions: [FeedSelection.Action]
                switch e {
                case .open: actions = s.open()
                case .close: actions = s.close()
                case .connected: s.networkConnected(); actions = []
                case .failed: actions = s.networkFailed()
                case .retryDue: actions = s.retryDue()
                }
                expectEqual(actions, expected[p]?[e], "\(p) x \(e): \(actions)")
            }
        }
    }

    @Test func withoutNetworkSourcesOpeningConnectsNothing() {
        var s = FeedSelection(feeds: [Self.socket])
        #expect(s.open() == [] && s.isOpen)
        #expect(s.networkFailed() == [] && s.retryDue() == [])
        expectEqual(s.close(), [])
    }
}
