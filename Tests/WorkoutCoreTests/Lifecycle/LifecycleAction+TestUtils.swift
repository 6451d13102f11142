@testable import WorkoutCore

/// Actions compare equal in tests (a saved workout by its summary, points and events), so a
/// test can `#expect` the exact actions after each event.
extension LifecycleAction: Equatable {
    public static func == (a: LifecycleAction, b: LifecycleAction) -> Bool {
        switch a {
        case .openGPS: if case .openGPS = b { return true }
        case .closeGPS: if case .closeGPS = b { return true }
        case .inhibitSleep: if case .inhibitSleep = b { return true }
        case .allowSleep: if case .allowSleep = b { return true }
        case .openSensors: if case .openSensors = b { return true }
        case .closeSensors: if case .closeSensors = b { return true }
        case .publish: if case .publish = b { return true }
        case .publishProgress: if case .publishProgress = b { return true }
        case .datesMoved(let x): if case .datesMoved(let y) = b { return x == y }
        case .logReceiverClock(let x): if case .logReceiverClock(let y) = b { return x == y }
        case .journal(let x): if case .journal(let y) = b { return x == y }
        case .keepJournalAside(let r1, let b1): if case .keepJournalAside(let r2, let b2) = b { return r1 == r2 && b1 == b2 }
        case .save(let x): if case .save(let y) = b { return same(x, y) }
        case .announceSaved(let x): if case .announceSaved(let y) = b { return same(x, y) }
        case .retrySave(let x, let dx): if case .retrySave(let y, let dy) = b { return x == y && dx == dy }
        case .removeJournal(let x): if case .removeJournal(let y) = b { return x == y }
        case .setJournalAside(let x): if case .setJournalAside(let y) = b { return x == y }
        case .removeSetAsideJournal(let x): if case .removeSetAsideJournal(let y) = b { return x == y }
        case .log(let x): if case .log(let y) = b { return x == y }
        case .logRecorder(let x): if case .logRecorder(let y) = b { return x == y }
        }
        return false
    }

    private static func same(_ x: RecordedWorkout, _ y: RecordedWorkout) -> Bool {
        x.summary == y.summary && x.points == y.points && x.events == y.events
    }
}

extension LifecycleAction {
    /// The workout a `save` action hands to the saver.
    var savedWorkout: RecordedWorkout? {
        if case .save(let w) = self { return w }
        return nil
    }
}

extension ClockReading {
    /// Every clock reading `t`: a workout started at it keeps the times the tests pass (its time
    /// base maps `t` to `t`).
    static func agreeing(_ t: Double) -> ClockReading { ClockReading(realtime: t, boottime: t, monotonic: t) }
}

/// The transitions that take the clocks' reading, with every clock reading `now` (tests pass
/// the workout's times directly).
extension WorkoutLifecycle {
    mutating func start(_ activity: ActivityType, id: WorkoutID, at now: Double, settings: MetricsSettings) -> Outcome {
        start(activity, id: id, clock: .agreeing(now), settings: settings)
    }

    mutating func toggle(defaultActivity: ActivityType, id: WorkoutID, at now: Double, settings: MetricsSettings) -> Outcome {
        toggle(defaultActivity: defaultActivity, id: id, clock: .agreeing(now), settings: settings)
    }

    mutating func restored(_ records: [JournalRecord], badBytes: Int = 0, at now: Double, autoResume: Bool, settings: MetricsSettings) -> [LifecycleAction] {
        restored(records, badBytes: badBytes, clock: .agreeing(now), autoResume: autoResume, settings: settings)
    }
}

/// Brings a lifecycle to a named phase through real transitions (postgres-nio's test builder).
func lifecycle(in state: LifecyclePhase, activity: ActivityType = .running) -> WorkoutLifecycle {
    var l = WorkoutLifecycle()
    let id = WorkoutID(start: 1000, suffix: 1)
    switch state {
    case .idle: break
    case .restoring: _ = l.beginRestore()
    case .active: _ = l.start(activity, id: id, at: 1000, settings: MetricsSettings())
    case .paused: _ = l.start(activity, id: id, at: 1000, settings: MetricsSettings()); _ = l.pause(at: 1010)
    case .saving: _ = l.start(activity, id: id, at: 1000, settings: MetricsSettings()); _ = l.stop(at: 1020)
    }
    return l
}
