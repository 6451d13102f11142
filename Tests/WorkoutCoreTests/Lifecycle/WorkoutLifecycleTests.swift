import Testing
@testable import WorkoutCore

/// Brings a lifecycle to a named state through real transitions.
enum StateName: String, CaseIterable { case idle, restoring, active, paused, saving }

func lifecycle(in state: StateName, activity: ActivityType = .running) -> WorkoutLifecycle {
    var l = WorkoutLifecycle.idle(lastActivity: nil)
    let id = WorkoutID(start: 1000, suffix: 1)
    switch state {
    case .idle: break
    case .restoring: _ = l.beginRestore()
    case .active: _ = l.start(activity, id: id, at: 1000, settings: MetricsSettings())
    case .paused: _ = l.start(activity, id: id, at: 1000, settings: MetricsSettings()); _ = l.pause(at: 1010)
    case .saving: _ = l.start(activity, id: id, at: 1000, settings: MetricsSettings()); _ = l.stop(at: 1020)
    }
    #expect(l.stateName == state.rawValue)
    return l
}

/// Every event the lifecycle accepts, applied to a copy.
enum Event: String, CaseIterable {
    case start, pause, resume, lap, marker, stop, toggle, fix, tick, saveSucceeded, saveFailed, beginRestore, restored

    /// Applies the event; returns the resulting state name and whether it was refused.
    func apply(to l: inout WorkoutLifecycle) -> (state: String, refused: LifecycleRefusal?) {
        let s = MetricsSettings()
        let id = WorkoutID(start: 1000, suffix: 1)
        var outcome: WorkoutLifecycle.Outcome = .success([])
        switch self {
        case .start: outcome = l.start(.cycling, id: WorkoutID(start: 2000, suffix: 2), at: 2000, settings: s)
        case .pause: outcome = l.pause(at: 1030)
        case .resume: outcome = l.resume(at: 1040)
        case .lap: outcome = l.lap(at: 1030)
        case .marker: outcome = l.marker("water", at: 1030)
        case .stop: outcome = l.stop(at: 1050)
        case .toggle: outcome = l.toggle(defaultActivity: .walking, id: WorkoutID(start: 2000, suffix: 2), at: 2000, settings: s)
        case .fix: _ = l.fixReceived(Fix(time: 1030, latitude: 48, longitude: 11))
        case .tick: _ = l.tick(now: 1030)
        case .saveSucceeded: _ = l.saveSucceeded(id)
        case .saveFailed: _ = l.saveFailed(id, error: "disk full")
        case .beginRestore: outcome = l.beginRestore()
        case .restored: _ = l.restored([.started(id: id, activity: .hiking, time: 900), .alive(time: 950)], at: 1000, autoResume: false, settings: s)
        }
        if case .failure(let r) = outcome { return (l.stateName, r) }
        return (l.stateName, nil)
    }
}

@Suite struct WorkoutLifecycleTests {
    /// The expected state after each event in each state ("!" marks a refusal).
    static let table: [StateName: [Event: String]] = [
        .idle: [.start: "active", .pause: "!idle", .resume: "!idle", .lap: "!idle", .marker: "!idle", .stop: "!idle",
                .toggle: "active", .fix: "idle", .tick: "idle", .saveSucceeded: "idle", .saveFailed: "idle",
                .beginRestore: "restoring", .restored: "idle"],
        .restoring: [.start: "!restoring", .pause: "!restoring", .resume: "!restoring", .lap: "!restoring", .marker: "!restoring",
                     .stop: "!restoring", .toggle: "!restoring", .fix: "restoring", .tick: "restoring", .saveSucceeded: "restoring",
                     .saveFailed: "restoring", .beginRestore: "!restoring", .restored: "paused"],
        .active: [.start: "!active", .pause: "paused", .resume: "!active", .lap: "active", .marker: "active", .stop: "saving",
                  .toggle: "saving", .fix: "active", .tick: "active", .saveSucceeded: "active", .saveFailed: "active",
                  .beginRestore: "!active", .restored: "active"],
        .paused: [.start: "!paused", .pause: "!paused", .resume: "active", .lap: "paused", .marker: "paused", .stop: "saving",
                  .toggle: "active", .fix: "paused", .tick: "paused", .saveSucceeded: "paused", .saveFailed: "paused",
                  .beginRestore: "!paused", .restored: "paused"],
        .saving: [.start: "!saving", .pause: "!saving", .resume: "!saving", .lap: "!saving", .marker: "!saving", .stop: "!saving",
                  .toggle: "!saving", .fix: "saving", .tick: "saving", .saveSucceeded: "idle", .saveFailed: "saving",
                  .beginRestore: "!saving", .restored: "saving"],
    ]

