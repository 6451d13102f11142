import WorkoutCore

/// Log events of the history folder changing by another hand (`HistorySync`) and of import
/// folders (`ImportFolders`); docs/logging.md lists them.
enum SyncLogEvent: LogEvent {
    /// A workout not listed before is (from another machine, or a file put there by hand).
    case arrived(id: String, host: String?)
    /// Many at once (a machine joining a shared folder): one line.
    case arrivedMany(count: Int, hosts: [String])
    /// A listed workout's file changed (edited on another machine).
    case changed(id: String, host: String?)
    /// A listed workout's file is gone (deleted on another machine).
    case removed(id: String)
    /// A workout has several versions (a sync conflict): `shown` is listed, `keptAside` stay on disk unlisted.
    case conflict(id: String, shown: String, keptAside: [String], host: String?)
    /// A workout is not listed because it is a copy of a listed one (the same file imported on two machines).
    case duplicateHidden(id: String, copyOf: String)
    /// A workout deleted here came back edited on another machine: the edit wins.
    case deleteOverridden(id: String, host: String?)
    /// A file in the history folder that is not a readable workout.
    case unreadable(file: String, reason: String)
    /// Many such files found by one look (one line; `example` is the first).
    case unreadableMany(count: Int, example: String, reason: String)
    /// inotify could not be used: changes are seen by rescans only.
    case watchUnavailable(reason: String, rescanSeconds: Double)
    /// Files of an import folder were imported (or found to be duplicates).
    case folderImported(folder: String, imported: Int, duplicates: Int, errors: Int, ids: [String])
    /// An import folder cannot be watched now (missing, unmounted): looked for again.
    case folderUnavailable(folder: String, reason: String)
    /// An import folder is watched (again).
    case folderWatched(folder: String)
    /// `historyDir` changed on reload: it is read at start-up only.
    case historyDirAtNextStart(now: String)
    /// A symbolic link in the history folder or an import folder: skipped, never followed
    /// (logged once per path).
    case linkSkipped(path: String)
    /// A longer version of an import folder's file was imported: the workouts the earlier
    /// version made (`old`) went to the trash (`failure`: why one could not).
    case folderReplaced(path: String, old: [String], new: [String], failure: String?)

    var name: String {
        switch self {
        case .arrived: return "history.arrived"
        case .arrivedMany: return "history.arrived_many"
        case .changed: return "history.changed"
        case .removed: return "history.removed"
        case .conflict: return "history.conflict"
        case .duplicateHidden: return "history.duplicate_hidden"
        case .deleteOverridden: return "history.delete_overridden"
        case .unreadable, .unreadableMany: return "history.unreadable"
        case .watchUnavailable: return "history.watch_unavailable"
        case .folderImported: return "import.folder"
        case .folderUnavailable: return "import.folder_unavailable"
        case .folderWatched: return "import.folder_watched"
        case .historyDirAtNextStart: return "history.dir_at_next_start"
        case .linkSkipped: return "history.link_skipped"
        case .folderReplaced: return "import.folder_replaced"
        }
    }

    var level: LogLevel {
        switch self {
        case .arrived, .arrivedMany, .changed, .removed, .folderWatched: return .info
        case .historyDirAtNextStart: return .notice
        case .duplicateHidden, .folderImported: return .notice
        case .folderReplaced(_, _, _, let failure): return failure == nil ? .notice : .warning
        case .conflict, .deleteOverridden, .unreadable, .unreadableMany, .watchUnavailable, .folderUnavailable, .linkSkipped: return .warning
        }
    }

