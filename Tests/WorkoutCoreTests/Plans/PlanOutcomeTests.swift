import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// What was done of a plan: each step's target beside what its laps measured, the compliance
/// score as docs/plans.md defines it, kept through JSON and carried by the FIT export's laps.
@Suite struct PlanOutcomeTests {
    static func lap(_ index: Int, seconds: Double, power: Int? = nil, heartRate: Int? = nil, meters: Double = 0) -> LapSummary {
        var l = LapSummary(index: index, trigger: .manual, startTime: 1_795_000_000 + Double(index) * 100, endTime: 1_795_000_000 + Double(index) * 100 + seconds,
                           elapsedSeconds: seconds, movingSeconds: seconds, distanceMeters: meters, averageHeartRate: heartRate)
        l.averagePower = power
        return l
    }

    static let plan = Plan(name: "Test", steps: [
        PlanStep(kind: .warmup, length: .seconds(100), target: .power(low: 140, high: 160)),
        PlanStep(kind: .work, length: .seconds(300), target: .power(low: 250, high: 250)),
        PlanStep(kind: .recovery, length: .seconds(100), target: .none),
        PlanStep(kind: .work, length: .meters(1000), target: .heartRate(low: 150, high: 160)),
        PlanStep(kind: .cooldown, length: .open, target: .power(low: 100, high: 100)),
    ])

    @Test func eachStepIsMeasuredOnItsLapsAndScoredByTheDocumentedFormula() {
        // Step 2 spans two laps (an automatic lap inside it); the plan stopped in step 4, which
        // had no heart rate; step 5 never began.
        var outcome = PlanOutcome(plan: Self.plan, firstLaps: [0, 1, 3, 4])
        outcome.measure([Self.lap(0, seconds: 100, power: 150), Self.lap(1, seconds: 100, power: 180), Self.lap(2, seconds: 200, power: 210),
                         Self.lap(3, seconds: 100, power: 90), Self.lap(4, seconds: 50, meters: 200)])
        expectEqual(outcome.steps.count, 4)
        expectEqual(outcome.stepCount, 5)
        expectEqual(outcome.steps[0].compliance, 100, "150 W inside 140-160 W")
        // (180 x 100 + 210 x 200) / 300 = 200 W against 250 W: 0.8.
        expectEqual(outcome.steps[1].laps, 2)
        expectEqual(outcome.steps[1].averagePower, 200)
        expectEqual(outcome.steps[1].seconds, 300)
        expectEqual(outcome.steps[1].compliance, 80)
        expectNil(outcome.steps[2].compliance, "no target: not scored")
        expectNil(outcome.steps[3].compliance, "no heart rate measured: not scored")
        expectEqual(outcome.steps[3].averageSpeed, 4)
        // Weighted by time: (1 x 100 + 0.8 x 300) / 400 = 85 %.
        expectEqual(outcome.compliance, 85)
    }

    @Test func aStepAboveItsTargetScoresTheTargetOverTheActual() {
        var outcome = PlanOutcome(plan: Plan(name: "Hard", steps: [PlanStep(kind: .work, length: .seconds(60), target: .power(low: 250, high: 250))]),
                                  firstLaps: [0])
        outcome.measure([Self.lap(0, seconds: 60, power: 300)])
        expectEqual(outcome.compliance, 83.3)
        outcome.measure([])
        expectNil(outcome.compliance, "no laps: nothing measured")
        expectEqual(outcome.steps[0].laps, 0)
    }

    @Test func theOutcomeReadsBackFromItsJSONAndFromTheSummary() throws {
        var outcome = PlanOutcome(plan: Self.plan, firstLaps: [0, 1, 3, 4])
        outcome.measure([Self.lap(0, seconds: 100, power: 150), Self.lap(1, seconds: 300, power: 240), Self.lap(3, seconds: 100, heartRate: 170)])
        expectEqual(PlanOutcome(json: try JSON.parse(Array(outcome.json().serialized().utf8))), outcome)
        var summary = WorkoutSummary(id: WorkoutID(rawValue: "20261129T080000Z-0001")!, activity: .indoorCycling, startedAt: 1_795_000_000)
        summary.plan = outcome
        var cache = SummaryJSONCache()
        var w = JSONWriter()
        summary.writeJSON(to: &w, cache: &cache)
        let text = String(decoding: w.bytes, as: UTF8.self)
        expectEqual(text, summary.json().serialized(), "the two writers agree")
        expectEqual(WorkoutSummary(json: try JSON.parse(Array(text.utf8)))?.plan, outcome)
        expectEqual(summary.json()["compliance"]?.doubleValue, outcome.compliance, "at the top level too")
        #expect(!WorkoutSummary(id: summary.id, activity: .running, startedAt: 0).json().serialized().contains("\"plan\""), "no plan, no key")
    }

    /// A plan of 10,000 steps would make an index line of megabytes: the index leaves the plan
    /// (like the laps) to the saved file.
    @Test func theIndexLeavesThePlanToTheSavedFile() {
        var summary = WorkoutSummary(id: WorkoutID(rawValue: "20261129T080000Z-0001")!, activity: .indoorCycling, startedAt: 1_795_000_000)
        summary.plan = PlanOutcome(plan: Self.plan, firstLaps: [0, 1])
        #expect(summary.json().serialized().contains("\"plan\""))
        #expect(!IndexRecord.put(IndexEntry(summary: summary, file: "20261129T080000Z-0001.json")).line.contains("\"plan\""))
    }

    @Test(.requires(.python(.garminFitSDK)))
    func theFITExportsLapsCarryTheStepIndex() throws {
        var w = FITWriterTests.titled()
        let s = w.summary.startedAt
        w.summary.laps = [0, 1, 2].map { k in
            var l = LapSummary(index: k, trigger: .manual, startTime: s + Double(k) * 40, endTime: s + Double(k + 1) * 40, elapsedSeconds: 40,
                               movingSeconds: 40, distanceMeters: 100)
            l.averagePower = 200
            return l
        }
        var outcome = PlanOutcome(plan: Self.plan, firstLaps: [0, 2])
        outcome.measure(w.summary.laps)
        w.summary.plan = outcome
        let sdk = try FITPlanDecoderTests.sdkDecode(FITWriter.write(w))
        expectEqual(sdk["laps"] as? [Int], [0, 0, 1], "laps 1 and 2 belong to step 1, lap 3 to step 2 (from 0)")
        // Without a plan no lap has the field.
        let plain = try FITPlanDecoderTests.sdkDecode(FITWriter.write(FITWriterTests.titled()))
        #expect((plain["laps"] as? [Any])?.allSatisfy { $0 is NSNull } == true, "\(plain["laps"] ?? "")")
    }
}
