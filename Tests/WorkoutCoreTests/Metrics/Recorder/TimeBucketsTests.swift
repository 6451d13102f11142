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
        #expect(b.moving == 11)
        #expect(b.autoPaused == 5)
        #expect(b.signalLost == 5)
        #expect(b.userPaused == 30)
        #expect(b.accountedUntil == 151)
        #expect(b.moving + b.autoPaused + b.signalLost + b.userPaused == 151 - 100)
    }

    @Test func phasesChooseTheirBucket() {
        #expect(RecorderPhase.acquiring.bucket == .signalLost)
        #expect(RecorderPhase.signalLost(since: 3).bucket == .signalLost)
        #expect(RecorderPhase.moving.bucket == .moving)
        #expect(RecorderPhase.paused(UserPause(since: 1, cause: .manual)).bucket == .userPaused)
        let stop = StopArea(at: Fix(time: 1, latitude: 48, longitude: 11), lastAccepted: nil)
        #expect(RecorderPhase.autoPaused(stop).bucket == .autoPaused)
    }
}
