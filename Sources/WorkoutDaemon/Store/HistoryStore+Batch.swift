import Glibc
import WorkoutCore

/// Imports in batches (docs/storage.md, "Imports"): each workout file is written and renamed
/// into place without its own fsync; `commit` then makes a group of them durable with one
/// `syncfs` and lists them in the index with one append and one fsync. So a thousand files cost
/// a few dozen syncs, and a crash at any point leaves every listed workout whole: the index
/// names a file only after the file is on disk.
extension HistoryStore {
    /// The saved workout that `summary` is a copy of (same start to the second, same point count).
    func duplicate(of summary: WorkoutSummary) -> WorkoutSummary? {
        state.withLock { map in map.values.first { Importer.isDuplicate(summary, of: $0) } }
    }

    /// Writes a workout's file (temporary name, rename) without syncing it: not yet durable,
    /// not yet listed. `commit` does both.
    func writeUnsynced(_ workout: Workout) throws {
        if let e = faultInjector?() { throw e }
        let target = path(of: workout.id)
        let tmp = target + ".tmp-import"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SystemError.last("create \(tmp)") }
        do {
            try WorkoutFile.encode(workout).withUnsafeBytes { try writeAll(fd, $0) }
        } catch {
            close(fd); unlink(tmp)
            throw error
        }
        close(fd)
        guard rename(tmp, target) == 0 else { let e = SystemError.last("rename \(tmp)"); unlink(tmp); throw e }
    }

    /// Makes the files written since the last commit durable (one `syncfs` of the data
    /// directory's file system), then appends their index lines in one write and fsyncs it.
    func commit(_ summaries: [WorkoutSummary]) throws {
        guard !summaries.isEmpty else { return }
        let dfd = open(paths.workoutsDir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0 else { throw SystemError.last("open \(paths.workoutsDir)") }
        defer { close(dfd) }
        guard let syncfs = HistoryStore.syncfs else {
            throw SystemError("syncfs is not available in this C library", code: ENOSYS)
        }
        guard syncfs(dfd) == 0 else { throw SystemError.last("syncfs \(paths.workoutsDir)") }
        var lines = ""
        for s in summaries { lines += HistoryStore.indexLine(put: s) }
        try appendIndex(lines)
        state.withLock { map in for s in summaries { map[s.id] = s } }
    }

    /// glibc's `syncfs(2)` (declared only under _GNU_SOURCE, which Swift's Glibc module lacks).
    nonisolated(unsafe) static let syncfs: (@convention(c) (Int32) -> Int32)? = {
        guard let sym = dlsym(nil, "syncfs") else { return nil }
        return unsafeBitCast(sym, to: (@convention(c) (Int32) -> Int32).self)
    }()

    /// Replaces a saved workout (edit): file written atomically and synced, then its index line.
    func replace(_ workout: Workout) throws {
        guard summary(workout.id) != nil else { throw StoreError.notFound(workout.id) }
        try save(workout)
    }
}
