import Testing
@testable import WorkoutCore

@Suite struct TimeBucketsTests {
    @Test func eachSecondGoesToOneBucket() {
        var b = TimeBuckets(from: 100)
        b.account(until: 110, in: .moving)
        b.account(until: 115, in: .autoPaused)
        b.account(until: 112, in: .signalLost)  // earlier than accounted: adds nothing
        b.account(until: 120, in: .signalLost)
        b.account(until: 150, in: .userPaused)
        b.account(until: 151, in: .moving)
        expectEqual(b.moving, 11)
        expectEqual(b.autoPaused, 5)
        expectEqual(b.signalLost, 5)
        expectEqual(b.userPaused, 30)
        expectEqual(b.accountedUntil, 151)
        expectEqual(b.moving + b.autoPaused + b.signalLost + b.userPaused, 151 - 100)
    }

    @Test func phasesChooseTheirBucket() {
        expectEqual(RecorderPhase.acquiring.bucket, .signalLost)
        expectEqual(RecorderPhase.signalLost(since: 3).bucket, .signalLost)
        expectEqual(RecorderPhase.moving.bucket, .moving)
        expectEqual(RecorderPhase.paused(UserPause(since: 1, cause: .manual)).bucket, .userPaused)
        let stop = StopArea(at: Fix(time: 1, latitude: 48, longitude: 11), lastAccepted: nil)
        expectEqual(RecorderPhase.autoPaused(stop).bucket, .autoPaused)
    }
}
