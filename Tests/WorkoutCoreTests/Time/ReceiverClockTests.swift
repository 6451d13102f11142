import Testing
@testable import WorkoutCore

/// A receiver sending one fix a second that the daemon reads `lag` seconds later, in batches of
/// `batch` (every fix of a batch arrives with the batch's last one, as a light feed is read).
struct ReceiverStream {
    var start = 1_795_000_000.0  // 2026-11-18, the "system" time of the first fix
    var lag = 0.3
    var batch = 1
    var interval = 1.0
    /// Receiver time minus true time.
    var offset = 0.0
    /// Arrival seconds per receiver second (a replay at 40x: 1.0 / 40).
    var pace = 1.0

    func arrival(_ i: Int) -> Double {
        let last = (i / batch) * batch + batch - 1
        return start + Double(last) * interval * pace + lag
    }
    func receiver(_ i: Int) -> Double { start + Double(i) * interval + offset }
}

@Suite struct ReceiverClockTests {
    static let offsetCases: [(Double, String)] = [(-16.0, "16 s behind"), (-86400.0, "1 day behind"), (-8 * 365.2425 * 86400, "8 years behind"),
                                                  (7 * 365.2425 * 86400, "7 years ahead of"), (3600.0, "1 h ahead of"), (-300.0, "5 min behind")]
    static let outlierCases: [Double] = [3600.0, 4_102_444_800 - 1_795_000_030, 253_402_300_799 - 1_795_000_030, -16.0, -86400.0, 1e12]
    /// Places `n` fixes; `override` replaces some receiver times (outliers, steps).
    static func run(_ s: ReceiverStream, n: Int = 60, override: [Int: Double] = [:], clock: inout ReceiverClock) -> [ReceiverClock.Placed] {
        (0..<n).map { i in clock.place(receiverTime: override[i] ?? s.receiver(i), arrival: s.arrival(i)) }
    }

    static func events(_ p: [ReceiverClock.Placed]) -> [ReceiverClockEvent] { p.flatMap(\.events) }

    @Test func inSyncReceiverKeepsItsOwnTimes() {
        var c = ReceiverClock()
        let s = ReceiverStream(offset: 0.4)
        let p = Self.run(s, clock: &c)
        #expect(p.enumerated().allSatisfy { $0.element.time == s.receiver($0.offset) })
        expectEqual(c.offset, 0)
        expectNil(c.problem)
        #expect(c.isTrusted)
        expectEqual(Self.events(p), [.offsetLearned(measured: s.receiver(0) - s.arrival(0), applied: 0)])
    }

    /// 16 s, a day, 8 years behind; 7 years ahead: fixes land at their arrival (within the lag),
    /// one second apart exactly as the receiver spaced them, and the problem is named.
    @Test(arguments: ReceiverClockTests.offsetCases)
    func offsetReceiverIsPlacedByArrival(offset: Double, words: String) {
        var c = ReceiverClock()
        let s = ReceiverStream(batch: 1, offset: offset)
        let p = Self.run(s, clock: &c)
        #expect(p.allSatisfy { $0.placement == .receiver })
        expectLess(abs(p[0].time - s.arrival(0)), 1e-6)
        for i in 1..<p.count {
            expectLess(abs((p[i].time - p[i - 1].time) - 1), 1e-6, "interval \(i) comes from the receiver")
            expectLess(abs(p[i].time - s.arrival(i)), 3, "fix \(i) placed near its arrival")
        }
        let problem = c.problem ?? ""
        #expect(problem.contains("receiver clock") && problem.contains(words) && problem.hasSuffix("fixes are placed by arrival"), "\(problem)")
        expectEqual(Self.events(p).filter { if case .problemChanged = $0 { true } else { false } }.count, 1, "logged once")
        expectEqual(c.outliers, 0)
    }

