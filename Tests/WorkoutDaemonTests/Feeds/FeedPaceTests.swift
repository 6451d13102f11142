import Testing
@testable import WorkoutDaemon

/// When a feed is read with the loop's other wake-ups and when at once (time is passed in).
@Suite struct FeedPaceTests {
    @Test func aNewFeedIsReadAtOnceUntilItsPaceIsKnown() {
        var p = FeedPace()
        #expect(p.next(after: .drained, bytes: 150, now: 100) == .immediate)
        #expect(p.pace == .unknown)
        #expect(p.next(after: .drained, bytes: 150, now: 100.5) == .immediate)
    }

    @Test func tenFixesASecondAreLight() {
        var p = FeedPace()
        var modes: [WatchMode?] = []
        modes.append(p.next(after: .drained, bytes: 150, now: 100))
        // Once coalesced, the loop reads the feed about once a second: ten lines a turn.
        for k in 1...5 { modes.append(p.next(after: .drained, bytes: 1500, now: 100 + Double(k))) }
        #expect(modes == [.immediate, .coalesced, .coalesced, .coalesced, .coalesced, .coalesced])
        #expect(p.pace == .light)
    }

    @Test func aFloodIsReadAtOnceAndALightFeedAgainAfterIt() {
        var p = FeedPace()
        _ = p.next(after: .drained, bytes: 150, now: 0)
        #expect(p.next(after: .drained, bytes: 1500, now: 1) == .coalesced)
        // A burst: the whole second's light allowance within 0.1 s; read at once from then on.
        #expect(p.next(after: .budgetSpent, bytes: 20_000, now: 1.05) == .immediate)
        #expect(p.next(after: .drained, bytes: 20_000, now: 1.1) == .immediate)
        #expect(p.pace == .busy)
        var t = 1.1
        for _ in 0..<30 { t += 0.05; #expect(p.next(after: .drained, bytes: 4000, now: t) == .immediate) }
        // The flood ends: the next turn, a second on, finds a light second.
        #expect(p.next(after: .drained, bytes: 300, now: t + 1.2) == .coalesced)
    }

    @Test func aSpentBudgetIsAlwaysReadAgainAtOnce() {
        var p = FeedPace()
        _ = p.next(after: .drained, bytes: 10, now: 0)
        _ = p.next(after: .drained, bytes: 10, now: 1)
        #expect(p.pace == .light)
        #expect(p.next(after: .budgetSpent, bytes: 2048, now: 1.2) == .immediate)
    }

    @Test func theEndOfTheStreamHasNoNextMode() {
        var p = FeedPace()
        #expect(p.next(after: .ended(errno: 0), bytes: 0, now: 0) == nil)
        #expect(p.next(after: .ended(errno: 104), bytes: 12, now: 1) == nil)
    }
}
