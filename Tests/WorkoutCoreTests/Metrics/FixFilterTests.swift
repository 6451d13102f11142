import Testing
@testable import WorkoutCore

@Suite struct FixFilterTests {
    let synth = TrackSynth()

    func warmed(_ activity: ActivityType = .running) -> FixFilter {
        var f = FixFilter(activity: activity, settings: MetricsSettings(), startedAt: 0)
        for i in 0..<3 { _ = f.evaluate(synth.fix(t: Double(i + 1), north: 0, east: Double(i) * 3)) }
        return f
    }

    @Test func staticGates() {
        let s = MetricsSettings()
        expectEqual(FixFilter.qualityRejection(Fix(time: 1, latitude: 0, longitude: 0), settings: s), .nullIsland)
        expectEqual(FixFilter.qualityRejection(Fix(time: 1, latitude: 91, longitude: 0), settings: s), .invalidPosition)
        expectEqual(FixFilter.qualityRejection(Fix(time: 1, latitude: .nan, longitude: 0), settings: s), .invalidPosition)
        expectEqual(FixFilter.qualityRejection(Fix(time: 1, latitude: 10, longitude: 181), settings: s), .invalidPosition)
        expectEqual(FixFilter.qualityRejection(Fix(time: .nan, latitude: 10, longitude: 10), settings: s), .outOfOrder)
        expectEqual(FixFilter.qualityRejection(Fix(time: 1, latitude: 10, longitude: 10, mode: .noFix), settings: s), .noFix)
        var s3 = s; s3.minimumFixMode = .threeD
        expectEqual(FixFilter.qualityRejection(Fix(time: 1, latitude: 10, longitude: 10, mode: .twoD), settings: s3), .noFix)
        expectEqual(FixFilter.qualityRejection(Fix(time: 1, latitude: 10, longitude: 10, horizontalAccuracy: 51), settings: s), .lowAccuracy)
        expectEqual(FixFilter.qualityRejection(Fix(time: 1, latitude: 10, longitude: 10, horizontalAccuracy: .nan), settings: s), .lowAccuracy)
        expectNil(FixFilter.qualityRejection(Fix(time: 1, latitude: 10, longitude: 10, horizontalAccuracy: 50), settings: s))
        expectNil(FixFilter.qualityRejection(Fix(time: 1, latitude: 10, longitude: 10), settings: s))
    }

    @Test func warmUpDiscardsCachedFirstFix() {
        var f = FixFilter(activity: .running, settings: MetricsSettings(), startedAt: 0)
        expectEqual(f.evaluate(synth.fix(t: 1, north: 2000, east: 0)), .rejected(.warmUp))  // cached, 2 km away
        expectEqual(f.evaluate(synth.fix(t: 2, north: 0, east: 0)), .rejected(.warmUp))
        expectEqual(f.evaluate(synth.fix(t: 3, north: 0, east: 3)), .rejected(.warmUp))
        expectEqual(f.evaluate(synth.fix(t: 4, north: 0, east: 6)), .accepted(distance: 0, newSegment: true))
        if case .accepted(let d, false) = f.evaluate(synth.fix(t: 5, north: 0, east: 12)) {
            expectLess(Swift.abs(d - 6), 0.05)
        } else { Issue.record("expected an accepted fix") }
    }

    /// A geodesic measured before (an import's first pass) is taken for its own pair of
    /// positions only: the same decision and the same measured pair; another pair is ignored.
    @Test func aKnownDistanceIsTakenForItsOwnPairOnly() {
        let fix = synth.fix(t: 4, north: 0, east: 12)
        let anchor = FixFilter.Position(synth.fix(t: 3, north: 0, east: 6))  // `warmed`'s last
        var measuring = warmed(), given = warmed(), other = warmed(), wrong = warmed()
        let decision = measuring.evaluate(fix)
        expectEqual(given.evaluate(fix, known: .measure(anchor, FixFilter.Position(fix))), decision)
        expectEqual(given.lastMeasured, measuring.lastMeasured)
        let elsewhere = FixFilter.Position(synth.fix(t: 3, north: 1, east: 6))
        expectEqual(other.evaluate(fix, known: MeasuredPair(elsewhere, FixFilter.Position(fix), meters: 1e6)), decision)
        expectEqual(other.lastMeasured, measuring.lastMeasured)
        // Its own pair's figure is believed as given (so the caller must give the geodesic's).
        expectEqual(wrong.evaluate(fix, known: MeasuredPair(anchor, FixFilter.Position(fix), meters: 0)), .rejected(.stationaryJitter))
    }

