import Testing
@testable import WorkoutCore

@Suite struct RevolutionCounterTests {
    static func crank(_ revs: UInt32, _ event: UInt16) -> RevolutionData { RevolutionData(revolutions: revs, eventTime: event, ticksPerSecond: 1024) }

    @Test func firstReportIsABaselineThenRatesFromEventTimes() {
        var c = RevolutionCounter.crank
        expectEqual(c.add(Self.crank(10, 1000), at: 0), .init(revolutions: 0, rpm: nil))
        // 3 revolutions in 2048 ticks (2 s): 90 rpm
        expectEqual(c.add(Self.crank(13, 3048), at: 2), .init(revolutions: 3, rpm: 90))
    }

    @Test func bothCountersWrap() {
        var c = RevolutionCounter.crank
        _ = c.add(Self.crank(65_534, 65_000), at: 0)
        // 65534 -> 1 is 3 revolutions; 65000 -> 1512 (wrapped) is 2048 ticks
        expectEqual(c.add(Self.crank(1, 1512), at: 2), .init(revolutions: 3, rpm: 90))
        var w = RevolutionCounter.wheel(circumference: 2.105)
        _ = w.add(RevolutionData(revolutions: .max - 1, eventTime: 65_535, ticksPerSecond: 1024), at: 0)
        let s = w.add(RevolutionData(revolutions: 2, eventTime: 1023, ticksPerSecond: 1024), at: 1)
        #expect(s.revolutions == 4 && s.rpm == 240)
    }

    @Test func aRepeatHoldsTheRateThenAStoppedPartIsZero() {
        var c = RevolutionCounter.crank
        _ = c.add(Self.crank(0, 0), at: 0)
        _ = c.add(Self.crank(1, 1024), at: 1)  // 60 rpm
        // the same event again: no new revolution yet; the rate holds
        expectEqual(c.add(Self.crank(1, 1024), at: 1.5), .init(revolutions: 0, rpm: 60))
        expectEqual(c.add(Self.crank(1, 1024), at: 3.9), .init(revolutions: 0, rpm: 60))
        // 3 s without a new revolution: stopped, 0 rpm, not the last value
        expectEqual(c.add(Self.crank(1, 1024), at: 4.0), .init(revolutions: 0, rpm: 0))
        expectEqual(c.add(Self.crank(1, 1024), at: 9), .init(revolutions: 0, rpm: 0))
        // moving again
        expectEqual(c.add(Self.crank(2, 10 * 1024), at: 10).revolutions, 1)
    }

    @Test func aResetOrAJumpIsANewBaseline() {
        var c = RevolutionCounter.crank
        _ = c.add(Self.crank(500, 5000), at: 0)
        // the sensor restarted: counters back near 0 (reads as ~65000 revolutions in 1 s)
        expectEqual(c.add(Self.crank(3, 6024), at: 1), .init(revolutions: 0, rpm: nil))
        expectEqual(c.add(Self.crank(4, 7048), at: 2), .init(revolutions: 1, rpm: 60))
        // revolutions without a new event time cannot be: a new baseline
        expectEqual(c.add(Self.crank(9, 7048), at: 3), .init(revolutions: 0, rpm: nil))
    }

    @Test func acrossADropoutTheRevolutionsCountAndAGapLongerThanTheEventTimeGivesNoRate() {
        var c = RevolutionCounter.crank
        _ = c.add(Self.crank(0, 0), at: 0)
        // 10 s out of range at 90 rpm: 15 revolutions, 10240 ticks
        expectEqual(c.add(Self.crank(15, 10_240), at: 10), .init(revolutions: 15, rpm: 90))
        // 100 s away (the 16-bit event time wrapped unseen): revolutions count, no rate
        expectEqual(c.add(Self.crank(165, 10_240 &+ 36_864), at: 110), .init(revolutions: 150, rpm: nil))
        expectEqual(c.add(Self.crank(166, 10_240 &+ 36_864 &+ 683), at: 110.67).rpm.map { ($0 - 90).magnitude < 0.1 }, true)
    }
}
