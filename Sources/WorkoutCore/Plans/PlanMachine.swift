/// The plan in progress: a pure state machine beside the lifecycle (docs/plans.md). It advances
/// by the workout's running time (pauses freeze it), by the workout's distance, or by `next` (a
/// lap press); a ramp's power moves every second; it returns `PlanAction`s that the shell
/// performs (close a lap, set the trainer's power, prompt, log), like the lifecycle.
///
/// Times are the workout's clock (seconds, as the lifecycle's `now`); distance is the workout's
/// distance so far (meters). Events that do not fit the state (a tick before the start, `next`
/// after the end) are expected races and return no action.
public struct PlanMachine: Sendable {
    public let plan: Plan
    private var state: State

    private enum State: Sendable {
        /// Made, not started. -> running (`start`), finished (`stop`).
        case ready
        /// A step in progress, its clock running. -> running (the next step), paused, finished.
        case running(StepProgress)
        /// The workout is paused: the step's clock stands. -> running (`resume`), paused (`next`), finished.
        case paused(StepProgress)
        /// Every step done, or the workout stopped. Terminal.
        case finished(End)
    }

    /// How the plan ended.
    public enum End: Sendable, Equatable {
        /// Its last step ended.
        case completed
        /// The workout stopped before the last step ended.
        case stopped
    }

    /// The step in progress: its clock (the running seconds before `since`, and since when it
    /// runs), where it began on the workout's distance, the prompts shown, the power last asked.
    struct StepProgress: Sendable, Equatable {
        var index: Int
        var activeBefore: Double
        var since: Double
        var startDistance: Double
        var promptsShown: Int
        var watts: Int?
        /// Where the rider stands against a heart-rate, cadence or speed target.
        var nudge = Nudge.inRange

        func active(at now: Double, running: Bool) -> Double { running ? activeBefore + max(0, now - since) : activeBefore }
    }

    /// Where the rider stands against a step's heart-rate, cadence or speed target (`measured`).
    enum Nudge: Sendable, Equatable {
        case inRange
        /// Outside the range since `since`: a prompt once it has lasted `nudgeAfter`.
        case outside(since: Double)
        /// Prompted at `at`: again after `nudgeEvery` if still outside.
        case prompted(at: Double)
    }

    /// How long a heart rate, cadence or speed stays outside its step's range before a prompt,
    /// and how often the prompt comes again while it stays out.
    public static let nudgeAfter = 10.0
    public static let nudgeEvery = 60.0

    public init(plan: Plan) {
        precondition(!plan.steps.isEmpty, "a plan has at least one step (PlanDecoder refuses an empty one)")
        self.plan = plan
        state = .ready
    }

    /// A plan resumed after a restart (`PlanJournal`): step `index` in progress, `active`
    /// seconds of it run, begun at the workout's distance `startDistance`; paused at `now` (the
    /// shell resumes it when the workout runs, which asks the trainer for the step's power).
    /// The prompts due by `active` were shown.
    public init(plan: Plan, resumingStep index: Int, active: Double, startDistance: Double, at now: Double) {
        precondition(plan.steps.indices.contains(index), "PlanJournal checks the step")
        self.plan = plan
        let shown = plan.steps[index].prompts.prefix { $0.offset <= active }.count
        state = .paused(StepProgress(index: index, activeBefore: max(0, active), since: now, startDistance: startDistance,
                                     promptsShown: shown, watts: nil))
    }

    /// A plan that had ended (its last step done) when the daemon restarted.
    public init(plan: Plan, ended: End) {
        precondition(!plan.steps.isEmpty, "a plan has at least one step")
        self.plan = plan
        state = .finished(ended)
    }

    /// The workout started (or the plan joined it): the first step begins.
    public mutating func start(at now: Double, distance: Double) -> [PlanAction] {
        guard case .ready = state else { return [] }  // started twice: an expected race
        var actions: [PlanAction] = []
        var p = begin(0, at: now, distance: distance, previousWatts: nil, actions: &actions)
        actions += advance(&p, at: now, distance: distance)
        return actions
    }

