import Testing
@testable import WorkoutCore

/// A whole ride through `ReceiverClock` and `WorkoutRecorder`, as the daemon runs them: the
/// numbers are the ones of a receiver in sync, whatever the receiver's clock says.
@Suite struct ReceiverClockRideTests {
    static let start = 1_795_000_000.0

    /// 600 fixes at 1 Hz, 6 m/s east, read 0.4 s late in pairs; `receiverTime` maps the fix's
    /// true time to what the receiver says. Returns the finished workout's elapsed and distance.
    static func ride(_ receiverTime: (Int, Double) -> Double) -> (elapsed: Double, distance: Double, accepted: Int) {
        var clock = ReceiverClock()
        var r = WorkoutRecorder(id: WorkoutID(rawValue: "ride")!, activity: .cycling, startedAt: start)
        var lastArrival = start
        for i in 0..<600 {
            let t = start + 2 + Double(i)
            let arrival = start + 2 + Double(i | 1) + 0.4
            let lon = 11.5 + Double(i) * 6 / (111_320 * 0.66913)
            let placed = clock.place(receiverTime: receiverTime(i, t), arrival: arrival)
            r.ingest(Fix(time: placed.time, latitude: 48, longitude: lon, altitude: 500, mode: .threeD, horizontalAccuracy: 3))
            if i % 2 == 1 { r.tick(now: arrival) }
            lastArrival = arrival
        }
        let w = r.finish(at: lastArrival + 0.5)
        return (w.summary.elapsedSeconds, w.summary.distanceMeters, w.summary.acceptedCount)
    }

    static let reference = ride { _, t in t }

    @Test func referenceRide() {
        expectLess(abs(Self.reference.distance - 599 * 6), 30, "\(Self.reference.distance)")
        expectLess(abs(Self.reference.elapsed - 601.9), 0.01)
    }

    /// One fix dated +1 h, 2099 or 9999 (and, past, 16 s, 1 h or a day): elapsed changes by < 2 s,
    /// distance by < 1 %, and the fixes after it are kept (issue 27 item 12: one fix an hour
    /// back was accepted and the next 3 good ones rejected as out of order).
    @Test(arguments: [3600.0, 4_070_908_800 - start, 253_402_300_799 - start, -16.0, -3600.0, -86400.0] as [Double])
    func oneOutlierFix(jump: Double) {
        let out = Self.ride { i, t in i == 300 ? t + jump : t }
        expectLess(abs(out.elapsed - Self.reference.elapsed), 2, "elapsed \(out.elapsed) vs \(Self.reference.elapsed)")
        expectGreaterOrEqual(out.accepted, Self.reference.accepted - 1, "accepted \(out.accepted) of \(Self.reference.accepted)")
        expectLess(abs(out.distance - Self.reference.distance) / Self.reference.distance, 0.01, "distance \(out.distance) vs \(Self.reference.distance)")
    }

    /// Every fix 16 s, a day or 8 years behind (or 7 years ahead): the same ride.
    @Test(arguments: [-16.0, -86400.0, -8 * 365.2425 * 86400, 7 * 365.2425 * 86400] as [Double])
    func receiverOffBy(offset: Double) {
        let out = Self.ride { _, t in t + offset }
        expectLess(abs(out.elapsed - Self.reference.elapsed), 2, "elapsed \(out.elapsed)")
        expectLess(abs(out.distance - Self.reference.distance) / Self.reference.distance, 0.01, "distance \(out.distance) vs \(Self.reference.distance)")
        expectGreaterOrEqual(out.accepted, Self.reference.accepted - 3)
    }

    /// A receiver whose clock stands still while its positions move (issue 27 item 12: 19 of 30
    /// fixes lost, no problem shown; then 0 of 600 kept, each given the one time): fixes 200-399,
    /// or every fix, at one receiver time. Placed by arrival: the same ride within 2 s and 1 %.
    @Test(arguments: [200..<400, 0..<600] as [Range<Int>])
    func aFrozenReceiverClock(frozen: Range<Int>) {
        let out = Self.ride { i, t in frozen.contains(i) ? Self.start + 2 + Double(frozen.lowerBound) : t }
        expectLess(abs(out.elapsed - Self.reference.elapsed), 2, "elapsed \(out.elapsed) vs \(Self.reference.elapsed)")
        expectGreaterOrEqual(out.accepted, Self.reference.accepted - 6, "accepted \(out.accepted) of \(Self.reference.accepted)")
        expectLess(abs(out.distance - Self.reference.distance) / Self.reference.distance, 0.01, "distance \(out.distance) vs \(Self.reference.distance)")
    }

    /// The frozen clock is shown while it lasts and forgotten once the time moves again.
    @Test func aFrozenClockIsShownUntilItsTimeMoves() {
        var clock = ReceiverClock()
        var problems: [String?] = []
        for k in 0..<10 {
            let placed = clock.place(receiverTime: Self.start, arrival: Self.start + Double(k))
            for case .problemChanged(let p) in placed.events { problems.append(p) }
            expectEqual(placed.placement, (k <= 3 ? .receiver : .arrival), "fix \(k)")
        }
        expectEqual(clock.problem?.contains("stands still"), true, "\(clock.problem ?? "none")")
        #expect(!clock.isTrusted)
        let resumed = clock.place(receiverTime: Self.start + 10, arrival: Self.start + 10)
        expectEqual(resumed.placement, .receiver)
        expectNil(clock.problem)
        expectEqual(problems.count, 1)
    }
}
