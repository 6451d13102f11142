import Testing
@testable import WorkoutCore

/// Every event the lifecycle accepts, applied to a copy.
enum Event: String, CaseIterable {
    case start, pause, resume, lap, marker, stop, toggle, fix, tick, sourceChanged, replayEnded, saveSucceeded, saveFailed,
         beginRestore, restoreFailed, restored, settingsChanged, shutDown, restoredAfterShutdown

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
        case .fix: _ = l.fixReceived(Fix(time: 1030, latitude: 48, longitude: 11), at: 1030)
        case .tick: _ = l.tick(at: 1030)
        case .sourceChanged: _ = l.feedSourceChanged(replay: FeedReplay(speed: 10, origin: .receiver), at: 1030)
        case .replayEnded: _ = l.replayEnded(at: 1030)
        case .saveSucceeded: _ = l.saveSucceeded(id)
        case .saveFailed: _ = l.saveFailed(id, error: "disk full")
        case .beginRestore: outcome = l.beginRestore()
        case .restoreFailed: _ = l.restoreFailed()
        case .restored: _ = l.restored([.started(id: id, activity: .hiking, time: 900), .alive(time: 950)], at: 1000, autoResume: false, settings: s)
        case .settingsChanged:
            var changed = s
            changed.autoPauseDelay = nil
            _ = l.settingsChanged(changed, at: 1030)
        case .shutDown: _ = l.shutDown(at: 1030, journalWritable: true)
        case .restoredAfterShutdown:
            _ = l.restored([.started(id: id, activity: .hiking, time: 900), .shutdown(time: 950), .alive(time: 950)], at: 1000, autoResume: false, settings: s)
        }
        if case .failure(let r) = outcome { return (l.stateName, r) }
        return (l.stateName, nil)
    }
}

@Suite struct WorkoutLifecycleTests {
    /// The expected state after each event in each state ("!" marks a refusal).
    static let table: [LifecyclePhase: [Event: String]] = [
        .idle: [.start: "active", .pause: "!idle", .resume: "!idle", .lap: "!idle", .marker: "!idle", .stop: "!idle",
                .toggle: "active", .fix: "idle", .tick: "idle", .sourceChanged: "idle", .replayEnded: "idle", .saveSucceeded: "idle",
                .saveFailed: "idle", .beginRestore: "restoring", .restoreFailed: "idle", .restored: "idle",
                .settingsChanged: "idle", .shutDown: "idle", .restoredAfterShutdown: "idle"],
        .restoring: [.start: "!restoring", .pause: "!restoring", .resume: "!restoring", .lap: "!restoring", .marker: "!restoring",
                     .stop: "!restoring", .toggle: "!restoring", .fix: "restoring", .tick: "restoring", .sourceChanged: "restoring",
                     .replayEnded: "restoring", .saveSucceeded: "restoring", .saveFailed: "restoring", .beginRestore: "!restoring",
                     .restoreFailed: "idle", .restored: "paused",
                     .settingsChanged: "restoring", .shutDown: "restoring", .restoredAfterShutdown: "active"],
        .active: [.start: "!active", .pause: "paused", .resume: "!active", .lap: "active", .marker: "active", .stop: "saving",
                  .toggle: "saving", .fix: "active", .tick: "active", .sourceChanged: "active", .replayEnded: "active",
                  .saveSucceeded: "active", .saveFailed: "active", .beginRestore: "!active", .restoreFailed: "active", .restored: "active",
                  .settingsChanged: "active", .shutDown: "active", .restoredAfterShutdown: "active"],
        .paused: [.start: "!paused", .pause: "!paused", .resume: "active", .lap: "paused", .marker: "paused", .stop: "saving",
                  .toggle: "active", .fix: "paused", .tick: "paused", .sourceChanged: "paused", .replayEnded: "paused",
                  .saveSucceeded: "paused", .saveFailed: "paused", .beginRestore: "!paused", .restoreFailed: "paused", .restored: "paused",
                  .settingsChanged: "paused", .shutDown: "paused", .restoredAfterShutdown: "paused"],
        .saving: [.start: "active", .pause: "!saving", .resume: "!saving", .lap: "!saving", .marker: "!saving", .stop: "!saving",
                  .toggle: "active", .fix: "saving", .tick: "saving", .sourceChanged: "saving", .replayEnded: "saving",
                  .saveSucceeded: "idle", .saveFailed: "saving", .beginRestore: "!saving", .restoreFailed: "saving", .restored: "saving",
                  .settingsChanged: "saving", .shutDown: "saving", .restoredAfterShutdown: "saving"],
    ]

