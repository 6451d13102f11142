import Glibc
import WorkoutCore

/// Imports in batches (docs/storage.md, "Imports"): each workout file is written and renamed
/// into place without a sync, its descriptor kept; `commit` then syncs the group's files (the
/// first fdatasync commits the file system journal for all of them, the rest find their data
/// already on disk), the directory once, and lists them in the index with one append and one
/// fsync. So a thousand files cost a few dozen journal commits, and a crash at any point leaves
/// every listed workout whole: the index names a file only after the file is on disk.
extension HistoryStore {
    /// The saved workout that `summary` is a copy of (same start to the second, same point count).
    func duplicate(of summary: WorkoutSummary) -> WorkoutSummary? {
        loaded.state.withLock { $0.listed.duplicate(of: summary) }
    }

    /// A workout file written but not yet synced nor listed (`writeUnsynced`).
    struct Unsynced: Sendable {
        /// Open until `commit` syncs it.
        var fd: Int32
        var version: WorkoutVersion
    }

    /// Writes a workout's file (temporary name, rename) without syncing it: not yet durable,
    /// not yet listed; returns its open descriptor for `commit`, which does both.
    func writeUnsynced(_ workout: Workout) throws -> Unsynced {
        try writeUnsynced(id: workout.id, summary: workout.summary, source: workout.source) { fd, revision in
            try WorkoutFile.encode(workout, revision: revision).withUnsafeBytes { try writeAll(fd, $0) }
        }
    }

    /// The same for a workout whose points are in the recorder's store, written a chunk (1 MiB)
    /// at a time: a long import never holds its whole file in memory.
    func writeUnsynced(_ workout: RecordedWorkout) throws -> Unsynced {
        try writeUnsynced(id: workout.id, summary: workout.summary, source: workout.source) { fd, revision in
            var failure: (any Error)?
            WorkoutFile.encode(workout, revision: revision) { bytes in
                if failure == nil {
                    do { try bytes.withUnsafeBytes { try writeAll(fd, $0) } } catch { failure = error }
                }
                bytes.removeAll(keepingCapacity: true)
            }
            if let failure { throw failure }
        }
    }

    private func writeUnsynced(id: WorkoutID, summary: WorkoutSummary, source: String,
                               _ write: (Int32, Revision) throws -> Void) throws -> Unsynced {
        forgetRecent()
        if let e = faultInjector?() { throw e }
        let target = path(of: id)
        let tmp = target + ".tmp-import"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw SystemError.last("create \(tmp)") }
        let revision = newRevision(of: id)
        do {
            try write(fd, revision)
            // Starts writing it to the disk now, without waiting: by the group's `commit` most
            // of the data is there and its fdatasync is short (a hint: fails harmlessly).
            startWriteback(fd)
        } catch {
            close(fd); unlink(tmp)
            throw error
        }
        let file = HistoryFileName.of(id)
        // Busy until committed: the sync watcher sees the rename and leaves the file to `commit`.
        busy.withLock { _ = $0.insert(file) }
        guard rename(tmp, target) == 0 else {
            let e = SystemError.last("rename \(tmp)"); close(fd); unlink(tmp)
            busy.withLock { _ = $0.remove(file) }
            throw e
        }
        var st = stat()
        _ = fstat(fd, &st)
        return Unsynced(fd: fd, version: WorkoutVersion(file: file, summary: summary, revision: revision,
                                                        imported: HistoryStore.isImported(source), stamp: HistoryStore.stamp(st)))
    }

    /// Makes the files written since the last commit durable (their descriptors, `files`, are
    /// synced and closed; then the directory), then appends their index lines in one write and
    /// fsyncs the index. `recent`, one of the workouts committed (the last), is then kept in
    /// memory for an export right after the import (`RecentWorkout`).
    ///
    /// When space runs out, the group is not lost whole (issue 27 item 8: with 456 KiB free, 0
    /// of 336 files were imported, a group of 64 failing together): a file whose sync fails is
    /// removed alone, and while the index lines do not fit, the group's last files are removed
    /// one at a time to make room for the others'. Returns the workouts removed so, with why;
    /// throws (nothing committed) only when not even one fits.
    func commit(_ files: [Unsynced], recent workout: Workout? = nil) throws -> [WorkoutID: SystemError] {
        let names = files.map(\.version.file)
        defer { busy.withLock { $0.subtract(names) } }
        var dropped: [WorkoutID: SystemError] = [:]
        var durable: [WorkoutVersion] = []
        for f in files {
            if fdatasync(f.fd) == 0 {
                durable.append(f.version)
            } else {
                let e = SystemError.last("fdatasync of an imported workout")
                unlink(path(of: f.version.summary.id))
                dropped[f.version.summary.id] = e
            }
            close(f.fd)
        }
        guard !durable.isEmpty else {
            if let e = dropped.values.first { throw e }
            return dropped
        }
        try AtomicFile.syncDirectory(paths.workoutsDir)
        while true {
            do {
                try record(durable, sync: true)
                break
            } catch let e as SystemError where (e.code == ENOSPC || e.code == EDQUOT) && durable.count > 1 {
                // Room for the index: the last file goes (not durable as listed, so not listed).
                let last = durable.removeLast()
                unlink(path(of: last.summary.id))
                dropped[last.summary.id] = e
            }
        }
        if let workout, dropped[workout.id] == nil, let file = FileIdentity.of(path: path(of: workout.id)) { keepRecent(workout, file: file) }
        return dropped
    }

    /// Replaces a saved workout (edit): file written atomically and synced, then its index line.
    func replace(_ workout: Workout) throws {
        guard summary(workout.id) != nil else { throw StoreError.notFound(workout.id) }
        try save(workout)
    }
}
