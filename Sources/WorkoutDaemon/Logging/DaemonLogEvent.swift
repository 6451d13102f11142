import WorkoutCore

/// Log events owned by the daemon shell: start-up, shutdown, sockets, storage, reload.
public enum DaemonLogEvent: LogEvent {
    case startedUp(version: String, socket: String, workouts: Int, activated: Bool)
    case shuttingDown(signal: String)
    case stopped
    case reloaded(changed: [String])
    case reloadRejected(String)
    case journalKeptAside(path: String, bytes: Int)
    case journalWriteFailed(String)
    case saved(WorkoutSummary, path: String, milliseconds: Double)
    case status(WorkoutSummary, state: String, fix: String)
    case health(WorkoutSummary, fixRate: Double)
    case imported(file: String, id: String)
    case importFailed(file: String, reason: String)
    case deleted(String)

    public var name: String {
        switch self {
        case .startedUp: return "daemon.started"
        case .shuttingDown: return "daemon.stopping"
        case .stopped: return "daemon.stopped"
        case .reloaded: return "config.reloaded"
        case .reloadRejected: return "config.rejected"
        case .journalKeptAside: return "journal.kept_aside"
        case .journalWriteFailed: return "journal.write_failed"
        case .saved: return "workout.saved"
        case .status: return "workout.status"
        case .health: return "workout.health"
        case .imported: return "history.imported"
        case .importFailed: return "history.import_failed"
        case .deleted: return "history.deleted"
        }
    }

    public var level: LogLevel {
        switch self {
        case .reloadRejected, .journalWriteFailed, .importFailed: return .error
        case .journalKeptAside: return .warning
        case .startedUp, .shuttingDown, .stopped, .reloaded, .saved, .status, .health, .imported, .deleted: return .info
        }
    }

    public var message: String {
        switch self {
        case .startedUp(_, _, let n, let activated): return "workoutd ready with \(n) saved workouts" + (activated ? " (socket-activated)" : "")
        case .shuttingDown(let s): return "Stopping on \(s)"
        case .stopped: return "workoutd stopped"
        case .reloaded(let changed): return changed.isEmpty ? "Configuration reloaded; nothing changed" : "Configuration reloaded"
        case .reloadRejected(let why): return "New configuration rejected, the old one stays in force: \(why)"
        case .journalKeptAside(let p, _): return "Damaged end of the journal kept aside in \(p)"
        case .journalWriteFailed(let e): return "Could not write the journal: \(e)"
        case .saved(let s, _, _): return "Saved \(s.activity.displayName.lowercased()) workout"
        case .status(let s, _, _):
            return "\(s.activity.displayName) \(formatDuration(s.elapsedSeconds)), \(formatFixed(s.distanceMeters / 1000, decimals: 2)) km"
                + (s.heartRate.map { ", \($0) bpm" } ?? "")
        case .health(_, let rate): return "Recording health: \(formatFixed(rate, decimals: 2)) fixes/s"
        case .imported(let f, _): return "Imported \(f)"
        case .importFailed(let f, let r): return "Could not import \(f): \(r)"
        case .deleted(let id): return "Deleted workout \(id) (undo with `workoutctl undelete \(id)`)"
        }
    }

    public var fields: [(String, LogValue)] {
        switch self {
        case .startedUp(let v, let sock, let n, let a):
            return [("version", .string(v)), ("socket", .string(sock)), ("workouts", .int(n)), ("socket_activated", .bool(a))]
        case .shuttingDown(let s): return [("signal", .string(s))]
        case .stopped: return []
        case .reloaded(let c): return [("changed", .string(c.joined(separator: ",")))]
        case .reloadRejected(let why): return [("reason", .string(why))]
        case .journalKeptAside(let p, let b): return [("path", .string(p)), ("bytes", .int(b))]
        case .journalWriteFailed(let e): return [("error", .string(e))]
        case .saved(let s, let p, let ms):
            return [("id", .string(s.id.rawValue)), ("activity", .string(s.activity.rawValue)), ("distance_m", .double(s.distanceMeters, decimals: 1)),
                    ("elapsed_s", .double(s.elapsedSeconds, decimals: 0)), ("moving_s", .double(s.movingSeconds, decimals: 0)),
                    ("points", .int(s.pointCount)), ("path", .string(p)), ("save_ms", .double(ms, decimals: 1))]
        case .status(let s, let state, let fix):
            var f: [(String, LogValue)] = [("id", .string(s.id.rawValue)), ("state", .string(state)), ("elapsed", .string(formatDuration(s.elapsedSeconds))),
                    ("moving", .string(formatDuration(s.movingSeconds))), ("distance_km", .double(s.distanceMeters / 1000, decimals: 3))]
            switch s.activity.effortDisplay {
            case .pace: f.append(("pace", .string(formatPace(s.currentSpeed ?? s.movingAverageSpeed))))
            case .speed: f.append(("speed_kmh", .double((s.currentSpeed ?? s.movingAverageSpeed) * 3.6, decimals: 1)))
            case .none: break
            }
            f.append(("fix", .string(fix)))
            if let hr = s.heartRate { f.append(("hr", .int(hr))) }
            if let z = s.heartRateZone { f.append(("hr_zone", .int(z))) }
            if let avg = s.averageHeartRate { f.append(("hr_avg", .double(avg, decimals: 1))) }
            return f
        case .health(let s, let rate):
            var f: [(String, LogValue)] = [("id", .string(s.id.rawValue)), ("fix_rate_hz", .double(rate, decimals: 2)),
                                           ("points", .int(s.pointCount)), ("accepted", .int(s.acceptedCount))]
            for r in RejectionReason.allCases { f.append(("rejected_" + r.rawValue, .int(s.rejectedByReason[r] ?? 0))) }
            f.append(("signal_lost_s", .double(s.signalLostSeconds, decimals: 0)))
            return f
        case .imported(let file, let id): return [("file", .string(file)), ("id", .string(id))]
        case .importFailed(let file, let r): return [("file", .string(file)), ("reason", .string(r))]
        case .deleted(let id): return [("id", .string(id))]
        }
    }
}

/// m:ss per km for a speed in m/s; "-" when not moving.
public func formatPace(_ speed: Double) -> String {
    guard speed > 0.2 else { return "-" }
    let secPerKm = Int((1000 / speed).rounded())
    let s = secPerKm % 60
    return "\(secPerKm / 60):" + (s < 10 ? "0" : "") + "\(s)/km"
}
