import Testing
@testable import WorkoutCore

/// The plan machine played like a script: events in, the exact actions out.
@Suite struct PlanMachineTests {
    static let plan = Plan(name: "test", steps: [
        PlanStep(kind: .warmup, length: .seconds(60), target: .powerRamp(from: 100, to: 160),
                 prompts: [.init(offset: 0, text: "Easy"), .init(offset: 30, text: "Halfway")]),
        PlanStep(kind: .work, length: .seconds(120), target: .power(low: 250, high: 250)),
        PlanStep(kind: .recovery, length: .meters(500)),
        PlanStep(kind: .cooldown, length: .open, target: .heartRate(low: 100, high: 120)),
    ])

    @Test func startsTheFirstStepWithItsPowerAndPrompt() {
        var m = PlanMachine(plan: Self.plan)
        expectEqual(m.start(at: 1000, distance: 0), [.stepStarted(step: 0), .setPower(watts: 100), .prompt("Easy")])
        expectEqual(m.stepIndex, 0)
    }

    @Test func aRampMovesEverySecondAndItsPromptComesOnTime() {
        var m = PlanMachine(plan: Self.plan)
        _ = m.start(at: 1000, distance: 0)
        expectEqual(m.tick(at: 1001, distance: 3), [.setPower(watts: 101)])
        expectEqual(m.tick(at: 1001.4, distance: 4), [], "the same whole watt is not sent again")
        expectEqual(m.tick(at: 1030, distance: 90), [.prompt("Halfway"), .setPower(watts: 130)])
    }

    @Test func aTimedStepEndsAtItsTimeEvenWhenTheTickIsLate() {
        var m = PlanMachine(plan: Self.plan)
        _ = m.start(at: 1000, distance: 0)
        // 2.5 s late: the work step began at 1060, not at 1062.5; the warm-up's prompt comes first.
        expectEqual(m.tick(at: 1062.5, distance: 200),
                    [.prompt("Halfway"), .closeLap(step: 0, ended: .completed), .stepStarted(step: 1), .setPower(watts: 250)])
        let s = m.status(at: 1062.5, distance: 200)
        expectEqual(s?.remainingSeconds, 117.5)
        expectEqual(s?.watts, 250)
    }

    @Test func pauseFreezesTheStepAndResumeSendsThePowerAgain() {
        var m = PlanMachine(plan: Self.plan)
        _ = m.start(at: 1000, distance: 0)
        _ = m.tick(at: 1060, distance: 200)
        expectEqual(m.pause(at: 1100), [.pauseTrainer])
        expectEqual(m.tick(at: 1500, distance: 200), [], "paused: time does not move the plan")
        expectEqual(m.status(at: 1500, distance: 200)?.remainingSeconds, 80)
        expectEqual(m.resume(at: 1500, distance: 200), [.setPower(watts: 250)])
        expectEqual(m.tick(at: 1579, distance: 400), [])
        expectEqual(m.tick(at: 1580, distance: 410), [.closeLap(step: 1, ended: .completed), .stepStarted(step: 2), .releaseTrainer])
    }

    @Test func aDistanceStepEndsAtItsDistance() {
        var m = PlanMachine(plan: Self.plan)
        _ = m.start(at: 0, distance: 0)
        _ = m.tick(at: 180, distance: 1000)
        expectEqual(m.stepIndex, 2)
        expectEqual(m.tick(at: 250, distance: 1499), [])
        expectEqual(m.status(at: 250, distance: 1499)?.remainingMeters, 1)
        expectEqual(m.tick(at: 260, distance: 1502), [.closeLap(step: 2, ended: .completed), .stepStarted(step: 3)])
    }

    @Test func anOpenStepEndsOnlyWithNextAndTheLastStepFinishesThePlan() {
        var m = PlanMachine(plan: Self.plan)
        _ = m.start(at: 0, distance: 0)
        _ = m.tick(at: 180, distance: 1000)
        _ = m.tick(at: 300, distance: 1500)
        expectEqual(m.tick(at: 100_000, distance: 90_000), [], "open: neither time nor distance ends it")
        expectEqual(m.next(at: 100_001, distance: 90_000), [.closeLap(step: 3, ended: .pressed), .finished(.completed)])
        expectEqual(m.end, .completed)
        expectEqual(m.next(at: 100_002, distance: 90_000), [], "after the end: an expected race")
    }

    @Test func nextEndsAStepEarlyAndTheNextBeginsNow() {
        var m = PlanMachine(plan: Self.plan)
        _ = m.start(at: 0, distance: 0)
        expectEqual(m.next(at: 10, distance: 30), [.closeLap(step: 0, ended: .pressed), .stepStarted(step: 1), .setPower(watts: 250)])
        expectEqual(m.status(at: 10, distance: 30)?.remainingSeconds, 120)
    }