    /// Time passed (the shell ticks each second while the workout runs) and the workout's
    /// distance is now `distance`: the steps that ended close their laps, the next ones begin,
    /// a ramp asks for its new power, prompts that are due are shown.
    public mutating func tick(at now: Double, distance: Double) -> [PlanAction] {
        guard case .running(var p) = state else { return [] }
        return advance(&p, at: now, distance: distance)
    }

    /// The workout paused: the step's clock stands; the trainer pauses.
    public mutating func pause(at now: Double) -> [PlanAction] {
        guard case .running(var p) = state else { return [] }
        p.activeBefore = p.active(at: now, running: true)
        state = .paused(p)
        return p.watts == nil ? [] : [.pauseTrainer]
    }

    /// The workout resumed: the step's clock runs again and the trainer is asked for the
    /// step's power once more.
    public mutating func resume(at now: Double, distance: Double) -> [PlanAction] {
        guard case .paused(var p) = state else { return [] }
        p.since = now
        p.nudge = .inRange  // a target missed counts again from the resume
        var actions: [PlanAction] = []
        if let w = currentWatts(p, at: now, running: true) {
            actions.append(.setPower(watts: w))
            p.watts = w
        }
        state = .running(p)
        return actions + advance(&p, at: now, distance: distance)
    }

    /// `workoutctl next` (a lap press): the step ends now and the next one begins (paused, the
    /// next one begins paused).
    public mutating func next(at now: Double, distance: Double) -> [PlanAction] {
        switch state {
        case .ready, .finished:
            return []
        case .running(let p):
            var actions: [PlanAction] = [.closeLap(step: p.index, ended: .pressed)]
            guard p.index + 1 < plan.steps.count else { return actions + finish(.completed) }
            var q = begin(p.index + 1, at: now, distance: distance, previousWatts: p.watts, actions: &actions)
            actions += advance(&q, at: now, distance: distance)
            return actions
        case .paused(let p):
            var actions: [PlanAction] = [.closeLap(step: p.index, ended: .pressed)]
            guard p.index + 1 < plan.steps.count else { return actions + finish(.completed) }
            var q = StepProgress(index: p.index + 1, activeBefore: 0, since: now, startDistance: distance, promptsShown: 0, watts: p.watts)
            actions.append(.stepStarted(step: q.index))
            if plan.steps[q.index].target.watts(atFraction: 0) == nil, q.watts != nil {
                actions.append(.releaseTrainer)
                q.watts = nil
            }
            state = .paused(q)
            return actions
        }
    }

    /// The workout stopped: the plan ends where it is and the trainer is left free.
    public mutating func stop(at now: Double) -> [PlanAction] {
        switch state {
        case .finished:
            return []
        case .ready:
            state = .finished(.stopped)
            return []
        case .running(let p), .paused(let p):
            return [.closeLap(step: p.index, ended: .stopped)] + finish(.stopped)
        }
    }

