/// Log events owned by the lifecycle layer.
public enum LifecycleLogEvent: LogEvent, Equatable {
    case started(WorkoutID, ActivityType)
    case paused(WorkoutID, PauseCause, elapsed: Double)
    case resumed(WorkoutID, after: Double)
    case lap(WorkoutID, LapSummary)
    case marker(WorkoutID, String?)
    case stopped(WorkoutSummary)
    case saveFailed(WorkoutID, error: String, attempt: Int, retryIn: Double)
    case restored(WorkoutID, ActivityType, gapSeconds: Double, points: Int)
    case restoreCompletingStop(WorkoutID)
    /// A reload changed metrics settings while this workout records: those it follows from now
    /// on, and those it keeps until it ends.
    case settingsChanged(WorkoutID, [MetricsSettingsChange])
    /// The daemon is stopping (SIGTERM/SIGINT) and keeps the workout in progress in its journal:
    /// the next start continues it.
    case keptForRestart(WorkoutID, ActivityType, paused: Bool)
    /// The daemon started again and continues the workout it kept at its shutdown, as it was.
    case continued(WorkoutID, ActivityType, gapSeconds: Double, points: Int, paused: Bool)

    public var name: String {
        switch self {
        case .started: return "workout.started"
        case .paused: return "workout.paused"
        case .resumed: return "workout.resumed"
        case .lap: return "workout.lap"
        case .marker: return "workout.marker"
        case .stopped: return "workout.stopped"
        case .saveFailed: return "workout.save_failed"
        case .restored: return "workout.restored"
        case .restoreCompletingStop: return "workout.restore_completing_stop"
        case .settingsChanged: return "workout.settings_changed"
        case .keptForRestart: return "workout.kept_for_restart"
        case .continued: return "workout.continued"
        }
    }

    public var level: LogLevel {
        switch self {
        case .saveFailed: return .error
        case .restored, .restoreCompletingStop, .settingsChanged, .keptForRestart, .continued: return .notice
        case .started, .paused, .resumed, .lap, .marker, .stopped: return .info
        }
    }

    public var message: String {
        switch self {
        case .started(_, let a): return "Started \(a.displayName.lowercased()) workout"
        case .paused(_, let cause, _): return "Workout paused (\(cause.rawValue.replacingUnderscores()))"
        case .resumed: return "Workout resumed"
        case .lap(_, let lap): return "Lap \(lap.index + 1) done"
        case .marker(_, let text): return text.map { "Marker: \($0)" } ?? "Marker set"
        case .stopped(let s): return "Stopped \(s.activity.displayName.lowercased()) workout"
        case .saveFailed(_, let error, _, let retry): return "Could not save the workout: \(error); retrying in \(Int(retry)) s"
        case .restored(_, let a, _, _): return "Restored the interrupted \(a.displayName.lowercased()) workout (paused)"
        case .settingsChanged(_, let changes):
            let live = changes.filter(\.appliesNow), kept = changes.filter { !$0.appliesNow }
            var m = live.isEmpty ? "Settings changed; the workout in progress keeps its rules"
                                 : "The workout in progress follows the new settings from now: " + live.map(\.description).joined(separator: ", ")
            if !kept.isEmpty { m += "; from the next workout: " + kept.map(\.description).joined(separator: ", ") }
            return m
        case .keptForRestart(_, let a, let paused):
            return "Keeping the \(paused ? "paused" : "active") \(a.displayName.lowercased()) workout in the journal; the next start continues it (`workoutctl stop` ends it)"
        case .continued(_, let a, let gap, _, let paused):
            return "Continuing the \(a.displayName.lowercased()) workout kept at shutdown (\(paused ? "paused" : "active"), daemon down \(Int(gap.rounded())) s)"
        case .restoreCompletingStop: return "Completing the save of a workout stopped before the interruption"
        }
    }

    public var fields: [(String, LogValue)] {
        switch self {
        case .started(let id, let a): return [("id", .string(id.rawValue)), ("activity", .string(a.rawValue))]
        case .paused(let id, let cause, let elapsed):
            return [("id", .string(id.rawValue)), ("cause", .string(cause.rawValue)), ("elapsed_s", .double(elapsed, decimals: 0))]
        case .resumed(let id, let after): return [("id", .string(id.rawValue)), ("paused_s", .double(after, decimals: 0))]
        case .lap(let id, let lap):
            return [("id", .string(id.rawValue)), ("lap", .int(lap.index + 1)), ("distance_m", .double(lap.distanceMeters, decimals: 1)),
                    ("elapsed_s", .double(lap.elapsedSeconds, decimals: 0)), ("moving_s", .double(lap.movingSeconds, decimals: 0))]
        case .marker(let id, let text): return [("id", .string(id.rawValue)), ("text", .string(text ?? ""))]
        case .stopped(let s):
            return [("id", .string(s.id.rawValue)), ("activity", .string(s.activity.rawValue)),
                    ("elapsed_s", .double(s.elapsedSeconds, decimals: 0)), ("moving_s", .double(s.movingSeconds, decimals: 0)),
                    ("distance_m", .double(s.distanceMeters, decimals: 1)), ("points", .int(s.pointCount))]
        case .saveFailed(let id, let error, let attempt, let retry):
            return [("id", .string(id.rawValue)), ("error", .string(error)), ("attempt", .int(attempt)), ("retry_in_s", .double(retry, decimals: 0))]
        case .restored(let id, let a, let gap, let points):
            return [("id", .string(id.rawValue)), ("activity", .string(a.rawValue)), ("gap_s", .double(gap, decimals: 0)), ("points", .int(points))]
        case .restoreCompletingStop(let id): return [("id", .string(id.rawValue))]
        case .keptForRestart(let id, let a, let paused):
            return [("id", .string(id.rawValue)), ("activity", .string(a.rawValue)), ("paused", .bool(paused))]
        case .continued(let id, let a, let gap, let points, let paused):
            return [("id", .string(id.rawValue)), ("activity", .string(a.rawValue)), ("gap_s", .double(gap, decimals: 0)),
                    ("points", .int(points)), ("paused", .bool(paused))]
        case .settingsChanged(let id, let changes):
            return [("id", .string(id.rawValue)), ("now", .string(changes.filter(\.appliesNow).map { "\($0.key)=\($0.to)" }.joined(separator: " "))),
                    ("next_workout", .string(changes.filter { !$0.appliesNow }.map { "\($0.key)=\($0.to)" }.joined(separator: " ")))]
        }
    }
}

extension String {
    func replacingUnderscores() -> String { String(map { $0 == "_" ? " " : $0 }) }
}
