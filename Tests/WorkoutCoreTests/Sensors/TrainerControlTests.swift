import Testing
@testable import WorkoutCore

/// The trainer's control point played like a script: what the plan wants, the trainer's
/// answers, time; the exact writes after each.
@Suite struct TrainerControlTests {
    static func ok(_ opcode: UInt8) -> [UInt8] { [0x80, opcode, 0x01] }

    /// A trainer connected and controlled, holding `watts`.
    static func holding(_ watts: Int) -> TrainerControl {
        var t = TrainerControl()
        _ = t.connected(now: 0)
        _ = t.want(.power(watts), now: 0)
        _ = t.indicated(ok(0x00), now: 0.1)
        _ = t.indicated(ok(0x05), now: 0.2)
        return t
    }

    @Test func controlFirstThenThePower() {
        var t = TrainerControl()
        expectEqual(t.connected(now: 0), [], "nothing wanted: the trainer stays free")
        expectEqual(t.want(.power(250), now: 1), [.enableIndications, .write([0x00])])
        expectEqual(t.want(.power(260), now: 1.1), [], "one write at a time")
        expectEqual(t.indicated(Self.ok(0x00), now: 1.2), [.log(.controlTaken), .write([0x05, 0x04, 0x01])])
        expectEqual(t.indicated(Self.ok(0x05), now: 1.3), [.log(.targetSet(watts: 260))])
        expectEqual(t.phase, .controlled(applied: .power(260), pending: nil))
    }

    @Test func aRampNeverWritesFasterThanTheTrainerAnswers() {
        var t = Self.holding(200)
        expectEqual(t.want(.power(201), now: 1), [.write([0x05, 201, 0])])
        expectEqual(t.want(.power(202), now: 2), [])
        expectEqual(t.want(.power(203), now: 3), [])
        expectEqual(t.indicated(Self.ok(0x05), now: 3.1), [.log(.targetSet(watts: 201)), .write([0x05, 203, 0])], "the latest wanted, 202 skipped")
    }

    @Test func pauseStopsTheTrainerAndResumeStartsItBeforeThePower() {
        var t = Self.holding(250)
        expectEqual(t.want(.paused, now: 5), [.write([0x08, 0x02])])
        expectEqual(t.indicated(Self.ok(0x08), now: 5.1), [])
        expectEqual(t.want(.power(250), now: 9), [.write([0x07])])
        expectEqual(t.indicated(Self.ok(0x07), now: 9.1), [.write([0x05, 250, 0])])
    }

    @Test func aPausedTrainerUnderControlKeepsItsLinkAFreeOrAbsentOneDoesNot() {
        var t = Self.holding(250)
        #expect(!t.keepsLinkWhilePaused, "holding a power, not paused")
        _ = t.want(.paused, now: 5)
        #expect(t.keepsLinkWhilePaused, "Stop/Pause in flight: Start/Resume follows on the same link")
        _ = t.indicated(Self.ok(0x08), now: 5.1)
        #expect(t.keepsLinkWhilePaused)
        _ = t.disconnected(now: 6)
        #expect(!t.keepsLinkWhilePaused, "dropped out: nothing to keep")
        var away = TrainerControl()
        _ = away.want(.paused, now: 1)
        #expect(!away.keepsLinkWhilePaused, "never connected: the pause may close it")
    }

    @Test func freeResetsTheTrainer() {
        var t = Self.holding(250)
        expectEqual(t.want(.free, now: 5), [.write([0x01])])
        expectEqual(t.indicated(Self.ok(0x01), now: 5.1), [.log(.released)])
        expectEqual(t.phase, .idle)
        expectEqual(t.want(.power(180), now: 6), [.enableIndications, .write([0x00])], "control is asked again")
    }

    @Test func aRefusalIsAskedAgainAfterTheDelay() {
        var t = TrainerControl()
        _ = t.connected(now: 0)
        _ = t.want(.power(250), now: 0)
        expectEqual(t.indicated([0x80, 0x00, 0x05], now: 0.1), [.log(.refused(opcode: 0, reason: "control not permitted"))])
        expectEqual(t.tick(now: 1), [])
        expectEqual(t.tick(now: 2.1), [.enableIndications, .write([0x00])])
        expectEqual(t.indicated(Self.ok(0x00), now: 2.2), [.log(.controlTaken), .write([0x05, 250, 0])])
    }

    @Test func aWriteWithoutAnAnswerTimesOutAndControlIsTakenAgain() {
        var t = Self.holding(250)
        _ = t.want(.power(300), now: 10)
        expectEqual(t.tick(now: 11), [])
        expectEqual(t.tick(now: 12), [.log(.timedOut(opcode: 0x05)), .enableIndications, .write([0x00])])
        expectEqual(t.indicated(Self.ok(0x00), now: 12.5), [.log(.controlTaken), .write([0x05, 0x2C, 0x01])])
    }

    @Test func aDropoutAndAReturnTakeControlAgainAndSendTheTarget() {
        var t = Self.holding(250)
        expectEqual(t.disconnected(now: 20), [.log(.lost("the trainer dropped out"))])
        expectEqual(t.want(.power(260), now: 21), [], "absent: nothing to write to")
        expectEqual(t.connected(now: 25), [.enableIndications, .write([0x00])])
        expectEqual(t.indicated(Self.ok(0x00), now: 25.2), [.log(.controlTaken), .write([0x05, 0x04, 0x01])])
    }

    @Test func anUnsupportedTargetIsSaidOnceNotRetried() {
        var t = TrainerControl()
        _ = t.connected(now: 0)
        _ = t.want(.power(250), now: 0)
        _ = t.indicated(Self.ok(0x00), now: 0.1)
        expectEqual(t.indicated([0x80, 0x05, 0x03], now: 0.2), [.log(.writeFailed(opcode: 0x05, result: 3))])
        expectEqual(t.tick(now: 5), [])
    }

    @Test func answersOfAnEarlierControlAndNoiseAreIgnored() {
        var t = Self.holding(250)
        expectEqual(t.indicated(Self.ok(0x05), now: 1), [], "no write in flight")
        expectEqual(t.indicated([0x12, 0x00], now: 1), [.log(.unexpected([0x12, 0x00]))])
    }

    @Test func negativeAndHugePowersAreSentAsSint16() {
        expectEqual(TrainerControl.int16(-20), [0xEC, 0xFF])
        expectEqual(TrainerControl.int16(100_000), [0xFF, 0x7F])
    }

    /// Regression: a stop while a write was in flight left the trainer holding its power (the
    /// Reset waited for an answer that never came once the sensors closed).
    @Test func closingResetsAControlledTrainerEvenWithAWriteInFlight() {
        var t = Self.holding(250)
        expectEqual(t.want(.power(260), now: 5), [.write([0x05, 0x04, 0x01])])
        expectEqual(t.closed(), [.write([0x01])])
        expectEqual(t.phase, .absent)
        expectEqual(t.want, .power(260), "kept for the next connection")
        var free = TrainerControl()
        _ = free.connected(now: 0)
        expectEqual(free.closed(), [], "a trainer never controlled is not written to")
    }
}
