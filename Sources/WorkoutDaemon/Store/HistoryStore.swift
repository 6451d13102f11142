import Glibc
import Synchronization
import WorkoutCore

/// Saved workouts: one native file per workout under the history folder's `workouts/`
/// (`historyDir`, which a sync engine may share between machines), and this machine's index of
/// them (`index.jsonl` in the state directory: one line per change) so listing and start-up
/// read one small file instead of every workout. What is listed is the `HistoryCatalog`: one
/// version of each workout, copies of one imported recording once. Deleting moves a workout's
/// files to `trash/` (undoable with `undelete`). Files changed by another hand (a sync engine)
/// are applied by `HistorySync` (`HistoryStore+Sync.swift`). Thread-safe: the saver, the bulk
/// worker, the sync queue and the main loop all use it.
public final class HistoryStore: Sendable {
    public let paths: Paths
    /// This machine: its tag goes into new IDs and every revision written here.
    public let machine: MachineTag
    /// This machine's host name, in revisions (for people reading logs).
    let host: String
    /// The wall clock that dates revisions.
    let clock: @Sendable () -> Double
    /// The catalog and the index file's state: read from the index at the first use after
    /// start-up (`loaded`), until then only the `StartupIndex`.
    let phase: Mutex<IndexPhase>
    /// Held while the index is read, so that every other user waits for the one read.
    let reading = Mutex<Void>(())
    /// The stamp of the index file the `StartupIndex` on disk was taken from (nil: none valid).
    let startupStamp: Mutex<FileStamp?>
    /// Names in `workouts/` this daemon is writing or moving now: the sync watcher leaves them
    /// to the writer (which records them itself).
    let busy = Mutex<Set<String>>([])
    /// The workout an import saved last (`RecentWorkout`), for an export right after it.
    let recent = Mutex<RecentWorkout?>(nil)
    /// Test hook: when this returns an error, writes fail with it (full disk, read-only ...).
    let faultInjector: (@Sendable () -> SystemError?)?
    /// Test hook: runs in a save once the workout's temporary file is written, before its rename.
    let beforeRename: (@Sendable () -> Void)?

    public init(paths: Paths, machine: MachineTag, host: String = "", clock: @escaping @Sendable () -> Double = HistoryStore.wallClock,
                faultInjector: (@Sendable () -> SystemError?)? = nil, beforeRename: (@Sendable () -> Void)? = nil) throws {
        self.paths = paths
        self.machine = machine
        self.host = host
        self.clock = clock
        self.faultInjector = faultInjector
        self.beforeRename = beforeRename
        try PrivateDirectory.prepareOwned(paths.stateDir)
        try PrivateDirectory.prepareOwned(paths.historyDir)
        try makeDirectories(paths.workoutsDir)
        try makeDirectories(paths.trashDir)
        let startup = StartupIndex.read(paths.startupIndexFile, index: paths.indexFile)
        phase = Mutex(.reading(startup))
        startupStamp = Mutex(startup?.indexStamp)
    }

    /// The catalog and the index's line count, read from the index by the first caller (the
    /// sync's first look, right after start-up, off the loop); every other caller meanwhile
    /// waits for that read.
    var loaded: LoadedIndex {
        if case .loaded(let l) = phase.withLock({ $0 }) { return l }
        return reading.withLock { _ in
            if case .loaded(let l) = phase.withLock({ $0 }) { return l }
            // Before any write of this daemon (each asks `loaded` first), so none of its own is taken for stale.
            let removed = HistoryStore.removeStaleTemporaryFiles(paths)
            let l = LoadedIndex(HistoryIndex.load(paths), removed: removed)
            phase.withLock { $0 = .loaded(l) }
            return l
        }
    }

    /// Temporary files of a killed daemon removed when the index was read (`StaleTemporaryFiles`):
    /// `workouts/` is listed then, off the loop, not before the daemon answers.
    public var removedAtStartup: StaleTemporaryFiles.Removed { loaded.removed }

    static func removeStaleTemporaryFiles(_ paths: Paths) -> StaleTemporaryFiles.Removed {
        var removed = StaleTemporaryFiles.Removed()
        StaleTemporaryFiles.remove(in: paths.workoutsDir, removed: &removed)
        // The index and the machine tag (both in the state directory) are written by AtomicFile too.
        var byDirectory: [String: Set<String>] = [:]
        for file in [paths.indexFile, paths.startupIndexFile, paths.machineFile] {
            guard let slash = file.lastIndex(of: "/") else { continue }
            byDirectory[String(file[..<slash]), default: []].insert(String(file[file.index(after: slash)...]))
        }
        for (dir, names) in byDirectory.sorted(by: { $0.key < $1.key }) {
            StaleTemporaryFiles.remove(in: dir, targets: names, removed: &removed)
        }
        return removed
    }