    @Test func nextWhilePausedMovesOnButStaysPaused() {
        var m = PlanMachine(plan: Self.plan)
        _ = m.start(at: 0, distance: 0)
        _ = m.next(at: 10, distance: 30)
        _ = m.pause(at: 20)
        expectEqual(m.next(at: 25, distance: 60), [.closeLap(step: 1, ended: .pressed), .stepStarted(step: 2), .releaseTrainer])
        expectEqual(m.status(at: 25, distance: 60)?.phase, .paused)
        expectEqual(m.tick(at: 9999, distance: 99_999), [])
    }

    @Test func stopEndsThePlanAndFreesTheTrainer() {
        var m = PlanMachine(plan: Self.plan)
        _ = m.start(at: 0, distance: 0)
        expectEqual(m.stop(at: 5), [.closeLap(step: 0, ended: .stopped), .finished(.stopped)])
        expectEqual(m.end, .stopped)
        expectEqual(m.stop(at: 6), [])
        expectEqual(m.tick(at: 7, distance: 0), [])
    }

    @Test func aLateTickEndsEveryStepItPassed() {
        let plan = Plan(name: "short", steps: (0..<5).map { _ in PlanStep(kind: .work, length: .seconds(10), target: .power(low: 200, high: 200)) })
        var m = PlanMachine(plan: plan)
        _ = m.start(at: 0, distance: 0)
        let actions = m.tick(at: 35, distance: 0)
        expectEqual(actions.filter { if case .closeLap = $0 { return true }; return false }.count, 3)
        expectEqual(m.stepIndex, 3)
        expectEqual(m.status(at: 35, distance: 0)?.remainingSeconds, 5)
    }

