import Glibc
import Synchronization
import WorkoutCore

/// The workout an import saved last, kept in memory (one workout, at most `maxPoints` points,
/// dropped when the bulk worker has been idle `HistoryStore.recentIdleSeconds`) so that
/// `export`, `show`, `edit` or `recompute` of it right after the import need not decode its
/// file again (for a 24-hour NMEA log that decode was ~15 % of the user path's instructions).
/// It answers exactly what the file would: the workout is turned into its saved form
/// (`WorkoutFile.savedForm`, equal to decoding the file) on first use, and it is used only
/// while the file is still the one written (same inode, size and modification time: an
/// edit, a delete, or a file changed by hand makes it miss). Every store change drops it first.
struct RecentWorkout: Sendable {
    /// As the import built it, or already in the form its file reads back as.
    enum Form: Sendable {
        case built(Workout)
        case saved(Workout)
    }
    var form: Form
    /// The file as it was written (`stat` of the path must match for a hit).
    var file: FileIdentity

    /// Imports larger than this are not kept (~160 B a point in memory; a 24-hour 1 Hz log is
    /// 86,400 points).
    static let maxPoints = 250_000

    var id: WorkoutID {
        switch form {
        case .built(let w), .saved(let w): return w.id
        }
    }
}

/// What identifies a file's content without reading it: inode, size and modification time.
struct FileIdentity: Sendable, Equatable {
    var inode: UInt64
    var size: Int64
    var modified: timespec

    init(_ st: stat) {
        inode = UInt64(st.st_ino); size = Int64(st.st_size); modified = st.st_mtim
    }

    /// The identity of the file at `path` now, or nil when it cannot be stat'ed.
    static func of(path: String) -> FileIdentity? {
        var st = stat()
        return stat(path, &st) == 0 ? FileIdentity(st) : nil
    }

    /// The identity of the file open at `fd`.
    static func of(fd: Int32) -> FileIdentity? {
        var st = stat()
        return fstat(fd, &st) == 0 ? FileIdentity(st) : nil
    }

    static func == (a: FileIdentity, b: FileIdentity) -> Bool {
        a.inode == b.inode && a.size == b.size && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
    }
}

extension HistoryStore {
    /// How long the bulk worker keeps the recent workout once it has nothing to do (s).
    static let recentIdleSeconds = 30

    /// Keeps `workout` (just committed, its file's identity `file`) as the recent one.
    func keepRecent(_ workout: Workout, file: FileIdentity) {
        guard workout.points.count <= RecentWorkout.maxPoints else { forgetRecent(); return }
        recent.withLock { $0 = RecentWorkout(form: .built(workout), file: file) }
    }

    /// Drops the recent workout (any change to the store, or the worker idle).
    func forgetRecent() {
        let old = recent.withLock { r -> RecentWorkout? in defer { r = nil }; return r }
        _ = old  // freed here, outside the lock
    }

    /// The recent workout when it is `id` and its file is still the one written; turned into
    /// its saved form on first use (outside the lock; kept unless the store changed meanwhile).
    func recentWorkout(_ id: WorkoutID) -> Workout? {
        guard let entry = recent.withLock({ $0?.id == id ? $0 : nil }) else { return nil }
        guard FileIdentity.of(path: path(of: id)) == entry.file else { forgetRecent(); return nil }
        switch entry.form {
        case .saved(let w): return w
        case .built(let w):
            let saved = WorkoutFile.savedForm(w)
            recent.withLock { r in
                if let current = r, current.id == id, current.file == entry.file, case .built = current.form {
                    r = RecentWorkout(form: .saved(saved), file: entry.file)
                }
            }
            return saved
        }
    }
}