    /// The rider's heart rate (bpm), cadence (per minute) and speed (m/s) now, nil when not
    /// measured. A running step with a target of one of them prompts the rider when it has
    /// stayed outside the target's range for `nudgeAfter` seconds ("Heart rate 162 bpm: above
    /// the step's 140-150 bpm"), and again every `nudgeEvery` seconds while it stays out; back in
    /// range, the count starts again. Power targets are the trainer's: never prompted.
    public mutating func measured(heartRate: Double?, cadence: Double?, speed: Double?, at now: Double) -> [PlanAction] {
        guard case .running(var p) = state else { return [] }
        let target = plan.steps[p.index].target
        let value: Double?, text: (Double, String) -> String
        switch target {
        case .heartRate(let low, let high):
            value = heartRate
            text = { v, side in "Heart rate \(Int(v.rounded())) bpm: \(side) the step's " + PlanStep.range(low, high, "bpm", decimals: 0) }
        case .cadence(let low, let high):
            value = cadence
            text = { v, side in "Cadence \(Int(v.rounded())) per minute: \(side) the step's " + PlanStep.range(low, high, "per minute", decimals: 0) }
        case .speed(let low, let high):
            value = speed
            text = { v, side in
                "Speed " + formatFixed(v * 3.6, decimals: 1) + " km/h: \(side) the step's " + PlanStep.range(low * 3.6, high * 3.6, "km/h", decimals: 1)
            }
        case .none, .power, .powerRamp:
            return []
        }
        guard let v = value, v.isFinite, let range = target.range else { return [] }
        var actions: [PlanAction] = []
        if range.contains(v) {
            p.nudge = .inRange
        } else {
            let say = PlanAction.prompt(text(v, v < range.lowerBound ? "below" : "above"))
            switch p.nudge {
            case .inRange:
                p.nudge = .outside(since: now)
            case .outside(let since) where now - since >= Self.nudgeAfter:
                actions.append(say)
                p.nudge = .prompted(at: now)
            case .prompted(let at) where now - at >= Self.nudgeEvery:
                actions.append(say)
                p.nudge = .prompted(at: now)
            case .outside, .prompted:
                break
            }
        }
        state = .running(p)
        return actions
    }

    // MARK: - Questions

    /// Whether the step running now has a heart-rate, cadence or speed target (`measured`
    /// wants the rider's figures).
    public var wantsMeasures: Bool {
        guard case .running(let p) = state else { return false }
        switch plan.steps[p.index].target {
        case .heartRate, .cadence, .speed: return true
        case .none, .power, .powerRamp: return false
        }
    }

    /// Where the plan stands at `now` for `status.plan`; nil before it starts.
    public func status(at now: Double, distance: Double) -> PlanStatus? {
        switch state {
        case .ready:
            return nil
        case .finished(let end):
            return PlanStatus(name: plan.name, stepIndex: plan.steps.count - 1, stepCount: plan.steps.count,
                              step: plan.steps[plan.steps.count - 1], watts: nil, remainingSeconds: nil, remainingMeters: nil,
                              next: nil, phase: .finished(end))
        case .running(let p), .paused(let p):
            let running = isRunning
            let step = plan.steps[p.index]
            let active = p.active(at: now, running: running)
            var remainingSeconds: Double?, remainingMeters: Double?
            switch step.length {
            case .seconds(let s): remainingSeconds = max(0, s - active)
            case .meters(let m): remainingMeters = max(0, m - (distance - p.startDistance))
            case .open: break
            }
            return PlanStatus(name: plan.name, stepIndex: p.index, stepCount: plan.steps.count, step: step,
                              watts: currentWatts(p, at: now, running: running), remainingSeconds: remainingSeconds,
                              remainingMeters: remainingMeters, next: p.index + 1 < plan.steps.count ? plan.steps[p.index + 1] : nil,
                              phase: running ? .running : .paused)
        }
    }

    /// The index of the step in progress (the last one once finished), nil before the start.
    public var stepIndex: Int? {
        switch state {
        case .ready: nil
        case .running(let p), .paused(let p): p.index
        case .finished: plan.steps.count - 1
        }
    }

    /// How the plan ended, nil while it runs.
    public var end: End? {
        if case .finished(let e) = state { return e }
        return nil
    }

    private var isRunning: Bool {
        if case .running = state { return true }
        return false
    }

    // MARK: - Steps

