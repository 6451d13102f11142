import Testing
@testable import WorkoutCore

/// The plan in the journal: its records read back, and the machine a restart goes on with.
@Suite struct PlanJournalTests {
    static let plan = Plan(name: "Three", steps: [
        PlanStep(kind: .warmup, length: .seconds(60), target: .powerRamp(from: 100, to: 200)),
        PlanStep(kind: .work, length: .seconds(120), target: .power(low: 250, high: 260),
                 prompts: [.init(offset: 5, text: "Go"), .init(offset: 90, text: "Last half minute")]),
        PlanStep(kind: .cooldown, length: .open, target: .heartRate(low: 110, high: 120)),
    ])

    @Test func planRecordsReadBackFromTheirJournalLines() throws {
        for record: JournalRecord in [.plan(time: 1_795_000_000.5, plan: Self.plan),
                                      .planStep(time: 1_795_000_060.25, index: 1, distance: 512.5, timer: 60, laps: 1)] {
            let line = record.encodeLine()
            expectEqual(JournalRecord.decodeLine(Substring(line.dropLast())), record, "\(line)")
        }
        // A plan the journal cannot hold as a plan (a step out of range) is a bad record.
        let bad = JournalRecord.plan(time: 0, plan: Plan(name: "x", steps: [PlanStep(kind: .work, length: .seconds(60), target: .power(low: 9000, high: 9000))]))
        expectNil(JournalRecord.decodeLine(Substring(bad.encodeLine().dropLast())))
    }

    @Test func aRestartGoesOnInTheStepItWasInWithItsRunningTime() throws {
        let records: [JournalRecord] = [
            .started(id: WorkoutID(rawValue: "20261129T080000Z-0001")!, activity: .indoorCycling, time: 1000),
            .plan(time: 1000, plan: Self.plan),
            .planStep(time: 1000, index: 0, distance: 0, timer: 0, laps: 0),
            .lap(time: 1060),
            .planStep(time: 1060, index: 1, distance: 800, timer: 60, laps: 1),
            .planStep(time: 1061, index: 5, distance: 0, timer: 0, laps: 0),  // out of order: left out
            .shifted(by: 2),
        ]
        let j = try #require(PlanJournal(records: records))
        expectEqual(j.firstLaps, [0, 1])
        expectEqual(j.steps[1].time, 1062, "moved by the shift")
        // 100 s of running time: 40 s into the work step, paused until the workout runs.
        var m = j.machine(at: 2000, timer: 100)
        expectEqual(m.stepIndex, 1)
        let paused = try #require(m.status(at: 2000, distance: 900))
        expectEqual(paused.phase, .paused)
        expectEqual(paused.remainingSeconds, 80)
        // The resume asks the trainer for the step's power; the first prompt was shown before.
        expectEqual(m.resume(at: 2000, distance: 900), [.setPower(watts: 255)])
        expectEqual(m.tick(at: 2050, distance: 900), [.prompt("Last half minute")])
        expectEqual(m.tick(at: 2080, distance: 900), [.closeLap(step: 1, ended: .completed), .stepStarted(step: 2), .releaseTrainer])
    }

    @Test func aPlanDoneStaysDoneAndNoPlanIsNone() throws {
        let done = try #require(PlanJournal(records: [.plan(time: 0, plan: Self.plan),
                                                      .planStep(time: 0, index: 0, distance: 0, timer: 0, laps: 0),
                                                      .planStep(time: 60, index: 1, distance: 0, timer: 60, laps: 1),
                                                      .planStep(time: 180, index: 2, distance: 0, timer: 180, laps: 2),
                                                      .planStep(time: 200, index: 3, distance: 0, timer: 0, laps: 3)]))
        expectEqual(done.progress, .done)
        expectEqual(done.machine(at: 300, timer: 300).end, .completed)
        expectEqual(done.outcome(laps: []).steps.count, 3)
        expectNil(PlanJournal(records: [.lap(time: 5)]))
        expectNil(PlanJournal(records: [.plan(time: 0, plan: Self.plan)]), "no step begun")
    }
}
