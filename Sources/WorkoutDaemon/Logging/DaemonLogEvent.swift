import WorkoutCore

/// Log events owned by the daemon shell: start-up, shutdown, sockets, storage, reload.
public enum DaemonLogEvent: LogEvent {
    case startedUp(version: String, socket: String, workouts: Int, activated: Bool)
    case shuttingDown(signal: String)
    case stopped
    /// `poll` failed: the loop cannot go on; the daemon exits non-zero for a restart.
    case loopFailed(String)
    /// `needsRestart`: the changed keys that take effect at the next start.
    case reloaded(changed: [String], needsRestart: [String])
    case reloadRejected(String)
    /// Damaged journal bytes copied aside: `skipped` bad records before the last good one (each
    /// costs only itself) and any torn end.
    case journalKeptAside(path: String, bytes: Int, skipped: Int)
    /// The journal could not be read at all (not a regular file, unreadable, too large).
    case journalUnreadableKeptAside(path: String, reason: String)
    /// Damaged bytes could not be copied aside (full disk): a torn end of `bytes` was cut off
    /// in place all the same, `skipped` bad records were skipped.
    case journalTornEndCut(bytes: Int, skipped: Int, reason: String)
    case journalWriteFailed(String)
    /// A workout started while the last one was still unsaved: that one's journal was renamed.
    case journalSetAside(id: String, path: String)
    /// Out of file descriptors: new clients are told `busy` until one is free (logged once).
    case descriptorsExhausted(String)
    case descriptorsAvailable
    case saved(WorkoutSummary, path: String, milliseconds: Double)
    /// The periodic status line; its message is in the configured units (fields stay SI).
    case status(WorkoutSummary, state: String, fix: String, units: Units = .metric)
    case health(WorkoutSummary, fixRate: Double)
    case imported(file: String, id: String)
    case importFailed(file: String, reason: String)
    case deleted(String)

    public var name: String {
        switch self {
        case .startedUp: return "daemon.started"
        case .shuttingDown: return "daemon.stopping"
        case .stopped: return "daemon.stopped"
        case .loopFailed: return "daemon.loop_failed"
        case .reloaded: return "config.reloaded"
        case .reloadRejected: return "config.rejected"
        case .journalKeptAside, .journalUnreadableKeptAside: return "journal.kept_aside"
        case .journalTornEndCut: return "journal.torn_end_cut"
        case .journalWriteFailed: return "journal.write_failed"
        case .journalSetAside: return "journal.set_aside"
        case .descriptorsExhausted: return "daemon.out_of_descriptors"
        case .descriptorsAvailable: return "daemon.descriptors_available"
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
        case .loopFailed, .reloadRejected, .journalWriteFailed, .importFailed, .journalTornEndCut, .descriptorsExhausted: return .error
        case .journalKeptAside, .journalUnreadableKeptAside: return .warning
        case .startedUp, .shuttingDown, .stopped, .reloaded, .journalSetAside, .saved, .status, .health, .imported, .deleted, .descriptorsAvailable: return .info
        }
    }