    @Test(arguments: LifecyclePhase.allCases)
    func everyEventInEveryState(_ state: LifecyclePhase) {
        for event in Event.allCases {
            var l = lifecycle(in: state)
            expectEqual(l.phase, state)
            let (after, refusal) = event.apply(to: &l)
            let expected = Self.table[state]![event]!
            let got = (refusal == nil ? "" : "!") + after
            expectEqual(got, expected, "\(state) + \(event)")
        }
    }

    @Test func aWorkoutAsAScript() {
        var l = WorkoutLifecycle()
        let id = WorkoutID(start: 1000, suffix: 1)
        expectEqual(l.start(.running, id: id, at: 1000, settings: MetricsSettings()),
                .success([.journal(.started(id: id, activity: .running, time: 1000)), .log(.started(id, .running)), .openGPS, .openSensors, .inhibitSleep, .publish]))
        let fix = Fix(time: 1001, latitude: 48, longitude: 11)
        // The core places the fix by the receiver's clock (in sync: its own time) and says so once.
        expectEqual(l.fixReceived(fix, at: 1001), [.logReceiverClock(.offsetLearned(measured: 0, applied: 0)), .journal(.fix(fix))])
        expectEqual(l.tick(at: 1002), [.publishProgress])
        expectEqual(l.lap(at: 1003).map { $0.count }, .success(3))
        guard case .success(let paused) = l.pause(at: 1010) else { Issue.record("pause refused"); return }
        expectEqual(paused.first, .journal(.paused(time: 1010, cause: .manual)))
        expectEqual(paused.suffix(4), [.closeGPS, .closeSensors, .allowSleep, .publish])
        expectEqual(l.userPause?.since, 1010)
        // A fix in flight when the workout paused: nothing recorded, nothing journaled.
        expectEqual(l.fixReceived(Fix(time: 1011, latitude: 48, longitude: 11), at: 1011), [])
        expectEqual(l.tick(at: 1012), [])
        expectEqual(l.resume(at: 1020), .success([.journal(.resumed(time: 1020)), .log(.resumed(id, after: 10)), .openGPS, .openSensors, .inhibitSleep, .publish]))
        guard case .success(let stopped) = l.stop(at: 1030) else { Issue.record("stop refused"); return }
        expectEqual(stopped.first, .journal(.stopped(time: 1030)))
        #expect(stopped.contains(.closeGPS) && stopped.contains(.closeSensors) && stopped.contains(.allowSleep))
        expectEqual(stopped.compactMap(\.savedWorkout).first?.summary.endedAt, 1030)
        expectEqual(stopped.last, .publish)
        expectEqual(l.retrySave(id).count, 1)
        expectEqual(l.saveSucceeded(id).prefix(1), [.removeJournal(id)])
        expectEqual(l.phase, .idle)
        expectEqual(l.primaryAction(defaultActivity: .walking), .start(.running))
    }

    /// Regression (issue 13): the logged `paused_s` is the pause the workout counts, from the
    /// recorder's (clamped) pause time, not the raw time of the command. A receiver 1.5 s ahead
    /// of the daemon (within the 2 s taken as in sync: its fixes keep their times, docs/time.md)
    /// moves the pause to its last fix; the old code logged 1.5 s too much.
    @Test func pausedSecondsInTheLogAreThePauseTheWorkoutCounts() {
        var l = WorkoutLifecycle()
        let id = WorkoutID(start: 1000, suffix: 1)
        _ = l.start(.running, id: id, at: 1000, settings: MetricsSettings())
        _ = l.fixReceived(Fix(time: 1101.5, latitude: 48, longitude: 11), at: 1100)
        _ = l.pause(at: 1100)
        expectEqual(l.userPause?.since, 1101.5)
        guard case .success(let actions) = l.resume(at: 1130) else { Issue.record("resume refused"); return }
        #expect(actions.contains(.log(.resumed(id, after: 28.5))))
        let w = l.stop(at: 1140).map { $0.compactMap(\.savedWorkout) }
        guard case .success(let saved) = w, let workout = saved.first else { Issue.record("no save"); return }
        let pause = workout.events.first { $0.kind == .pause }!.time
        let resume = workout.events.first { $0.kind == .resume }!.time
        expectEqual(resume - pause, 28.5)
    }

    @Test func secondStartNamesTheRunningWorkout() {
        var l = lifecycle(in: .active)
        guard case .failure(let r) = l.start(.running, id: WorkoutID(start: 5, suffix: 5), at: 1100, settings: MetricsSettings()) else {
            Issue.record("second start was accepted"); return
        }
        expectEqual(r.code, "workout_in_progress")
        expectEqual(r.message.contains("20260"), false)
        #expect(r.message.contains(WorkoutID(start: 1000, suffix: 1).rawValue))
    }