    /// The wall clock (revisions are dated by it).
    public static func wallClock() -> Double { SystemClock().wall() }

    /// The path of a workout's own file (`<id>.json`), where saves and edits write.
    public func path(of id: WorkoutID) -> String { paths.workoutsDir + "/" + HistoryFileName.of(id) }

    /// The path of the file listed for a workout (its own file, or a sync engine's conflict
    /// copy holding the newer edit).
    func listedPath(of id: WorkoutID) -> String {
        paths.workoutsDir + "/" + (loaded.state.withLock { $0.file(of: id) } ?? HistoryFileName.of(id))
    }

    /// When and where a file of `id` written now was written, and the versions of it held here
    /// that it replaces (an edit supersedes every version it has seen: docs/storage.md). The
    /// time is kept to the millisecond, as the file and the revision's `key` have it.
    func newRevision(of id: WorkoutID) -> Revision {
        Revision(editedAt: (clock() * 1000).rounded() / 1000, machine: machine, host: host, replaces: loaded.state.withLock { $0.lineage(of: id) })
    }

    /// Writes a workout durably, then records it in the index. Safe from any thread.
    public func save(_ workout: Workout) throws {
        let revision = newRevision(of: workout.id)
        try write(workout.summary, source: workout.source, revision: revision, WorkoutFile.encode(workout, revision: revision))
    }

    /// The same for a workout just recorded (encoded straight from the recorder's point store).
    public func save(_ workout: RecordedWorkout) throws {
        let revision = newRevision(of: workout.id)
        try write(workout.summary, source: workout.source, revision: revision, WorkoutFile.encode(workout, revision: revision))
    }

    private func write(_ summary: WorkoutSummary, source: String, revision: Revision, _ bytes: @autoclosure () -> [UInt8]) throws {
        forgetRecent()
        if let e = faultInjector?() { throw e }
        let file = HistoryFileName.of(summary.id)
        try whileBusy([file]) {
            try AtomicFile.write(bytes(), to: path(of: summary.id)) { beforeRename?() }
            guard let stamp = HistoryStore.stamp(path(of: summary.id)) else { throw SystemError.last("stat \(path(of: summary.id))") }
            try record([WorkoutVersion(file: file, summary: summary, revision: revision, imported: HistoryStore.isImported(source), stamp: stamp)],
                       sync: true)
        }
    }

    /// Runs `body` with `files` marked as being written by this daemon.
    func whileBusy<T>(_ files: [String], _ body: () throws -> T) throws -> T {
        busy.withLock { $0.formUnion(files) }
        defer { busy.withLock { $0.subtract(files) } }
        return try body()
    }

    /// Lists versions just written (index lines appended in one write, then the catalog).
    func record(_ versions: [WorkoutVersion], sync: Bool) throws {
        var lines = ""
        for v in versions { lines += IndexRecord.line(put: v) }
        _ = try changeIndexed(lines, lineCount: versions.count, sync: sync) { c in for v in versions { _ = c.put(v) } }
    }

    /// Appends `text` (`lineCount` lines) to the index (with an fsync when `sync`), then applies
    /// the same change to the catalog; one at a time.
    func changeIndexed<T>(_ text: String, lineCount: Int, sync: Bool, _ change: (inout HistoryCatalog) -> T) throws -> T {
        if let e = faultInjector?() { throw e }
        return try loaded.indexLines.withLock { index in
            if lineCount > 0 {
                let fd = open(paths.indexFile, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
                guard fd >= 0 else { throw SystemError.last("open \(paths.indexFile)") }
                defer { close(fd) }
                var st = stat()
                guard fstat(fd, &st) == 0 else { throw SystemError.last("stat \(paths.indexFile)") }
                var written = 0
                var failure: SystemError?
                Array(text.utf8).withUnsafeBytes { raw in
                    do throws(SystemError) { try writeAll(fd, raw, progress: &written) } catch { failure = SystemError("write \(paths.indexFile)", code: error.code) }
                }
                if let failure {
                    // Whole lines or nothing: what a full disk let through is cut off again, so the
                    // next append does not glue its line onto half of this one.
                    if written > 0 { _ = ftruncate(fd, st.st_size) }
                    throw failure
                }
                if sync { guard fsync(fd) == 0 else { throw SystemError.last("fsync \(paths.indexFile)") } }
                index.lines += lineCount
            }
            return loaded.state.withLock { change(&$0) }
        }
    }

    /// The stamp of the file at `path` (nil: gone, or not a regular file: a symbolic link is
    /// not followed, so a link in the history or an import folder is never a workout).
    public static func stamp(_ path: String) -> FileStamp? {
        var st = stat()
        guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        return stamp(st)
    }

    /// Whether `path` is a symbolic link (skipped with a warning naming it).
    public static func isLink(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFLNK
    }

    /// A folder of the history opened without following a link (`trash` replaced by a link
    /// to elsewhere is refused, so `delete` never moves a workout out of the history).
    static func openFolder(_ path: String) throws(SystemError) -> Int32 {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ELOOP || errno == ENOTDIR { throw SystemError("open \(path) (a symbolic link or not a folder: refused)", code: errno) }
            throw SystemError.last("open \(path)")
        }
        return fd
    }