    var message: String {
        func from(_ host: String?) -> String { host.map { " (written on \($0))" } ?? "" }
        switch self {
        case .arrived(let id, let host): return "Workout \(id) appeared in the history folder" + from(host)
        case .arrivedMany(let n, let hosts):
            return "\(n) workouts appeared in the history folder" + (hosts.isEmpty ? "" : " (written on \(hosts.joined(separator: ", ")))")
        case .changed(let id, let host): return "Workout \(id) changed in the history folder" + from(host)
        case .removed(let id): return "Workout \(id) was removed from the history folder (deleted on another machine)"
        case .conflict(let id, let shown, let aside, _):
            return "Workout \(id) has \(aside.count + 1) versions (a sync conflict): listing the newer edit \(shown); kept aside \(aside.joined(separator: ", "))"
        case .duplicateHidden(let id, let of): return "Workout \(id) is a copy of \(of) (imported on two machines): listed once"
        case .deleteOverridden(let id, let host):
            return "Workout \(id), deleted here, was edited on another machine" + from(host) + ": the edit wins and it is listed again"
        case .unreadable(let file, let why): return "Not a readable workout in the history folder: \(file): \(why)"
        case .unreadableMany(let n, let file, let why): return "\(n) files in the history folder are not readable workouts (\(file): \(why), ...)"
        case .watchUnavailable(let why, let s):
            return "Cannot watch the history folder (\(why)); changes by another hand are seen every \(Int(s)) s"
        case .folderImported(let folder, let n, let d, let e, _):
            let name = folder.split(separator: "/").last.map(String.init) ?? folder
            var parts = ["\(n) workout\(n == 1 ? "" : "s") imported"]
            if d > 0 { parts.append("\(d) already saved") }
            if e > 0 { parts.append("\(e) could not be read") }
            return "New files in \(name): " + parts.joined(separator: ", ")
        case .folderUnavailable(let folder, let why): return "Import folder \(folder) is not available (\(why)); looking for it again"
        case .folderWatched(let folder): return "Watching import folder \(folder)"
        case .historyDirAtNextStart(let dir): return "historyDir changes at the next start; saved workouts stay in \(dir) until then"
        case .linkSkipped(let path): return "\(path) is a symbolic link: skipped (links are not followed out of the folder)"
        case .folderReplaced(let path, let old, let new, let failure):
            return "\(path) grew: its workout \(new.joined(separator: ", ")) replaces \(old.joined(separator: ", ")) (moved to the trash)"
                + (failure.map { "; not all could be moved: \($0)" } ?? "")
        }
    }

    var fields: [(String, LogValue)] {
        switch self {
        case .arrived(let id, let host), .changed(let id, let host), .deleteOverridden(let id, let host):
            return [("id", .string(id))] + (host.map { [("host", LogValue.string($0))] } ?? [])
        case .arrivedMany(let n, let hosts): return [("count", .int(n)), ("hosts", .string(hosts.joined(separator: " ")))]
        case .removed(let id): return [("id", .string(id))]
        case .conflict(let id, let shown, let aside, let host):
            return [("id", .string(id)), ("listed", .string(shown)), ("kept_aside", .string(aside.joined(separator: " ")))]
                + (host.map { [("host", LogValue.string($0))] } ?? [])
        case .duplicateHidden(let id, let of): return [("id", .string(id)), ("copy_of", .string(of))]
        case .unreadable(let file, let why): return [("file", .string(file)), ("reason", .string(why))]
        case .unreadableMany(let n, let file, let why): return [("count", .int(n)), ("file", .string(file)), ("reason", .string(why))]
        case .watchUnavailable(let why, let s): return [("reason", .string(why)), ("rescan_s", .int(Int(s)))]
        case .folderImported(let folder, let n, let d, let e, let ids):
            return [("folder", .string(folder)), ("imported", .int(n)), ("duplicates", .int(d)), ("errors", .int(e)), ("ids", .string(ids.joined(separator: " ")))]
        case .folderUnavailable(let folder, let why): return [("folder", .string(folder)), ("reason", .string(why))]
        case .folderWatched(let folder): return [("folder", .string(folder))]
        case .historyDirAtNextStart(let dir): return [("history_dir", .string(dir))]
        case .linkSkipped(let path): return [("path", .string(path))]
        case .folderReplaced(let path, let old, let new, let failure):
            return [("path", .string(path)), ("old", .string(old.joined(separator: " "))), ("new", .string(new.joined(separator: " ")))]
                + (failure.map { [("reason", LogValue.string($0))] } ?? [])
        }
    }
}
