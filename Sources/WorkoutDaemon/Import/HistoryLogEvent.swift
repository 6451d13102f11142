import WorkoutCore

/// Log events of bulk history work beyond a single import (DaemonLogEvent has `history.imported`
/// and `history.import_failed`).
enum HistoryLogEvent: LogEvent {
    /// `edit`: a saved workout's fields changed (`fields`: activity, title, notes, gear, effort);
    /// with a new activity (`from` != `to`) its numbers were recomputed.
    case edited(id: String, fields: [String], from: ActivityType, to: ActivityType)
    /// `recompute`: a saved workout was measured again with changed metrics settings (`saved`:
    /// the new numbers replaced the old ones).
    case recomputed(id: String, settings: [String], distanceBefore: Double, distanceAfter: Double, saved: Bool)
    /// A whole `import` request finished (or was cancelled by its client).
    case importFinished(imported: Int, duplicates: Int, errors: Int, cancelled: Bool, seconds: Double)
    /// Something the user should know about an imported file (`ImportedWorkout.warnings`).
    case importWarning(file: String, id: String?, warning: String)
    /// Temporary files a killed daemon left were removed at start-up (`StaleTemporaryFiles`).
    case temporaryFilesRemoved(files: Int, bytes: Int)
    /// An export into a pipe or socket was given up (`ExportWriter`: its reader stopped reading,
    /// closed it, or too many waited).
    case exportFailed(id: String, reason: String)

    var name: String {
        switch self {
        case .edited: return "history.edited"
        case .importFinished: return "history.import_finished"
        case .recomputed: return "history.recomputed"
        case .importWarning: return "history.import_warning"
        case .temporaryFilesRemoved: return "history.temp_removed"
        case .exportFailed: return "history.export_failed"
        }
    }

    var level: LogLevel {
        switch self {
        case .edited, .importFinished, .recomputed, .temporaryFilesRemoved: return .info
        case .importWarning, .exportFailed: return .warning
        }
    }

    var message: String {
        switch self {
        case .edited(_, let fields, let from, let to):
            if from != to { return "Changed a workout from \(from.displayName.lowercased()) to \(to.displayName.lowercased())" }
            return "Changed a workout's " + fields.joined(separator: ", ")
        case .recomputed(_, let settings, let before, let after, let saved):
            let with = settings.isEmpty ? "the current settings" : settings.joined(separator: ", ")
            return (saved ? "Recomputed and saved a workout" : "Recomputed a workout (not saved)")
                + " with \(with): \(JSON.format((before / 10).rounded() / 100)) -> \(JSON.format((after / 10).rounded() / 100)) km"
        case .importFinished(let n, let d, let e, let c, _):
            return (c ? "Import stopped by the client" : "Import finished") + ": \(n) imported, \(d) duplicates, \(e) errors"
        case .importWarning(let file, _, let warning): return "Imported \(file): \(warning)"
        case .exportFailed(_, let reason): return "Export failed: " + reason
        case .temporaryFilesRemoved(let n, _): return "Removed \(n) temporary file\(n == 1 ? "" : "s") left by an interrupted save or import"
        }
    }

    var fields: [(String, LogValue)] {
        switch self {
        case .edited(let id, let fields, let from, let to):
            return [("id", .string(id)), ("fields", .string(fields.joined(separator: " "))), ("from", .string(from.rawValue)), ("to", .string(to.rawValue))]
        case .recomputed(let id, let settings, let before, let after, let saved):
            return [("id", .string(id)), ("settings", .string(settings.joined(separator: " "))), ("distance_before_m", .double(before, decimals: 1)),
                    ("distance_after_m", .double(after, decimals: 1)), ("saved", .bool(saved))]
        case .importFinished(let n, let d, let e, let c, let s):
            return [("imported", .int(n)), ("duplicates", .int(d)), ("errors", .int(e)), ("cancelled", .bool(c)), ("seconds", .double(s, decimals: 3))]
        case .importWarning(let file, let id, let warning):
            return [("file", .string(file))] + (id.map { [("id", LogValue.string($0))] } ?? []) + [("warning", .string(warning))]
        case .temporaryFilesRemoved(let n, let b): return [("files", .int(n)), ("bytes", .int(b))]
        case .exportFailed(let id, let reason): return [("id", .string(id)), ("reason", .string(reason))]
        }
    }
}