    /// Begins step `index` at `time`: announces it and sets the trainer (its power, or free when
    /// it has none and the last step held one).
    private mutating func begin(_ index: Int, at time: Double, distance: Double, previousWatts: Int?,
                                actions: inout [PlanAction]) -> StepProgress {
        var p = StepProgress(index: index, activeBefore: 0, since: time, startDistance: distance, promptsShown: 0, watts: nil)
        actions.append(.stepStarted(step: index))
        if let w = plan.steps[index].target.watts(atFraction: 0) {
            actions.append(.setPower(watts: w))
            p.watts = w
        } else if previousWatts != nil {
            actions.append(.releaseTrainer)
        }
        state = .running(p)
        return p
    }

    /// Shows the prompts that are due, ends the steps whose length is reached (each next step
    /// starting where the last one ended, so no time is lost to the tick's lateness), and moves
    /// a ramp's power.
    private mutating func advance(_ p: inout StepProgress, at now: Double, distance: Double) -> [PlanAction] {
        var actions: [PlanAction] = []
        while true {
            let step = plan.steps[p.index]
            let active = p.active(at: now, running: true)
            while p.promptsShown < step.prompts.count, step.prompts[p.promptsShown].offset <= active {
                actions.append(.prompt(step.prompts[p.promptsShown].text))
                p.promptsShown += 1
            }
            var endedAt: (time: Double, distance: Double)?
            switch step.length {
            case .seconds(let s):
                if active >= s { endedAt = (p.since + (s - p.activeBefore), distance) }
            case .meters(let m):
                if distance - p.startDistance >= m { endedAt = (now, p.startDistance + m) }
            case .open:
                break
            }
            guard let end = endedAt else {
                if case .powerRamp = step.target, let w = currentWatts(p, at: now, running: true), w != p.watts {
                    actions.append(.setPower(watts: w))
                    p.watts = w
                }
                state = .running(p)
                return actions
            }
            actions.append(.closeLap(step: p.index, ended: .completed))
            guard p.index + 1 < plan.steps.count else { return actions + finish(.completed) }
            p = begin(p.index + 1, at: end.time, distance: end.distance, previousWatts: p.watts, actions: &actions)
        }
    }

    private mutating func finish(_ end: End) -> [PlanAction] {
        state = .finished(end)
        return [.finished(end)]
    }

    /// The power the step asks for now (a ramp: at its share of the step's time).
    private func currentWatts(_ p: StepProgress, at now: Double, running: Bool) -> Int? {
        let step = plan.steps[p.index]
        var fraction = 0.0
        if case .seconds(let s) = step.length, s > 0 { fraction = p.active(at: now, running: running) / s }
        return step.target.watts(atFraction: fraction)
    }
}

/// What the shell does for the plan, in order.
public enum PlanAction: Sendable, Equatable {
    /// Step `step` began: log `plan.step`, a desktop notice where notifications are on.
    case stepStarted(step: Int)
    /// Ask the trainer to hold this power (ERG).
    case setPower(watts: Int)
    /// The step has no power target: leave the trainer free.
    case releaseTrainer
    /// The workout paused: pause the trainer.
    case pauseTrainer
    /// Show the athlete this text.
    case prompt(String)
    /// Close the workout's lap for step `step`.
    case closeLap(step: Int, ended: StepEnd)
    /// The plan is over: release the trainer (FTMS Reset), log it.
    case finished(PlanMachine.End)
}

/// Why a step's lap closed.
public enum StepEnd: String, Sendable, Equatable {
    /// Its time or distance was reached.
    case completed
    /// `next` (a lap press) ended it early.
    case pressed
    /// The workout stopped inside it.
    case stopped
}

/// The plan's place for `status.plan`.
public struct PlanStatus: Sendable, Equatable {
    public var name: String
    public var stepIndex: Int
    public var stepCount: Int
    public var step: PlanStep
    /// The power asked now (a ramp's moves), nil without a power target.
    public var watts: Int?
    public var remainingSeconds: Double?
    public var remainingMeters: Double?
    /// The step after this one.
    public var next: PlanStep?
    public var phase: Phase

    public enum Phase: Sendable, Equatable {
        case running, paused
        case finished(PlanMachine.End)
    }
}
