/// The plan a workout follows, as its journal keeps it (`JournalRecord.plan` when it starts, a
/// `planStep` as each step begins, one with the step count when the plan is done): what a
/// restored workout needs to go on with its plan where it was, or, when the journal ends with a
/// stop, to keep what was done of it (docs/plans.md, "A restart").
public struct PlanJournal: Sendable, Equatable {
    public var plan: Plan
    /// The steps begun, in order (a step's index is its place), and whether the plan was done.
    public var steps: [Step]
    public var progress: Progress

    public struct Step: Sendable, Equatable {
        /// The workout's time, distance, running seconds and closed laps when the step began.
        public var time: Double
        public var distance: Double
        public var timer: Double
        public var laps: Int
    }

    public enum Progress: Sendable, Equatable {
        case running
        /// Its last step ended (a `planStep` of index `plan.steps.count`).
        case done
    }

    public init(plan: Plan, steps: [Step], progress: Progress) {
        self.plan = plan; self.steps = steps; self.progress = progress
    }

    /// The last plan the records name with its steps (their times moved by any later
    /// `shifted`); nil without a plan or before its first step. Steps out of order are left out.
    public init?(records: [JournalRecord]) {
        var found: PlanJournal?
        for record in records {
            switch record {
            case .plan(_, let p):
                found = PlanJournal(plan: p, steps: [], progress: .running)
            case .planStep(let t, let i, let d, let timer, let laps):
                guard var j = found, j.progress == .running, i == j.steps.count else { continue }
                if i == j.plan.steps.count {
                    j.progress = .done
                } else {
                    j.steps.append(Step(time: t, distance: d, timer: timer, laps: laps))
                }
                found = j
            case .shifted(let s):
                if var j = found {
                    for k in j.steps.indices { j.steps[k].time += s }
                    found = j
                }
            case .started, .paused, .resumed, .lap, .marker, .fix, .stopped, .shutdown, .settings, .recovered, .rebased, .suspended,
                 .alive, .heartRate, .heartRateGap, .sensor:
                break
            }
        }
        guard let found, !found.steps.isEmpty else { return nil }
        self = found
    }

    /// Where each step's laps begin (`PlanOutcome`).
    public var firstLaps: [Int] { steps.map(\.laps) }

    /// What was done, measured on the workout's `laps`.
    public func outcome(laps: [LapSummary]) -> PlanOutcome {
        var o = PlanOutcome(plan: plan, firstLaps: firstLaps)
        o.measure(laps)
        return o
    }

    /// The machine at `now` (the workout's time), the workout having run `timer` seconds: the
    /// last step begun, with the running time since it began, paused (the shell resumes it with
    /// the workout); or the plan done.
    public func machine(at now: Double, timer: Double) -> PlanMachine {
        switch progress {
        case .done:
            return PlanMachine(plan: plan, ended: .completed)
        case .running:
            let last = steps[steps.count - 1]
            return PlanMachine(plan: plan, resumingStep: steps.count - 1, active: timer - last.timer, startDistance: last.distance, at: now)
        }
    }
}