    static func stamp(_ st: stat) -> FileStamp {
        FileStamp(inode: UInt64(st.st_ino), size: Int64(st.st_size), modifiedSeconds: Int64(st.st_mtim.tv_sec), modifiedNanoseconds: Int64(st.st_mtim.tv_nsec))
    }

    static func isImported(_ source: String) -> Bool { source.hasPrefix("imported:") }

    /// Every listed summary, oldest first.
    public func summaries() -> [WorkoutSummary] {
        loaded.state.withLock { Array($0.listed.values) }.sorted(byKey: \.startedAt, <)
    }

    /// What `transform` makes of every listed summary (nil: left out), oldest first. A caller
    /// that needs a few members copies those under the lock instead of whole summaries of ~50
    /// members: start-up's streak line and risk check copied and sorted 10,000 summaries twice
    /// (BENCHMARKS.md, start-up with 10,000 workouts).
    public func summaries<T>(_ transform: (WorkoutSummary) -> T?) -> [T] {
        loaded.state.withLock { s in
            var picked: [(startedAt: Double, value: T)] = []
            picked.reserveCapacity(s.listed.count)
            for summary in s.listed.values {
                if let v = transform(summary) { picked.append((summary.startedAt, v)) }
            }
            return picked
        }.sorted(byKey: \.startedAt, <).map(\.value)
    }

    public func summary(_ id: WorkoutID) -> WorkoutSummary? { loaded.state.withLock { $0.listed[id] } }

    /// The newest listed workout (the latest start; of equal starts the greater ID): what the
    /// ID `last` names.
    public func newestID() -> WorkoutID? {
        loaded.state.withLock { s in
            s.listed.values.max { ($0.startedAt, $0.id) < ($1.startedAt, $1.id) }?.id
        }
    }

    /// The workout deleted most recently (the trash file changed last: a rename changes its
    /// ctime): what `undelete last` restores.
    public func lastDeletedID() -> WorkoutID? {
        var newest: (ctime: timespec, id: WorkoutID)?
        for name in directoryEntries(paths.trashDir) ?? [] {
            guard case .workout(let id) = HistoryFileName(name) else { continue }
            var st = stat()
            guard stat(paths.trashDir + "/" + name, &st) == 0 else { continue }
            let t = st.st_ctim
            if let n = newest, (n.ctime.tv_sec, n.ctime.tv_nsec, n.id) >= (t.tv_sec, t.tv_nsec, id) { continue }
            newest = (t, id)
        }
        return newest?.id
    }

    public func list(_ f: ListFilter) -> [WorkoutSummary] {
        var out = summaries().filter { s in
            (f.from.map { s.startedAt >= $0 } ?? true) && (f.to.map { s.startedAt < $0 + 86400 } ?? true)
                && (f.activity.map { s.activity == $0 } ?? true)
        }
        if let limit = f.limit, out.count > limit { out = Array(out.suffix(limit)) }
        return out
    }

    /// A saved workout's summary, source and events without its points (`show`): only the
    /// file's beginning is read (its head and events), so a workout of millions of points costs
    /// no more than one of a hundred.
    public func loadHead(_ id: WorkoutID) throws -> WorkoutFile.Head {
        if let w = recentWorkout(id) { return WorkoutFile.Head(summary: w.summary, source: w.source, revision: nil, events: w.events) }
        let path = listedPath(of: id)
        do { return try HistoryReader.read(path: path, part: .summaryAndEvents).head } catch {
            switch error {
            case .gone: throw SystemError("open \(path)", code: ENOENT)
            case .system(let e): throw e
            case .incomplete, .invalid: throw StoreError.damaged(path, error.description)
            }
        }
    }