    @Test func gpsFollowsTheActivityNotACase() {
        for activity in ActivityType.allCases {
            var l = WorkoutLifecycle()
            guard case .success(let actions) = l.start(activity, id: WorkoutID(start: 1, suffix: 1), at: 1, settings: MetricsSettings()) else {
                Issue.record("start refused"); continue
            }
            expectEqual(actions.contains(.openGPS), activity.supportsGPS, "\(activity)")
            expectEqual(l.wantsGPS, activity.supportsGPS)
            _ = l.pause(at: 2)
            #expect(!l.wantsGPS)
        }
    }

    @Test func stopHandsTheSnapshotToTheSaverAndJournalsFirst() {
        var l = lifecycle(in: .active)
        guard case .success(let actions) = l.stop(at: 1050) else { Issue.record("stop refused"); return }
        expectEqual(actions.first, .journal(.stopped(time: 1050)))
        let saves = actions.compactMap(\.savedWorkout)
        expectEqual(saves.count, 1)
        expectEqual(saves.first?.summary.endedAt, 1050)
        expectEqual(l.phase, .saving)
        #expect(l.canStart, "a save in flight does not block the next workout")
        #expect(l.firstSaveRunning)
    }

    @Test func saveFailureRetriesWithBackoffAndKeepsTheWorkout() {
        var l = lifecycle(in: .saving)
        let id = WorkoutID(start: 1000, suffix: 1)
        var delays: [Double] = []
        for _ in 0..<8 {
            for a in l.saveFailed(id, error: "No space left on device") { if case .retrySave(let i, let d) = a, i == id { delays.append(d) } }
        }
        expectEqual(delays, [1, 2, 4, 8, 16, 32, 60, 60])
        expectEqual(l.saveError, "No space left on device")
        #expect(!l.firstSaveRunning)
        expectEqual(l.retrySave(id).count, 1)
        let done = l.saveSucceeded(id)
        #expect(done.contains(.removeJournal(id)))
        expectEqual(l.phase, .idle)
    }

    /// #18: a save in flight, or one that keeps failing, never blocks the next workout: the
    /// finished one moves to the background with its journal set aside, and is still saved.
    @Test func startWhileSavingStartsAndKeepsSavingTheLastWorkout() {
        var l = lifecycle(in: .saving)
        let first = WorkoutID(start: 1000, suffix: 1)
        let second = WorkoutID(start: 2000, suffix: 2)
        #expect(l.canStart)
        _ = l.saveFailed(first, error: "No space left on device")
        guard case .success(let actions) = l.start(.cycling, id: second, at: 2000, settings: MetricsSettings()) else {
            Issue.record("start refused while saving"); return
        }
        expectEqual(actions.first, .setJournalAside(first), "the unsaved workout's journal is kept, not reused")
        #expect(actions.contains(.journal(.started(id: second, activity: .cycling, time: 2000))))
        expectEqual(l.phase, .active)
        expectEqual(l.currentWorkoutID, second)
        expectEqual(l.saveError, "No space left on device", "status still shows the failing save")
        expectEqual(l.unsavedWorkouts.map(\.id), [first])
        // The retry timer of the first workout still hands its snapshot to the saver.
        expectEqual(l.retrySave(first).compactMap(\.savedWorkout).first?.summary.id, first)
        expectEqual(l.retrySave(second), [])
        #expect(l.saveFailed(first, error: "No space left on device").contains(.retrySave(first, after: 2)))
        // Its save succeeds later: the set-aside journal goes, the new workout is untouched.
        let done = l.saveSucceeded(first)
        expectEqual(done.first, .removeSetAsideJournal(first))
        #expect(done.contains { if case .announceSaved(let w) = $0 { return w.summary.id == first }; return false })
        expectEqual(l.phase, .active)
        #expect(l.unsavedWorkouts.isEmpty)
        expectNil(l.saveError)
        // And the second is saved the ordinary way.
        _ = l.stop(at: 2100)
        expectEqual(l.saveSucceeded(second).first, .removeJournal(second))
        expectEqual(l.phase, .idle)
    }

    @Test func toggleRightAfterStopStartsTheSameActivity() {
        var l = lifecycle(in: .saving, activity: .hiking)
        expectEqual(l.primaryAction(defaultActivity: .running), .start(.hiking))
        guard case .success = l.toggle(defaultActivity: .running, id: WorkoutID(start: 2000, suffix: 2), at: 2000, settings: MetricsSettings()) else {
            Issue.record("toggle refused while saving"); return
        }
        expectEqual(l.phase, .active)
        #expect(l.firstSaveRunning, "shutdown still waits for the background save")
    }

