import Testing
@testable import WorkoutCore

/// A step's object as the journal's plan and the protocol write it: `kind` and the length
/// member first (`seconds`, `meters` or `open`), then what each adds. Pinned to the byte.
@Suite struct PlanJSONTests {
    static let plan = Plan(name: "Pinned", steps: [
        PlanStep(kind: .warmup, length: .seconds(600), target: .powerRamp(from: 120, to: 180)),
        PlanStep(kind: .work, length: .meters(1000), target: .heartRate(low: 150, high: 160),
                 prompts: [PlanStep.Prompt(offset: 30, text: "Hold it")]),
        PlanStep(kind: .maxEffort, length: .open),
    ])

    @Test func theJournalsPlanWritesEachStepsKindAndLengthFirst() {
        #expect(Self.plan.json().serialized() == #"{"name":"Pinned","steps":["#
            + #"{"kind":"warmup","seconds":600,"ramp":{"watts":[120,180]}},"#
            + #"{"kind":"work","meters":1000,"heartRate":[150,160],"prompts":[{"at":30,"text":"Hold it"}]},"#
            + #"{"kind":"max_effort","open":true}]}"#)
    }

    @Test func theProtocolWritesTheSameKindAndLengthThenTheTarget() {
        let steps = Self.plan.steps
        #expect(PlanReply.json(steps[0], watts: 150).serialized()
            == #"{"kind":"warmup","seconds":600,"target":{"kind":"power_ramp","from":120,"to":180,"watts":150}}"#)
        #expect(PlanReply.json(steps[1], watts: nil).serialized()
            == #"{"kind":"work","meters":1000,"target":{"kind":"heart_rate","low":150,"high":160}}"#)
        #expect(PlanReply.json(steps[2], watts: nil).serialized() == #"{"kind":"max_effort","open":true,"target":{"kind":"none"}}"#)
    }
}