    public var message: String {
        switch self {
        case .startedUp(_, _, let n, let activated): return "workoutd ready with \(EnglishCount.of(n, "saved workout"))" + (activated ? " (socket-activated)" : "")
        case .shuttingDown(let s): return "Stopping on \(s)"
        case .stopped: return "workoutd stopped"
        case .loopFailed(let e): return "The event loop failed (\(e)); the workout in progress is kept in the journal; exiting for a restart"
        case .reloaded(let changed, let waiting):
            if changed.isEmpty { return "Configuration reloaded; nothing changed" }
            return waiting.isEmpty ? "Configuration reloaded" : "Configuration reloaded; at the next start: " + waiting.joined(separator: ", ")
        case .reloadRejected(let why): return "New configuration rejected, the old one stays in force: \(why)"
        case .journalKeptAside(let p, _, let skipped):
            return skipped == 0 ? "Damaged end of the journal kept aside in \(p)"
                : "Skipped \(skipped) damaged journal record\(skipped == 1 ? "" : "s"), the others restored; damaged bytes kept aside in \(p)"
        case .journalUnreadableKeptAside(let p, let why): return "Unreadable journal kept aside in \(p): \(why)"
        case .journalTornEndCut(let n, let skipped, let why):
            let skips = skipped == 0 ? "" : "skipped \(skipped) damaged record\(skipped == 1 ? "" : "s")" + (n == 0 ? "" : " and ")
            return "Could not keep the damaged journal bytes aside (\(why)); " + skips + (n == 0 ? "" : "cut its \(n) torn bytes so that new records follow the last good one")
        case .journalWriteFailed(let e): return "Could not write the journal: \(e)"
        case .journalSetAside(let id, _): return "Workout \(id) is still being saved in the background; its journal is kept until it is saved"
        case .descriptorsExhausted(let e): return "Out of file descriptors (\(e)): new clients are told busy until one is free"
        case .descriptorsAvailable: return "File descriptors available again: accepting clients"
        case .saved(let s, _, _): return "Saved \(s.activity.displayName.lowercased()) workout"
        case .status(let s, _, _, let units):
            let u = UnitFormatter(units)
            // Each pace says which it is: the current one ("now") and the moving average ("avg").
            let speeds: [(Double, String)] = (s.currentSpeed.map { [($0, "now")] } ?? []) + [(s.movingAverageSpeed, "avg")]
            let paces = speeds.compactMap { v, label in u.effort(v, for: s.activity).map { $0 + " " + label } }
            return "\(s.activity.displayName) \(formatDuration(s.elapsedSeconds))"
                + (s.activity.supportsGPS || s.distanceMeters > 0
                   ? ", " + u.distance(s.distanceMeters) + paces.map { ", " + $0 }.joined() : "")
                + (s.heartRate.map { ", \($0) bpm" } ?? "")
                + (s.power.map { ", \($0) W" } ?? "") + (s.cadence.map { ", \($0) rpm" } ?? "")
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
        case .loopFailed(let e): return [("error", .string(e))]
        case .reloaded(let c, let waiting):
            return [("changed", .string(c.joined(separator: ",")))] + (waiting.isEmpty ? [] : [("needs_restart", .string(waiting.joined(separator: ",")))])
        case .reloadRejected(let why): return [("reason", .string(why))]
        case .journalKeptAside(let p, let b, let skipped): return [("path", .string(p)), ("bytes", .int(b)), ("skipped", .int(skipped))]
        case .journalUnreadableKeptAside(let p, let why): return [("path", .string(p)), ("reason", .string(why))]
        case .journalTornEndCut(let b, let skipped, let why): return [("bytes", .int(b)), ("skipped", .int(skipped)), ("reason", .string(why))]
        case .journalWriteFailed(let e): return [("error", .string(e))]
        case .journalSetAside(let id, let p): return [("id", .string(id)), ("path", .string(p))]
        case .descriptorsExhausted(let e): return [("error", .string(e))]
        case .descriptorsAvailable: return []
        case .saved(let s, let p, let ms):
            return [("id", .string(s.id.rawValue)), ("activity", .string(s.activity.rawValue)), ("distance_m", .double(s.distanceMeters, decimals: 1)),
                    ("elapsed_s", .double(s.elapsedSeconds, decimals: 0)), ("moving_s", .double(s.movingSeconds, decimals: 0)),
                    ("points", .int(s.pointCount)), ("path", .string(p)), ("save_ms", .double(ms, decimals: 1))]
        case .status(let s, let state, let fix, _):
            var f: [(String, LogValue)] = [("id", .string(s.id.rawValue)), ("state", .string(state)), ("elapsed", .string(formatDuration(s.elapsedSeconds))),
                    ("moving", .string(formatDuration(s.movingSeconds))), ("distance_km", .double(s.distanceMeters / 1000, decimals: 3))]
            switch s.activity.effortDisplay {
            case .pace:
                f.append(("pace", .string(formatPace(s.currentSpeed ?? s.movingAverageSpeed))))
                f.append(("avg_pace", .string(formatPace(s.movingAverageSpeed))))
            case .speed:
                f.append(("speed_kmh", .double((s.currentSpeed ?? s.movingAverageSpeed) * 3.6, decimals: 1)))
                f.append(("avg_speed_kmh", .double(s.movingAverageSpeed * 3.6, decimals: 1)))
            case .none: break
            }
            f.append(("fix", .string(fix)))
            if let hr = s.heartRate { f.append(("hr", .int(hr))) }
            if let z = s.heartRateZone { f.append(("hr_zone", .int(z))) }
            if let avg = s.averageHeartRate { f.append(("hr_avg", .double(avg, decimals: 1))) }
            if let p = s.power { f.append(("power", .int(p))) }
            if let avg = s.averagePower { f.append(("power_avg", .double(avg, decimals: 1))) }
            if let np = s.normalizedPower { f.append(("np", .double(np, decimals: 1))) }
            if let c = s.cadence { f.append(("cadence", .int(c))) }
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