    @Test(arguments: StateName.allCases)
    func everyEventInEveryState(_ state: StateName) {
        for event in Event.allCases {
            var l = lifecycle(in: state)
            let (after, refusal) = event.apply(to: &l)
            let expected = Self.table[state]![event]!
            let got = (refusal == nil ? "" : "!") + after
            #expect(got == expected, "\(state) + \(event)")
        }
    }

    @Test func secondStartNamesTheRunningWorkout() {
        var l = lifecycle(in: .active)
        guard case .failure(let r) = l.start(.running, id: WorkoutID(start: 5, suffix: 5), at: 1100, settings: MetricsSettings()) else {
            Issue.record("second start was accepted"); return
        }
        #expect(r.code == "workout_in_progress")
        #expect(r.message.contains("20260") == false)
        #expect(r.message.contains(WorkoutID(start: 1000, suffix: 1).rawValue))
    }

    @Test func gpsFollowsTheActivityNotACase() {
        for activity in ActivityType.allCases {
            var l = WorkoutLifecycle.idle(lastActivity: nil)
            guard case .success(let actions) = l.start(activity, id: WorkoutID(start: 1, suffix: 1), at: 1, settings: MetricsSettings()) else {
                Issue.record("start refused"); continue
            }
            let opens = actions.contains { if case .openGPS = $0 { return true } else { return false } }
            #expect(opens == activity.supportsGPS, "\(activity)")
            #expect(l.wantsGPS == activity.supportsGPS)
        }
    }

    @Test func stopHandsTheSnapshotToTheSaverAndJournalsFirst() {
        var l = lifecycle(in: .active)
        guard case .success(let actions) = l.stop(at: 1050) else { Issue.record("stop refused"); return }
        guard case .journal(.stopped(1050)) = actions.first else { Issue.record("first action is not the journal stop: \(actions)"); return }
        let saves = actions.compactMap { if case .save(let w) = $0 { return w } else { return nil } }
        #expect(saves.count == 1)
        #expect(saves.first?.summary.endedAt == 1050)
        #expect(l.stateName == "saving")
        #expect(!l.canStart)
    }

    @Test func saveFailureRetriesWithBackoffAndKeepsTheWorkout() {
        var l = lifecycle(in: .saving)
        let id = WorkoutID(start: 1000, suffix: 1)
        var delays: [Double] = []
        for _ in 0..<8 {
            for a in l.saveFailed(id, error: "No space left on device") { if case .retrySave(let d) = a { delays.append(d) } }
        }
        #expect(delays == [1, 2, 4, 8, 16, 32, 60, 60])
        #expect(l.saveError == "No space left on device")
        #expect(l.retrySave().count == 1)
        let done = l.saveSucceeded(id)
        #expect(done.contains { if case .removeJournal(id) = $0 { return true } else { return false } })
        #expect(l.stateName == "idle")
    }

    @Test func toggleAsksThePrimaryAction() {
        var l = WorkoutLifecycle.idle(lastActivity: .hiking)
        #expect(l.actionTitle(defaultActivity: .running) == "Start hiking")
        _ = l.toggle(defaultActivity: .running, id: WorkoutID(start: 1, suffix: 1), at: 1, settings: MetricsSettings())
        #expect(l.stateName == "active")
        #expect(l.primaryAction(defaultActivity: .running) == .stop)
    }

    @Test func restoreOfAStoppedWorkoutCompletesTheSave() {
        var l = WorkoutLifecycle.idle(lastActivity: nil)
        _ = l.beginRestore()
        let id = WorkoutID(start: 100, suffix: 7)
        let actions = l.restored([.started(id: id, activity: .running, time: 100), .stopped(time: 200)], at: 300, autoResume: false, settings: MetricsSettings())
        #expect(l.stateName == "saving")
        #expect(actions.contains { if case .save(let w) = $0 { return w.summary.endedAt == 200 } else { return false } })
    }

    @Test func restoreComesBackPausedWithTheGapMarked() {
        var l = WorkoutLifecycle.idle(lastActivity: nil)
        _ = l.beginRestore()
        let id = WorkoutID(start: 100, suffix: 7)
        let actions = l.restored([.started(id: id, activity: .running, time: 100), .alive(time: 160)], at: 400, autoResume: false, settings: MetricsSettings())
        guard case .paused(let w, let info) = l else { Issue.record("not paused: \(l.stateName)"); return }
        #expect(w.id == id)
        #expect(info.cause == .recovered)
        #expect(info.since == 160)
        #expect(actions.contains { if case .journal(.recovered(400, 160)) = $0 { return true } else { return false } })
    }

    @Test func restoreWithoutAStartRecordReturnsToIdle() {
        var l = WorkoutLifecycle.idle(lastActivity: nil)
        _ = l.beginRestore()
        _ = l.restored([.alive(time: 5)], at: 10, autoResume: false, settings: MetricsSettings())
        #expect(l.stateName == "idle")
    }
}