    /// Any sequence of ticks, pauses, resumes, `next` presses and distance: the steps begin in
    /// order, each once, none skipped; each closes its lap once, in order; every power asked is
    /// the plan's own for the step in progress.
    @Test(arguments: 0..<40) func anySequenceKeepsTheStepsInOrder(seed: UInt64) {
        var rng = SeededRandom(seed: seed &+ 17)
        func roll(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        var steps: [PlanStep] = []
        for _ in 0..<(1 + roll(8)) {
            let length: PlanStep.Length = [PlanStep.Length.seconds(Double(5 + roll(60))), .meters(Double(10 + roll(300))), .open][roll(3)]
            let target: PlanTarget = [PlanTarget.none, .power(low: 200, high: 220), .cadence(low: 85, high: 95)][roll(3)]
            steps.append(PlanStep(kind: .work, length: length, target: target))
        }
        if case .seconds(let s) = steps[0].length { steps[0].target = .powerRamp(from: 100, to: 100 + s) }
        var m = PlanMachine(plan: Plan(name: "random", steps: steps))
        var now = 0.0, distance = 0.0
        var begun: [Int] = [], closed: [(Int, StepEnd)] = []
        var paused = false
        func take(_ actions: [PlanAction]) {
            for a in actions {
                switch a {
                case .stepStarted(let i): begun.append(i)
                case .closeLap(let i, let end): closed.append((i, end))
                case .setPower(let w):
                    let i = m.stepIndex ?? 0
                    if case .power(let low, let high) = steps[i].target { expectEqual(Double(w), (low + high) / 2) }
                    else if case .powerRamp(let from, let to) = steps[i].target { #expect(Double(w) >= min(from, to) && Double(w) <= max(from, to)) }
                    else { Issue.record("power \(w) W asked in step \(i), which has no power target") }
                case .releaseTrainer, .pauseTrainer, .prompt, .finished: break
                }
            }
        }
        take(m.start(at: now, distance: distance))
        for _ in 0..<200 {
            switch roll(10) {
            case 0: take(m.next(at: now, distance: distance))
            case 1: if paused { take(m.resume(at: now, distance: distance)) } else { take(m.pause(at: now)) }; paused.toggle()
            default:
                now += Double(roll(7))
                if !paused { distance += Double(roll(30)) }
                take(m.tick(at: now, distance: distance))
            }
        }
        take(m.stop(at: now))
        expectEqual(begun, Array(0..<begun.count), "steps begin in order, each once")
        expectEqual(closed.map(\.0), Array(0..<closed.count), "laps close in order, each once")
        expectEqual(closed.count, begun.count)
        #expect(m.end != nil)
    }

    /// docs/plans.md, "Worked example", step by step.
    @Test func theDocsWorkedExample() throws {
        let json = """
            {"name": "3 x 20 at threshold", "steps": [
              {"kind": "warmup", "seconds": 600, "ramp": {"ftp": [0.5, 0.75]}},
              {"repeat": 3, "steps": [
                {"kind": "work", "seconds": 1200, "power": {"ftp": 0.95}, "prompts": [{"at": 0, "text": "Hold it"}]},
                {"kind": "recovery", "seconds": 300, "power": {"watts": [140, 160]}}]},
              {"kind": "work", "meters": 2000, "heartRate": [140, 150]},
              {"kind": "cooldown", "open": true}]}
            """
        let plan = try PlanDecoder.decode(Array(json.utf8), ftpWatts: 300)
        expectEqual(plan.steps.count, 9)
        var m = PlanMachine(plan: plan)
        expectEqual(m.start(at: 0, distance: 0), [.stepStarted(step: 0), .setPower(watts: 150)])
        expectEqual(m.tick(at: 300, distance: 900), [.setPower(watts: 188)])
        expectEqual(m.tick(at: 600, distance: 1800),
                    [.closeLap(step: 0, ended: .completed), .stepStarted(step: 1), .setPower(watts: 285), .prompt("Hold it")])
        expectEqual(m.pause(at: 900), [.pauseTrainer])
        expectEqual(m.resume(at: 1500, distance: 2700), [.setPower(watts: 285)])
        expectEqual(m.status(at: 1500, distance: 2700)?.remainingSeconds, 900)
        expectEqual(m.next(at: 1600, distance: 3000), [.closeLap(step: 1, ended: .pressed), .stepStarted(step: 2), .setPower(watts: 150)])
        for i in 2..<7 { _ = m.next(at: 1600 + Double(i), distance: 3000); expectEqual(m.stepIndex, i + 1) }
        expectEqual(m.stepIndex, 7)
        expectEqual(m.tick(at: 2000, distance: 4999), [])
        expectEqual(m.tick(at: 2001, distance: 5000), [.closeLap(step: 7, ended: .completed), .stepStarted(step: 8)])
        expectEqual(m.tick(at: 9000, distance: 9000), [])
        expectEqual(m.stop(at: 9001), [.closeLap(step: 8, ended: .stopped), .finished(.stopped)])
    }

    /// Heart rate, cadence and speed targets are the rider's: a value out of range for 10 s is
    /// prompted, again each minute while it stays out; back in range the count starts again;
    /// nothing without a measure, on a power step, or while paused.
    @Test func aTargetMissedFor10SecondsPromptsTheRider() {
        var m = PlanMachine(plan: Plan(name: "HR", steps: [
            PlanStep(kind: .work, length: .seconds(600), target: .heartRate(low: 140, high: 150)),
            PlanStep(kind: .work, length: .seconds(600), target: .power(low: 200, high: 200)),
        ]))
        _ = m.start(at: 0, distance: 0)
        #expect(m.wantsMeasures)
        expectEqual(m.measured(heartRate: 145, cadence: nil, speed: nil, at: 1), [])
        expectEqual(m.measured(heartRate: nil, cadence: 90, speed: 3, at: 2), [], "no heart rate: nothing to judge")
        expectEqual(m.measured(heartRate: 162, cadence: nil, speed: nil, at: 3), [])
        expectEqual(m.measured(heartRate: 162, cadence: nil, speed: nil, at: 12.9), [])
        expectEqual(m.measured(heartRate: 162.4, cadence: nil, speed: nil, at: 13), [.prompt("Heart rate 162 bpm: above the step's 140-150 bpm")])
        expectEqual(m.measured(heartRate: 165, cadence: nil, speed: nil, at: 50), [])
        expectEqual(m.measured(heartRate: 165, cadence: nil, speed: nil, at: 73), [.prompt("Heart rate 165 bpm: above the step's 140-150 bpm")])
        expectEqual(m.measured(heartRate: 148, cadence: nil, speed: nil, at: 74), [])
        expectEqual(m.measured(heartRate: 130, cadence: nil, speed: nil, at: 75), [])
        _ = m.pause(at: 80)
        expectEqual(m.measured(heartRate: 130, cadence: nil, speed: nil, at: 90), [], "paused")
        _ = m.resume(at: 100, distance: 0)
        expectEqual(m.measured(heartRate: 130, cadence: nil, speed: nil, at: 100), [], "counted again from the resume")
        expectEqual(m.measured(heartRate: 130, cadence: nil, speed: nil, at: 110), [.prompt("Heart rate 130 bpm: below the step's 140-150 bpm")])
        _ = m.next(at: 101, distance: 0)
        #expect(!m.wantsMeasures, "a power step")
        expectEqual(m.measured(heartRate: 100, cadence: nil, speed: nil, at: 200), [])
    }

    @Test func cadenceAndSpeedTargetsSayTheirFigures() {
        var c = PlanMachine(plan: Plan(name: "C", steps: [PlanStep(kind: .work, length: .open, target: .cadence(low: 85, high: 95))]))
        _ = c.start(at: 0, distance: 0)
        _ = c.measured(heartRate: nil, cadence: 70, speed: nil, at: 0)
        expectEqual(c.measured(heartRate: nil, cadence: 70, speed: nil, at: 10), [.prompt("Cadence 70 per minute: below the step's 85-95 per minute")])
        var v = PlanMachine(plan: Plan(name: "V", steps: [PlanStep(kind: .work, length: .open, target: .speed(low: 3, high: 3.5))]))
        _ = v.start(at: 0, distance: 0)
        _ = v.measured(heartRate: nil, cadence: nil, speed: 4, at: 0)
        expectEqual(v.measured(heartRate: nil, cadence: nil, speed: 4, at: 10), [.prompt("Speed 14.4 km/h: above the step's 10.8-12.6 km/h")])
    }
}