    @Test func outOfOrderAndDuplicates() {
        var f = warmed()
        expectEqual(f.evaluate(synth.fix(t: 3, north: 0, east: 20)), .rejected(.outOfOrder))
        expectEqual(f.evaluate(synth.fix(t: 2.5, north: 0, east: 20)), .rejected(.outOfOrder))
        var g = FixFilter(activity: .running, settings: MetricsSettings(), startedAt: 100)
        expectEqual(g.evaluate(synth.fix(t: 99, north: 0, east: 0)), .rejected(.outOfOrder))
    }

    @Test func singleJumpIsTooFastAndAddsNothing() {
        var f = warmed()
        expectEqual(f.evaluate(synth.fix(t: 4, north: 5000, east: 0)), .rejected(.tooFast))
        if case .accepted(let d, false) = f.evaluate(synth.fix(t: 5, north: 0, east: 12)) {
            expectLess(d, 7)
        } else { Issue.record("the track must continue after a one-fix jump") }
    }

    @Test func persistentRelocationStartsNewSegment() {
        var f = warmed()
        expectEqual(f.evaluate(synth.fix(t: 4, north: 5000, east: 0)), .rejected(.tooFast))
        expectEqual(f.evaluate(synth.fix(t: 5, north: 5000, east: 3)), .rejected(.tooFast))
        expectEqual(f.evaluate(synth.fix(t: 6, north: 5000, east: 6)), .accepted(distance: 0, newSegment: true))
    }

    @Test func plausibleJumpBeyondThresholdStartsSegment() {
        var f = warmed(.cycling)
        // 250 m in 10 s (25 m/s) is plausible on a bike but beyond the 200 m jump threshold.
        expectEqual(f.evaluate(synth.fix(t: 13, north: 0, east: 256)), .accepted(distance: 0, newSegment: true))
    }

    @Test func speedCapComesFromActivity() {
        var walk = warmed(.walking)    // 4 m/s max
        var bike = warmed(.cycling)    // 27 m/s max
        let far = synth.fix(t: 13, north: 0, east: 6 + 150)  // 150 m in 10 s
        expectEqual(walk.evaluate(far), .rejected(.tooFast))
        if case .accepted = bike.evaluate(far) {} else { Issue.record("150 m in 10 s is a plausible ride") }
    }

    @Test func jitterRadiusWidensWithReportedAccuracy() {
        var f = warmed()
        expectEqual(f.evaluate(synth.fix(t: 4, north: 0, east: 6 + 4)), .rejected(.stationaryJitter))
        expectEqual(f.evaluate(synth.fix(t: 5, north: 0, east: 6 + 8, acc: 12)), .rejected(.stationaryJitter))
        if case .accepted = f.evaluate(synth.fix(t: 6, north: 0, east: 6 + 8, acc: 4)) {} else { Issue.record("8 m with 4 m accuracy is movement") }
    }

    @Test func restartWithWarmUpNeedsConsistentFixesAgain() {
        var f = warmed()
        f.restart(warmUp: true)
        // Far from where the track was (2 km in 27 s): a new warm-up is needed.
        expectEqual(f.evaluate(synth.fix(t: 30, north: 2000, east: 100)), .rejected(.warmUp))
        expectEqual(f.evaluate(synth.fix(t: 31, north: 2000, east: 103)), .rejected(.warmUp))
        expectEqual(f.evaluate(synth.fix(t: 32, north: 2000, east: 106)), .accepted(distance: 0, newSegment: true))
        f.restart(warmUp: false)
        expectEqual(f.evaluate(synth.fix(t: 33, north: 2000, east: 109)), .accepted(distance: 0, newSegment: true))
    }

    @Test func afterSignalLossAFixAgreeingWithTheTrackIsTrustedAtOnce() {
        var f = warmed()
        f.restart(warmUp: true)
        // 94 m in 27 s from the last accepted fix: plausible, no jump.
        expectEqual(f.evaluate(synth.fix(t: 30, north: 0, east: 100)), .accepted(distance: 0, newSegment: true))
    }
}
