import Glibc
import Synchronization
import WorkoutCore

/// Saved workouts: one native file per workout under `workouts/`, plus `index.jsonl` (one
/// summary line per change) so listing and start-up read one small file instead of every
/// workout. Deleting moves the file to `trash/` (undoable with `undelete`). Thread-safe: the
/// saver thread and the main loop both use it.
public final class HistoryStore: Sendable {
    public let paths: Paths
    let state: Mutex<SavedSummaries>
    /// The workout an import saved last (`RecentWorkout`), for an export right after it.
    let recent = Mutex<RecentWorkout?>(nil)
    /// Test hook: when this returns an error, writes fail with it (full disk, read-only ...).
    let faultInjector: (@Sendable () -> SystemError?)?

    public init(paths: Paths, faultInjector: (@Sendable () -> SystemError?)? = nil) throws {
        self.paths = paths
        self.faultInjector = faultInjector
        try PrivateDirectory.prepareOwned(paths.dataDir)
        try makeDirectories(paths.workoutsDir)
        try makeDirectories(paths.trashDir)
        removedAtStartup = HistoryStore.removeStaleTemporaryFiles(paths)
        state = Mutex(SavedSummaries(HistoryStore.loadIndex(paths)))
    }

    /// Temporary files of a killed daemon removed at start-up (`StaleTemporaryFiles`).
    public let removedAtStartup: StaleTemporaryFiles.Removed

    static func removeStaleTemporaryFiles(_ paths: Paths) -> StaleTemporaryFiles.Removed {
        var removed = StaleTemporaryFiles.Removed()
        StaleTemporaryFiles.remove(in: paths.workoutsDir, removed: &removed)
        let index = paths.indexFile
        if let slash = index.lastIndex(of: "/") {
            StaleTemporaryFiles.remove(in: String(index[..<slash]), targets: [String(index[index.index(after: slash)...])], removed: &removed)
        }
        return removed
    }

    /// Reads the index. Lines: `{"put": SUMMARY}` or `{"del": ID}`; a damaged line is skipped.
    /// The index is then checked against the workout files (names only, one `readdir`): when a
    /// file is missing from it, it lists a workout whose file is gone, or its last line is torn,
    /// it is rebuilt (see `rebuildIndex`), so no saved workout is hidden and nothing is ever
    /// appended to a torn line.
    static func loadIndex(_ paths: Paths) -> [WorkoutID: WorkoutSummary] {
        let files = workoutFileIDs(paths)
        guard let bytes = try? readFile(paths.indexFile) else { return rebuildIndex(paths, keeping: [:], files: files) }
        var map: [WorkoutID: WorkoutSummary] = [:]
        for record in IndexRecord.parseAll(bytes, pieces: IndexRecord.threads(for: bytes.count)) {
            switch record {
            case .put(let s): map[s.id] = s
            case .del(let id): map[id] = nil
            }
        }
        let torn = bytes.last.map { $0 != 10 } ?? false
        if !torn, map.count == files.count, map.keys.allSatisfy({ files.contains($0.rawValue) }) { return map }
        return rebuildIndex(paths, keeping: map, files: files)
    }

