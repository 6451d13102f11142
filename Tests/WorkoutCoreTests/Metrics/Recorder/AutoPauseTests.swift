import Testing
@testable import WorkoutCore

/// The auto-pause machine alone: a run's stop is due after the delay without movement, its time
/// goes to the auto-paused bucket, a departure ends it, and a pause, a resume and a signal loss
/// move the phase as docs/metrics.md says.
@Suite struct AutoPauseTests {
    let synth = TrackSynth()
    /// A run: 0.5 m/s auto-pause speed, 5 s delay.
    func runner(at start: Double = 0) -> AutoPause {
        AutoPause(startedAt: start, supportsGPS: true, speed: 0.5, delay: 5)
    }

    @Test func aGPSActivityAcquiresAnIndoorOneMoves() {
        #expect(runner().phase.bucket == .signalLost)
        #expect(AutoPause(startedAt: 0, supportsGPS: false, speed: nil, delay: 5).phase.bucket == .moving)
        #expect(runner().isEnabled)
        #expect(!AutoPause(startedAt: 0, supportsGPS: true, speed: 0.5, delay: nil).isEnabled)
        #expect(!AutoPause(startedAt: 0, supportsGPS: false, speed: 0.5, delay: 5).isEnabled)
    }

    @Test func theFirstFixStartsMovingAndTheAcquiringTimeIsSignalLost() {
        var m = runner()
        expectEqual(m.start(synth.fix(t: 3, north: 0, east: 0)), .acquired)
        #expect(m.phase.bucket == .moving)
        expectEqual(m.time.signalLost, 3)
        expectEqual(m.lastMove, 3)
        expectNil(m.start(synth.fix(t: 4, north: 0, east: 2)), "already moving")
    }

    @Test func standingStillForTheDelayIsAStopDatedAtTheLastMovement() {
        var m = runner()
        _ = m.start(synth.fix(t: 0, north: 0, east: 0))
        m.moved(synth.fix(t: 10, north: 0, east: 20))
        expectEqual(m.stationary(synth.fix(t: 14, north: 0, east: 20), radius: 0), false, "4 s < the 5 s delay")
        expectEqual(m.stationary(synth.fix(t: 15, north: 0, east: 20), radius: 0), true)
        expectEqual(m.beginStop(at: synth.fix(t: 15, north: 0, east: 20), fallback: nil), 10)
        #expect(m.phase.isAutoPaused)
        expectEqual(m.time.moving, 10)
        // A larger stationary radius waits for radius / speed.
        var n = runner()
        _ = n.start(synth.fix(t: 0, north: 0, east: 0))
        expectEqual(n.stopDelay(radius: 10), 20)
        #expect(!n.stopIsDue(at: 19, radius: 10))
        #expect(n.stopIsDue(at: 20, radius: 10))
    }

    @Test func movementIsMeasuredFromWhereItWasLastShown() {
        var m = runner()
        _ = m.start(synth.fix(t: 0, north: 0, east: 0))
        // 0.5 m/s x max(5 s, dt): 2 m in 4 s is no movement, 3 m is.
        #expect(!m.showsMovement(synth.fix(t: 4, north: 0, east: 2)))
        #expect(m.showsMovement(synth.fix(t: 4, north: 0, east: 3)))
        // A long gap between fixes a few metres apart is no movement either.
        #expect(!m.showsMovement(synth.fix(t: 60, north: 0, east: 20)))
    }

    @Test func aConfirmedDepartureEndsTheStopAtTheDeparture() {
        var m = runner()
        _ = m.start(synth.fix(t: 0, north: 0, east: 0))
        expectEqual(m.stationary(synth.fix(t: 5, north: 0, east: 0), radius: 0), true)
        _ = m.beginStop(at: synth.fix(t: 5, north: 0, east: 0), fallback: nil)
        expectEqual(m.stationary(synth.fix(t: 30, north: 0, east: 0), radius: 0), false, "inside the stop: evidence only")
        expectEqual(m.lastEvidence, 30)
        expectEqual(m.confirmsDeparture(synth.fix(t: 40, north: 0, east: 25), radius: 20), false, "a candidate")
        expectEqual(m.confirmsDeparture(synth.fix(t: 42, north: 0, east: 35), radius: 20), true)
        guard case .resumed(let at)? = m.start(synth.fix(t: 42, north: 0, east: 35)) else {
            Issue.record("not resumed: \(m.phase)")
            return
        }
        #expect(at > 30 && at <= 40, "dated by the departure, not the confirming fix: \(at)")
        expectEqual(m.time.autoPaused, at - 0)
        expectEqual(m.time.moving + m.time.autoPaused, 42)
    }

    @Test func aSignalLossIsDatedAtTheLastUsableFixAndClosesAStop() {
        var m = runner()
        expectNil(m.signalLoss(at: 100, timeout: 10), "no signal yet to lose")
        _ = m.start(synth.fix(t: 0, north: 0, east: 0))
        m.evidence(at: 20)
        expectNil(m.signalLoss(at: 30, timeout: 10))
        expectEqual(m.signalLoss(at: 31, timeout: 10), 20)
        expectEqual(m.loseSignal(at: 20), false)
        expectEqual(m.start(synth.fix(t: 50, north: 0, east: 0)), .regained(at: 50))
        expectEqual(m.time.signalLost, 30)
        expectEqual(m.stationary(synth.fix(t: 55, north: 0, east: 0), radius: 0), true)
        _ = m.beginStop(at: synth.fix(t: 55, north: 0, east: 0), fallback: nil)
        expectEqual(m.loseSignal(at: 70), true, "the stop is closed by the loss")
    }

    @Test func aPauseKeepsASignalLossForTheResume() {
        var m = runner()
        _ = m.start(synth.fix(t: 0, north: 0, east: 0))
        _ = m.loseSignal(at: 10)
        let ended = m.pause(at: 20, cause: .manual)
        #expect(ended.bucket == .signalLost)
        guard let pause = m.phase.userPause else { Issue.record("not paused"); return }
        expectEqual(pause.signalLostSince, 10)
        m.resume(pause, at: 50)
        guard case .signalLost(let since) = m.phase else { Issue.record("not without signal: \(m.phase)"); return }
        expectEqual(since, 10)
        expectEqual(m.time.userPaused, 30)
        expectEqual(m.lastMove, 50)
        // Without a loss, a resume acquires again; an indoor activity moves.
        var n = runner()
        let p = n.pause(at: 5, cause: .manual)
        #expect(p.bucket == .signalLost)
        n.resume(n.phase.userPause!, at: 6)
        #expect(n.phase.bucket == .signalLost && !n.phase.hasSignal)
        var indoor = AutoPause(startedAt: 0, supportsGPS: false, speed: nil, delay: nil)
        _ = indoor.pause(at: 5, cause: .manual)
        indoor.resume(indoor.phase.userPause!, at: 6)
        #expect(indoor.phase.bucket == .moving)
    }

    @Test func turningAutoPauseOffEndsAStop() {
        var m = runner()
        _ = m.start(synth.fix(t: 0, north: 0, east: 0))
        _ = m.beginStop(at: synth.fix(t: 5, north: 0, east: 0), fallback: nil)
        expectNil(m.endStopIfDisabled(at: 20), "still on")
        m.delay = nil
        expectEqual(m.endStopIfDisabled(at: 20), 20)
        #expect(m.phase.bucket == .moving)
        expectEqual(m.time.autoPaused, 20)
        expectNil(m.endStopIfDisabled(at: 30), "no stop to end")
    }
}
