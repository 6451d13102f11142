@testable import WorkoutCore

/// Actions compare equal in tests (a saved workout by its summary, points and events), so a
/// test can `#expect` the exact actions after each event.
extension LifecycleAction: Equatable {
    /// The name of a case without a payload (nil for the others).
    private var bareName: String? {
        switch self {
        case .openGPS: return "openGPS"
        case .closeGPS: return "closeGPS"
        case .openSensors: return "openSensors"
        case .closeSensors: return "closeSensors"
        case .publish: return "publish"
        case .publishProgress: return "publishProgress"
        case .journal, .keepJournalAside, .save, .retrySave, .removeJournal, .announceSaved, .log, .logRecorder: return nil
        }
    }

    public static func == (a: LifecycleAction, b: LifecycleAction) -> Bool {
        if a.bareName != nil || b.bareName != nil { return a.bareName == b.bareName }
        switch (a, b) {
        case (.journal(let x), .journal(let y)): return x == y
        case (.keepJournalAside(let r1, let b1), .keepJournalAside(let r2, let b2)): return r1 == r2 && b1 == b2
        case (.save(let x), .save(let y)), (.announceSaved(let x), .announceSaved(let y)):
            return x.summary == y.summary && x.points == y.points && x.events == y.events
        case (.retrySave(let x), .retrySave(let y)): return x == y
        case (.removeJournal(let x), .removeJournal(let y)): return x == y
        case (.log(let x), .log(let y)): return x == y
        case (.logRecorder(let x), .logRecorder(let y)): return x == y
        case (.journal, _), (.keepJournalAside, _), (.save, _), (.announceSaved, _), (.retrySave, _), (.removeJournal, _),
             (.log, _), (.logRecorder, _), (.openGPS, _), (.closeGPS, _), (.openSensors, _), (.closeSensors, _), (.publish, _),
             (.publishProgress, _):
            return false
        }
    }
}

extension LifecycleAction {
    /// The workout a `save` action hands to the saver.
    var savedWorkout: RecordedWorkout? {
        if case .save(let w) = self { return w }
        return nil
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