    /// The IDs of the files in `workouts/` (`<id>.json`).
    static func workoutFileIDs(_ paths: Paths) -> Set<String> {
        var ids: Set<String> = []
        guard let dir = opendir(paths.workoutsDir) else { return ids }
        defer { closedir(dir) }
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name.hasSuffix(".json"), name.count > 5 { ids.insert(String(name.dropLast(5))) }
        }
        return ids
    }

    /// Rebuilds the index: the summaries of `keeping` whose file exists, plus every other
    /// workout file read whole; the new index replaces the old one atomically.
    static func rebuildIndex(_ paths: Paths, keeping: [WorkoutID: WorkoutSummary], files: Set<String>) -> [WorkoutID: WorkoutSummary] {
        var map = keeping.filter { files.contains($0.key.rawValue) }
        let listed = Set(map.keys.map(\.rawValue))
        for id in files.sorted() where !listed.contains(id) {
            guard let bytes = try? readFile(paths.workoutsDir + "/" + id + ".json"),
                  let w = try? WorkoutFile.decode(bytes) else { continue }
            map[w.id] = w.summary
        }
        let lines = map.values.sorted { $0.startedAt < $1.startedAt }.map(HistoryStore.indexLine(put:)).joined()
        if !map.isEmpty || (try? readFile(paths.indexFile))?.isEmpty == false {
            try? AtomicFile.write(Array(lines.utf8), to: paths.indexFile)
        }
        return map
    }

    static func indexLine(put s: WorkoutSummary) -> String { IndexRecord.put(s).line }

    public func path(of id: WorkoutID) -> String { paths.workoutsDir + "/" + id.rawValue + ".json" }

    /// Writes a workout durably, then records it in the index. Safe from any thread.
    public func save(_ workout: Workout) throws {
        forgetRecent()
        if let e = faultInjector?() { throw e }
        try AtomicFile.write(WorkoutFile.encode(workout), to: path(of: workout.id))
        try record(workout.summary)
    }

    /// The same for a workout just recorded (encoded straight from the recorder's point store).
    public func save(_ workout: RecordedWorkout) throws {
        forgetRecent()
        if let e = faultInjector?() { throw e }
        try AtomicFile.write(WorkoutFile.encode(workout), to: path(of: workout.id))
        try record(workout.summary)
    }

    private func record(_ summary: WorkoutSummary) throws {
        try appendIndex(HistoryStore.indexLine(put: summary))
        state.withLock { $0[summary.id] = summary }
    }

    func appendIndex(_ line: String) throws {
        if let e = faultInjector?() { throw e }
        let fd = open(paths.indexFile, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SystemError.last("open \(paths.indexFile)") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw SystemError.last("stat \(paths.indexFile)") }
        var written = 0
        var failure: SystemError?
        Array(line.utf8).withUnsafeBytes { raw in
            do throws(SystemError) { try writeAll(fd, raw, progress: &written) } catch { failure = SystemError("write \(paths.indexFile)", code: error.code) }
        }
        if let failure {
            // Whole lines or nothing: what a full disk let through is cut off again, so the next
            // append does not glue its line onto half of this one.
            if written > 0 { _ = ftruncate(fd, st.st_size) }
            throw failure
        }
        guard fsync(fd) == 0 else { throw SystemError.last("fsync \(paths.indexFile)") }
    }

    /// How many workouts are saved (without copying or sorting them).
    public var count: Int { state.withLock { $0.count } }

    public func summaries() -> [WorkoutSummary] {
        state.withLock { Array($0.values) }.sorted { $0.startedAt < $1.startedAt }
    }

    public func summary(_ id: WorkoutID) -> WorkoutSummary? { state.withLock { $0[id] } }

    public func list(_ f: ListFilter) -> [WorkoutSummary] {
        var out = summaries().filter { s in
            (f.from.map { s.startedAt >= $0 } ?? true) && (f.to.map { s.startedAt < $0 + 86400 } ?? true)
                && (f.activity.map { s.activity == $0 } ?? true)
        }
        if let limit = f.limit, out.count > limit { out = Array(out.suffix(limit)) }
        return out
    }

    public func load(_ id: WorkoutID) throws -> Workout {
        if let w = recentWorkout(id) { return w }
        let bytes = try readFile(path(of: id))
        do { return try WorkoutFile.decode(bytes) } catch {
            throw StoreError.damaged(path(of: id), error.description)
        }
    }

    /// Moves the workout to the trash (undoable).
    public func delete(_ id: WorkoutID) throws {
        guard summary(id) != nil else { throw StoreError.notFound(id) }
        forgetRecent()
        guard rename(path(of: id), paths.trashDir + "/" + id.rawValue + ".json") == 0 else { throw SystemError.last("move \(id) to trash") }
        try appendIndex(IndexRecord.del(id).line)
        state.withLock { $0[id] = nil }
    }

    /// Brings a deleted workout back from the trash.
    public func undelete(_ id: WorkoutID) throws {
        let trashed = paths.trashDir + "/" + id.rawValue + ".json"
        guard access(trashed, F_OK) == 0 else { throw StoreError.notInTrash(id) }
        forgetRecent()
        let w: Workout
        do { w = try WorkoutFile.decode(try readFile(trashed)) } catch let e as WorkoutFile.DecodeError {
            throw StoreError.damaged(trashed, e.description)
        }
        guard rename(trashed, path(of: id)) == 0 else { throw SystemError.last("restore \(id) from trash") }
        try appendIndex(HistoryStore.indexLine(put: w.summary))
        state.withLock { $0[id] = w.summary }
    }
}

/// History errors a user can act on.
public enum StoreError: Error, Sendable, CustomStringConvertible {
    case notFound(WorkoutID)
    case notInTrash(WorkoutID)
    case damaged(String, String)

    public var code: String {
        switch self {
        case .notFound: return "not_found"
        case .notInTrash: return "not_in_trash"
        case .damaged: return "damaged_file"
        }
    }

    public var description: String {
        switch self {
        case .notFound(let id): return "no saved workout \(id) (see `workoutctl list`)"
        case .notInTrash(let id): return "workout \(id) is not in the trash"
        case .damaged(let path, let why): return "\(path): \(why)"
        }
    }
}