    public func load(_ id: WorkoutID) throws -> Workout {
        if let w = recentWorkout(id) { return w }
        let path = listedPath(of: id)
        let bytes = try readFile(path, links: .refuse)
        do { return try WorkoutFile.decode(bytes) } catch {
            throw StoreError.damaged(path, error.description)
        }
    }

    /// Most points a workout's page is drawn from (`loadForPage`): a day at one a second and
    /// more is drawn whole; beyond, every n-th point.
    public static let pagePoints = 200_000

    /// A saved workout for its page: the summary, events and series whole, the points thinned to
    /// at most `maxPoints` (every `every`-th). The file is read through a window
    /// (`ReadAheadFile`) and decoded as it is read, so a file of millions of points costs the
    /// window and the points kept, not the file and every point (issue: a 184 MB file's page
    /// took 917 MB). A file the fast decoder cannot read is loaded whole, then thinned.
    public func loadForPage(_ id: WorkoutID, maxPoints: Int = HistoryStore.pagePoints) throws -> (workout: Workout, every: Int) {
        if let w = recentWorkout(id) { return WorkoutFile.thinned(w, maxPoints: maxPoints) }
        let path = listedPath(of: id)
        let file = try ReadAheadFile(path, links: .refuse)
        let thinning = WorkoutFile.Thinning(maxPoints: maxPoints, consumed: { offset in file.advance(to: offset) })
        let read: (workout: Workout, every: Int)?
        do { read = try file.withBytes { try WorkoutFile.decodeThinned($0, thinning: thinning) } } catch {
            throw StoreError.damaged(path, "\(error)")
        }
        if let read { return read }
        return WorkoutFile.thinned(try load(id), maxPoints: maxPoints)
    }

    /// Moves the workout to the trash (undoable): its file, the versions a sync engine kept
    /// aside, and the copies of it hidden from the list, so that none of them takes its place
    /// here or on another machine sharing the folder (where the files disappear as well).
    public func delete(_ id: WorkoutID) throws {
        guard summary(id) != nil else { throw StoreError.notFound(id) }
        forgetRecent()
        let files = loaded.state.withLock { $0.files(of: id) }
        try whileBusy(files) {
            var moved: [(String, WorkoutID)] = []
            var failure: SystemError?
            let from = try HistoryStore.openFolder(paths.workoutsDir)
            defer { close(from) }
            let to = try HistoryStore.openFolder(paths.trashDir)
            defer { close(to) }
            for f in files {
                guard let owner = HistoryFileName(f).workoutID else { continue }
                if renameat(from, f, to, f) == 0 || errno == ENOENT {
                    moved.append((f, owner))
                } else if failure == nil {
                    failure = SystemError.last("move \(f) to trash")
                }
            }
            if !moved.isEmpty {
                _ = try changeIndexed(moved.map { IndexRecord.line(delete: $0.0) }.joined(), lineCount: moved.count, sync: true) { c in
                    for (f, _) in moved { _ = c.remove(file: f) }
                }
            }
            if let failure { throw failure }
        }
    }

    /// Brings a deleted workout back from the trash.
    public func undelete(_ id: WorkoutID) throws {
        let file = HistoryFileName.of(id)
        let trashed = paths.trashDir + "/" + file
        guard access(trashed, F_OK) == 0 else { throw StoreError.notInTrash(id) }
        forgetRecent()
        let head: WorkoutFile.Head
        do { head = try HistoryReader.head(path: trashed) } catch { throw StoreError.damaged(trashed, error.description) }
        try whileBusy([file]) {
            let from = try HistoryStore.openFolder(paths.trashDir)
            defer { close(from) }
            let to = try HistoryStore.openFolder(paths.workoutsDir)
            defer { close(to) }
            guard renameat(from, file, to, file) == 0 else { throw SystemError.last("restore \(id) from trash") }
            guard let stamp = HistoryStore.stamp(path(of: id)) else { throw SystemError.last("stat \(path(of: id))") }
            try record([WorkoutVersion(file: file, summary: head.summary, revision: head.revision, imported: HistoryStore.isImported(head.source),
                                       stamp: stamp)], sync: true)
        }
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
