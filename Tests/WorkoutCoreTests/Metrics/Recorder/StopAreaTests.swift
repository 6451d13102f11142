import Testing
@testable import WorkoutCore

@Suite struct StopAreaTests {
    let synth = TrackSynth(lat0: 48, lon0: 11)

    @Test func departureNeedsTwoFixesMovingAway() {
        var stop = StopArea(at: synth.fix(t: 0, north: 0, east: 0), lastAccepted: synth.fix(t: -1, north: 0, east: 0))
        stop.add(synth.fix(t: 1, north: 1, east: 0))
        // Inside the radius: no candidate.
        var departs = stop.confirmsDeparture(synth.fix(t: 2, north: 5, east: 0), radius: 20, speed: 1, lastEvidence: 1)
        #expect(!departs)
        expectNil(stop.candidate)
        // Beyond: a candidate, not yet a departure.
        departs = stop.confirmsDeparture(synth.fix(t: 3, north: 25, east: 0), radius: 20, speed: 1, lastEvidence: 2)
        #expect(!departs)
        expectEqual(stop.candidate?.before, 2)
        // Less than 1 s later: not confirmed.
        departs = stop.confirmsDeparture(synth.fix(t: 3.5, north: 40, east: 0), radius: 20, speed: 1, lastEvidence: 2)
        #expect(!departs)
        // Farther by speed x dt after >= 1 s: confirmed.
        departs = stop.confirmsDeparture(synth.fix(t: 5, north: 30, east: 0), radius: 20, speed: 1, lastEvidence: 2)
        #expect(departs)
    }

    @Test func aFixBackInsideCancelsTheCandidate() {
        var stop = StopArea(at: synth.fix(t: 0, north: 0, east: 0), lastAccepted: nil)
        _ = stop.confirmsDeparture(synth.fix(t: 1, north: 25, east: 0), radius: 20, speed: 1, lastEvidence: 0)
        expectNotNil(stop.candidate)
        _ = stop.confirmsDeparture(synth.fix(t: 2, north: 3, east: 0), radius: 20, speed: 1, lastEvidence: 0)
        expectNil(stop.candidate)
    }
}