    @Test func setAsideJournalFoundAtStartUpIsSaved() {
        var l = lifecycle(in: .active)
        let old = WorkoutID(start: 500, suffix: 9)
        let records: [JournalRecord] = [.started(id: old, activity: .walking, time: 500), .stopped(time: 800)]
        let actions = l.restoredSetAside(records, settings: MetricsSettings())
        expectEqual(actions.compactMap(\.savedWorkout).first?.summary.id, old)
        expectEqual(l.phase, .active, "the workout in progress is untouched")
        expectEqual(l.saveSucceeded(old).first, .removeSetAsideJournal(old))
        expectEqual(l.restoredSetAside([.started(id: old, activity: .walking, time: 500)], settings: MetricsSettings()), [], "a journal without a stop is not saved")
    }

    @Test func toggleAsksThePrimaryAction() {
        var l = WorkoutLifecycle(lastActivity: .hiking)
        expectEqual(l.actionTitle(defaultActivity: .running), "Start hiking")
        _ = l.toggle(defaultActivity: .running, id: WorkoutID(start: 1, suffix: 1), at: 1, settings: MetricsSettings())
        expectEqual(l.phase, .active)
        expectEqual(l.primaryAction(defaultActivity: .running), .stop)
        _ = l.pause(at: 5)
        expectEqual(l.primaryAction(defaultActivity: .running), .resume)
    }

    @Test func restoreOfAStoppedWorkoutCompletesTheSave() {
        var l = WorkoutLifecycle()
        _ = l.beginRestore()
        let id = WorkoutID(start: 100, suffix: 7)
        let actions = l.restored([.started(id: id, activity: .running, time: 100), .stopped(time: 200)], at: 300, autoResume: false, settings: MetricsSettings())
        expectEqual(l.phase, .saving)
        expectEqual(actions.compactMap(\.savedWorkout).first?.summary.endedAt, 200)
    }

    @Test func restoreComesBackPausedWithTheGapMarked() {
        var l = WorkoutLifecycle()
        _ = l.beginRestore()
        let id = WorkoutID(start: 100, suffix: 7)
        let actions = l.restored([.started(id: id, activity: .running, time: 100), .alive(time: 160)], at: 400, autoResume: false, settings: MetricsSettings())
        expectEqual(l.phase, .paused)
        expectEqual(l.currentWorkoutID, id)
        expectEqual(l.userPause?.cause, .recovered)
        expectEqual(l.userPause?.since, 160)
        expectEqual(actions.prefix(2), [.journal(.paused(time: 160, cause: .recovered)), .journal(.recovered(time: 400, gapFrom: 160))])
    }

    @Test func restoreOfAPausedWorkoutKeepsItsPause() {
        var l = WorkoutLifecycle()
        _ = l.beginRestore()
        let id = WorkoutID(start: 100, suffix: 7)
        let actions = l.restored([.started(id: id, activity: .running, time: 100), .paused(time: 150, cause: .manual), .alive(time: 160)],
                                 at: 400, autoResume: false, settings: MetricsSettings())
        expectEqual(l.userPause, UserPause(since: 150, cause: .manual))
        expectEqual(actions.first, .journal(.recovered(time: 400, gapFrom: 160)))
    }

    @Test func restoreWithoutAStartRecordKeepsTheJournalAsideAndReturnsToIdle() {
        var l = WorkoutLifecycle()
        _ = l.beginRestore()
        expectEqual(l.restored([.alive(time: 5)], badBytes: 7, at: 10, autoResume: false, settings: MetricsSettings()),
                [.keepJournalAside(reason: "unrestorable", badBytes: 7), .publish])
        expectEqual(l.phase, .idle)
        _ = l.beginRestore()
        expectEqual(l.restoreFailed(), [.keepJournalAside(reason: "unreadable", badBytes: 0)])
        expectEqual(l.phase, .idle)
    }

    /// The simulation clock belongs to the workout: fixes from a replay move the start (while
    /// there are no points) and the workout's clock; the end of the replay stops it.
    @Test func aSimulationDrivesTheWorkoutsClock() {
        var l = WorkoutLifecycle()
        let id = WorkoutID(start: 1000, suffix: 1)
        _ = l.start(.running, id: id, at: 5000, settings: MetricsSettings())
        expectEqual(l.feedSourceChanged(replay: FeedReplay(speed: 10, origin: .receiver), at: 5001), [])
        let fix = Fix(time: 100, latitude: 48, longitude: 11)
        expectEqual(l.fixReceived(fix, at: 5002), [.journal(.rebased(time: 100, origin: .receiver)), .journal(.fix(fix))])
        expectEqual(l.workoutTime(at: 5003), 110)
        _ = l.replayEnded(at: 5004)
        expectEqual(l.workoutTime(at: 6000), 100)  // stopped at the replay's last fix
        guard case .success(let actions) = l.stop(at: 7000) else { Issue.record("stop refused"); return }
        expectEqual(actions.first, .journal(.stopped(time: 100)))
        _ = l.saveSucceeded(id)
        expectEqual(l.workoutTime(at: 8000), 8000)
    }
}
