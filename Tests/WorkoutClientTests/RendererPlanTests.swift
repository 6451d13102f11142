import Testing
import WorkoutCore
@testable import WorkoutClient

/// `status` of a workout that follows a plan: the step, its target (a ramp's power now), what is
/// left and the next step; `start --plan` and `next` parse.
@Suite struct RendererPlanTests {
    let r = Renderer(clock: .utc)

    static func status(plan: JSON) -> JSON {
        var s = RendererTests.status("active", workout: RendererTests.runSummary)
        if case .object(var o) = s { o["plan"] = plan; s = .object(o) }
        return s
    }

    @Test func aRampShowsThePowerNowAndTheNextStep() {
        let plan: JSON = ["name": "3 x 20", "stepIndex": 0, "stepCount": 9, "state": "running",
                          "step": ["kind": "warmup", "seconds": 600, "target": ["kind": "power_ramp", "from": 150, "to": 225, "watts": 188]],
                          "remainingSeconds": 300, "remainingMeters": nil,
                          "next": ["kind": "work", "seconds": 1200, "target": ["kind": "power", "low": 285, "high": 285, "watts": 285]]]
        let text = r.status(Self.status(plan: plan))
        #expect(text.contains("Plan:      3 x 20, step 1 of 9: warmup, 188 W (ramp to 225 W), 0:05:00 left"), "\(text)")
        #expect(text.contains("Next:      work, 285 W for 0:20:00"), "\(text)")
    }

    @Test func aDistanceStepAndTheLastStepDone() {
        let plan: JSON = ["name": "Runs", "stepIndex": 1, "stepCount": 2, "state": "completed",
                          "step": ["kind": "recovery", "open": true, "target": ["kind": "heart_rate", "low": 120, "high": 140]],
                          "remainingSeconds": nil, "remainingMeters": nil, "next": nil]
        let text = r.status(Self.status(plan: plan))
        #expect(text.contains("Plan:      Runs, step 2 of 2: recovery, heart rate 120-140 bpm (done)"), "\(text)")
        #expect(!text.contains("Next:"), "\(text)")
    }

    @Test func showListsEachStepsTargetBesideWhatWasDone() {
        var w = RendererTests.runSummary.objectValue!
        w["plan"] = ["name": "3 x 20", "stepCount": 9, "compliance": 91.4, "steps": [
            ["index": 0, "firstLap": 0, "laps": 1, "kind": "warmup", "target": ["kind": "power_ramp", "from": 150, "to": 225],
             "seconds": 600, "averagePower": 190, "compliance": 100],
            ["index": 1, "firstLap": 1, "laps": 1, "kind": "work", "target": ["kind": "power", "low": 285, "high": 285],
             "seconds": 1200, "averagePower": 250, "compliance": 87.7],
            ["index": 2, "firstLap": 2, "laps": 1, "kind": "recovery", "target": ["kind": "heart_rate", "low": 120, "high": 140],
             "seconds": 300, "averagePower": 140, "averageHeartRate": nil, "compliance": nil],
        ]]
        let text = r.show(["ok": true, "workout": .object(w), "events": []])
        #expect(text.contains("Plan: 3 x 20, 3 of 9 steps, compliance 91.4 %"), "\(text)")
        let rows = text.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(rows.contains("1 warm-up 150 to 225 W 190 W 10:00 100 %"), "\(rows)")
        #expect(rows.contains("2 work 285 W 250 W 20:00 88 %"), "\(rows)")
        #expect(rows.contains("3 recovery 120-140 bpm - 5:00 -"), "\(rows)")
        #expect(!r.show(["ok": true, "workout": RendererTests.runSummary, "events": []]).contains("Plan:"))
    }

    @Test func noPlanKeyNoLine() {
        #expect(!r.status(RendererTests.status("active", workout: RendererTests.runSummary)).contains("Plan:"))
    }

    @Test func startWithAPlanAndNextParse() {
        let parsed = try? ArgumentParser.parse(["start", "indoor_cycling", "--plan", "plans/3x20.zwo"], cwd: "/home/me").get()
        #expect(parsed?.command == .startPlan(.indoorCycling, path: "/home/me/plans/3x20.zwo"))
        #expect((try? ArgumentParser.parse(["next"], cwd: "/").get())?.command == .send(.next))
        #expect((try? ArgumentParser.parse(["next", "now"], cwd: "/").get()) == nil)
    }
}