    /// One fix dated +1 h, 2099, 9999, -16 s or a day back in an in-sync ride: placed by its
    /// arrival, the next fix agrees with the receiver's sequence again, the offset never moves.
    @Test(arguments: ReceiverClockTests.outlierCases)
    func oneOutlierMovesNothing(jump: Double) {
        var c = ReceiverClock()
        let s = ReceiverStream(batch: 2)
        let p = Self.run(s, override: [30: s.receiver(30) + jump], clock: &c)
        expectEqual(p[30].placement, .arrival)
        expectLess(abs(p[30].time - s.arrival(30)), 1e-6)
        for i in 0..<60 where i != 30 { #expect(p[i].time == s.receiver(i) && p[i].placement == .receiver) }
        #expect(c.offset == 0 && c.problem == nil && c.outliers == 1)
        #expect(Self.events(p).contains(.outliersIgnored(count: 1, deviation: s.receiver(30) + jump - (s.receiver(28) + s.arrival(30) - s.arrival(28)))) || c.outliers == 1)
        expectLess(p.map(\.time).max()!, s.arrival(59) + 1, "the workout's clock is not moved by the outlier")
    }

    /// An outlier as the very first fix: the following fixes agree with each other and the
    /// offset is learned again from them (a step); the outlier's date never sticks.
    @Test func outlierAsFirstFix() {
        var c = ReceiverClock()
        let s = ReceiverStream()
        let p = Self.run(s, override: [0: 4_102_444_800], clock: &c)
        #expect(c.offset == 0 && c.problem == nil)
        #expect(p[1].placement == .arrival && p[2].placement == .arrival && p[3].placement == .receiver)
        #expect(Self.events(p).contains(.stepAccepted(from: 4_102_444_800 - s.arrival(0), to: s.receiver(3) - s.arrival(3), fixes: 3)))
        #expect(p.dropFirst().allSatisfy { abs($0.time - s.receiver(0) - 1) < 60 }, "no fix after the outlier placed in 2100")
    }

    /// A real step: the receiver's clock jumps an hour ahead and stays. Two fixes are placed by
    /// arrival, the third confirms the step, and the offset is learned again; the placed times
    /// never jump.
    @Test func stepAgreedByConsecutiveFixes() {
        var c = ReceiverClock()
        let s = ReceiverStream()
        var over: [Int: Double] = [:]
        for i in 20..<60 { over[i] = s.receiver(i) + 3600 }
        let p = Self.run(s, override: over, clock: &c)
        #expect(p[20].placement == .arrival && p[21].placement == .arrival && p[22].placement == .receiver)
        expectLess(abs((c.measuredOffset ?? 0) - (3600 - s.lag)), 1e-6)
        expectEqual(c.problem?.contains("1 h ahead of"), true)
        for i in 1..<60 { #expect(p[i].time - p[i - 1].time > 0 && p[i].time - p[i - 1].time < 2, "no jump at \(i)") }
        expectEqual(c.outliers, 0)
        #expect(Self.events(p).contains(.stepAccepted(from: s.receiver(0) - s.arrival(0), to: s.receiver(22) + 3600 - s.arrival(22), fixes: 3)))
    }

    /// Two fixes in a row dated an hour ahead, then back: outliers (a step needs three).
    @Test func twoOutliersAreNotAStep() {
        var c = ReceiverClock()
        let s = ReceiverStream()
        let p = Self.run(s, override: [10: s.receiver(10) + 3600, 11: s.receiver(11) + 3600], clock: &c)
        #expect(c.outliers == 2 && c.offset == 0)
        #expect(p[12].placement == .receiver && p[12].time == s.receiver(12))
    }

    /// Outliers that disagree with each other never confirm a step.
    @Test func scatteredOutliersNeverConfirmAStep() {
        var c = ReceiverClock()
        let s = ReceiverStream()
        let p = Self.run(s, override: [10: s.receiver(10) + 3600, 11: s.receiver(11) - 86400, 12: s.receiver(12) + 1e9], clock: &c)
        #expect(c.outliers == 3 && c.offset == 0)
        #expect(!Self.events(p).contains { if case .stepAccepted = $0 { true } else { false } })
    }

    /// A capture replayed at 40x its pace, read in one-second batches of 40 fixes: every fix is
    /// in sequence and spaced by the receiver's intervals (distance and speeds as at 1x).
    @Test func replayAt40x() {
        var c = ReceiverClock()
        let s = ReceiverStream(batch: 40, offset: -8 * 365.2425 * 86400, pace: 1.0 / 40)
        let p = Self.run(s, n: 400, clock: &c)
        #expect(p.allSatisfy { $0.placement == .receiver })
        for i in 1..<p.count { expectLess(abs(p[i].time - p[i - 1].time - 1), 1e-6) }
        #expect(c.outliers == 0 && c.isTrusted)
    }

    /// A capture sent as fast as possible (all fixes arrive at once) with a 10-minute gap in it:
    /// the gap looks like a step and is confirmed as one, and the fixes after it are placed after
    /// the ones before (the track never runs backwards), spaced by the receiver's intervals.
    @Test func stepInAReplayFasterThanRealTime() {
        var c = ReceiverClock()
        var placed: [ReceiverClock.Placed] = []
        for i in 0..<100 { placed.append(c.place(receiverTime: 1_584_538_099 + Double(i) * 0.1, arrival: 1_795_000_000.5)) }
        for i in 0..<20 { placed.append(c.place(receiverTime: 1_584_538_739 + Double(i) * 0.1, arrival: 1_795_000_000.6)) }
        let byReceiver = placed.filter { $0.placement == .receiver }.map(\.time)
        expectEqual(byReceiver.count, 118)
        #expect(zip(byReceiver, byReceiver.dropFirst()).allSatisfy { $1 >= $0 }, "never backwards")
        expectLess(abs(placed[119].time - placed[102].time - 1.7), 1e-6)
        #expect(Self.events(placed).contains { if case .stepAccepted = $0 { true } else { false } })
    }

    /// 10 fixes a second read once a second; a receiver reporting every 5 s; a one-hour gap
    /// (a suspend: receiver and arrival both an hour later).
    @Test func batchesSlowReceiversAndGaps() {
        var c = ReceiverClock()
        let fast = ReceiverStream(batch: 10, interval: 0.1)
        let p = Self.run(fast, n: 100, clock: &c)
        #expect(p.allSatisfy { $0.placement == .receiver } && c.outliers == 0)
        var slow = ReceiverClock()
        let q = Self.run(ReceiverStream(interval: 5, offset: -16), n: 30, clock: &slow)
        #expect(q.allSatisfy { $0.placement == .receiver } && slow.outliers == 0)
        var gap = ReceiverClock()
        let g = ReceiverStream(offset: -100)
        _ = gap.place(receiverTime: g.receiver(0), arrival: g.arrival(0))
        let after = gap.place(receiverTime: g.receiver(3600), arrival: g.arrival(3600))
        #expect(after.placement == .receiver && abs(after.time - g.arrival(3600)) < 1)
    }

    @Test func duplicatesAndSmallReorderingsStayInSequence() {
        var c = ReceiverClock()
        let s = ReceiverStream()
        let p = Self.run(s, override: [5: s.receiver(4), 9: s.receiver(8) - 0.5], clock: &c)
        #expect(p.allSatisfy { $0.placement == .receiver } && c.outliers == 0)
        expectEqual(p[5].time, p[4].time, "a repeated fix keeps its time (the filter drops it as out of order)")
    }

    @Test func nonFiniteTimesPassThrough() {
        var c = ReceiverClock()
        let p = c.place(receiverTime: .nan, arrival: 100)
        #expect(p.time.isNaN && p.events.isEmpty && c.offset == nil)
    }

    /// gpsd's 1024-week cases: a receiver with the rollover bug (exactly 1024 weeks behind), and a
    /// pre-2017 log that gpsd 3.22 dated 1024 weeks later (rst39: 2033).
    @Test func weekRolloverIsNamed() {
        var bug = ReceiverClock()
        let era = GPSWeekRollover.era
        _ = Self.run(ReceiverStream(offset: -era), n: 5, clock: &bug)
        #expect(bug.problem?.contains("1024 GPS weeks") == true && bug.problem?.contains("week-rollover bug") == true, "\(bug.problem ?? "")")
        var moved = ReceiverClock()
        let t2033 = Double(CivilTime.daysFromCivil(year: 2033, month: 10, day: 5) * 86400) + 74492
        _ = moved.place(receiverTime: t2033, arrival: 1_795_000_000)
        let text = moved.problem ?? ""
        #expect(text.contains("ahead of the system clock") && text.contains("2033-10-05") && text.contains("2014-02-19") && text.contains("gpsd"), "\(text)")
    }

    /// When the workout's dates move to the receiver's (unsynchronized system clock), the offset
    /// to the workout's clock becomes 0 and the problem goes; fixes then keep their own times.
    @Test func workoutClockShiftedToTheReceiver() {
        var c = ReceiverClock()
        let s = ReceiverStream(offset: 3 * 86400)
        _ = Self.run(s, n: 5, clock: &c)
        #expect(c.isTrusted)
        guard case .receiver(let o) = DateSource.choose(sync: .unsynchronized, receiver: c) else { Issue.record("receiver dates expected"); return }
        expectEqual(DateSource.choose(sync: .synchronized, receiver: c), .system)
        let ev = c.workoutClockShifted(by: o)
        #expect(ev == [.problemChanged(nil)] && c.offset == 0)
        let p = c.place(receiverTime: s.receiver(5), arrival: s.arrival(5) + o)
        #expect(p.time == s.receiver(5) && p.placement == .receiver)
    }

    @Test func untrustedReceiverDoesNotDateWorkouts() {
        var c = ReceiverClock()
        expectEqual(DateSource.choose(sync: .unsynchronized, receiver: c), .system)
        _ = c.place(receiverTime: 5000, arrival: 1000)
        #expect(!c.isTrusted)
        expectEqual(DateSource.choose(sync: .unsynchronized, receiver: c), .system, "one fix is not consistent time")
    }
}

@Suite struct ClockOffsetTextTests {
    @Test func amounts() {
        expectEqual(ClockOffsetText.amount(16), "16 s")
        expectEqual(ClockOffsetText.amount(-16.4), "16 s")
        expectEqual(ClockOffsetText.amount(300), "5 min")
        expectEqual(ClockOffsetText.amount(3600), "1 h")
        expectEqual(ClockOffsetText.amount(86400), "1 day")
        expectEqual(ClockOffsetText.amount(3 * 86400), "3 days")
        expectEqual(ClockOffsetText.amount(7.2 * 365.2425 * 86400), "7 years")
        expectEqual(ClockOffsetText.amount(1.6 * 365.2425 * 86400), "584 days")
    }

    @Test func noProblemWithinTwoSeconds() {
        expectNil(ClockOffsetText.problem(offset: 1.9, receiverTime: 0))
        expectNil(ClockOffsetText.problem(offset: -1.9, receiverTime: 0))
        expectNil(ClockOffsetText.problem(offset: .nan, receiverTime: 0))
        expectEqual(ClockOffsetText.problem(offset: -7 * 365.2425 * 86400, receiverTime: 1_500_000_000), "receiver clock 7 years behind the system clock; fixes are placed by arrival")
    }
}
