import Glibc
import Synchronization
import WorkoutCore

/// This machine's index of the history folder (`index.jsonl` in the state directory,
/// `IndexRecord`), read at start-up. It is a cache: the files are the truth. `HistorySync`
/// compares it with the folder (names and stamps) right after start-up and whenever files
/// change, and reads only what differs. An index left in the history folder by an earlier
/// version (the data directory held both) is taken over: its summaries are kept, stamped from
/// the files they name, written to the state directory, and the old file removed.
enum HistoryIndex {
    /// What start-up read: the catalog, the index's line count, and whether it must be written
    /// whole (taken over from the history folder, lines without stamps, or many more lines than
    /// versions) — done on the sync queue (`compactIndexIfLarge`), not before the daemon answers.
    struct Loaded {
        var catalog: HistoryCatalog
        var lines: Int
        var rewrite: Bool
        /// The index in the history folder to remove once the new one is written.
        var legacy: String?
    }

    static func load(_ paths: Paths) -> Loaded {
        var legacy: String?
        var bytes: [UInt8]
        if let b = try? readFile(paths.indexFile, links: .refuse) {
            bytes = b
        } else if paths.legacyIndexFile != paths.indexFile, let b = try? readFile(paths.legacyIndexFile) {
            bytes = b
            legacy = paths.legacyIndexFile
        } else {
            bytes = []
        }
        var entries: [String: IndexEntry] = [:]
        var lineCount = 0
        for record in IndexRecord.parseAll(bytes, pieces: IndexRecord.threads(for: bytes.count)) {
            lineCount += 1
            switch record {
            case .put(let e): entries[e.file] = e
            case .del(let file): entries[file] = nil
            }
        }
        var unstamped = false
        var versions: [WorkoutVersion] = []
        versions.reserveCapacity(entries.count)
        for e in entries.values {
            var stamp = e.stamp
            if stamp == nil {
                unstamped = true
                stamp = HistoryStore.stamp(paths.workoutsDir + "/" + e.file)
            }
            guard let stamp else { continue }  // its file is gone
            versions.append(WorkoutVersion(file: e.file, summary: e.summary, revision: e.revision, imported: e.imported, stamp: stamp))
        }
        // A torn last line (a crash mid-append) is cut now: nothing is ever appended to it.
        if legacy == nil, let last = bytes.lastIndex(of: 10).map({ $0 + 1 }) ?? (bytes.isEmpty ? nil : 0), last < bytes.count {
            _ = truncate(paths.indexFile, off_t(last))
        }
        let catalog = HistoryCatalog(versions)
        return Loaded(catalog: catalog, lines: lineCount, rewrite: legacy != nil || unstamped || lineCount > 2 * versions.count + 1000, legacy: legacy)
    }

    /// Replaces the index with one line per version (atomically).
    static func write(_ catalog: HistoryCatalog, to path: String) throws {
        let lines = Array(catalog.versions.values).sorted(byKey: { ($0.summary.startedAt, $0.file) }, <)
            .map(IndexRecord.line(put:)).joined()
        try AtomicFile.write(Array(lines.utf8), to: path)
    }
}

extension HistoryStore {
    /// Writes the index whole when start-up asked for it, or when it holds many more lines than
    /// versions (every change appends a line; a shared folder changes often). Called on the
    /// sync queue.
    func compactIndexIfLarge() {
        loaded.indexLines.withLock { index in
            let snapshot = loaded.state.withLock { $0 }
            guard index.rewrite || index.lines > 2 * snapshot.versions.count + 1000,
                  (try? HistoryIndex.write(snapshot, to: paths.indexFile)) != nil else { return }
            index.lines = snapshot.versions.count
            index.rewrite = false
            if let legacy = index.legacy { unlink(legacy) }
            index.legacy = nil
        }
    }
}

extension HistoryStore {
    /// Writes the index now if start-up asked for it to be written whole and it is not yet.
    func finishIndexRewrite() {
        guard loaded.indexLines.withLock({ $0.rewrite }) else { return }
        compactIndexIfLarge()
    }
}

/// The index file as the store appends to it (`LoadedIndex.indexLines`).
struct IndexState: Sendable {
    var lines: Int
    var rewrite: Bool
    var legacy: String?
}

/// The catalog read from the index, and the index file's state.
final class LoadedIndex: Sendable {
    let state: Mutex<HistoryCatalog>
    /// Lines in the index file (`compactIndexIfLarge`). Held while the index is written and the
    /// catalog changed with it (then `state` is taken inside), so a compaction never misses a
    /// line.
    let indexLines: Mutex<IndexState>

    /// Temporary files of a killed daemon removed before the index was read.
    let removed: StaleTemporaryFiles.Removed

    init(_ loaded: HistoryIndex.Loaded, removed: StaleTemporaryFiles.Removed) {
        self.removed = removed
        state = Mutex(loaded.catalog)
        indexLines = Mutex(IndexState(lines: loaded.lines, rewrite: loaded.rewrite, legacy: loaded.legacy))
    }
}

/// How far the store has read its history.
enum IndexPhase: Sendable {
    /// Not yet: only what start-up needs, from a valid `StartupIndex` (nil: none valid; the
    /// first question reads the index).
    case reading(StartupIndex?)
    case loaded(LoadedIndex)
}

extension HistoryStore {
    /// How many workouts are listed: from the `StartupIndex` until the catalog is read.
    public var count: Int {
        switch phase.withLock({ $0 }) {
        case .reading(let s?): return s.workouts.count
        case .reading(nil), .loaded: return loaded.state.withLock { $0.listed.count }
        }
    }

    /// The listed workouts as streaks and habits count them, oldest first (but `excluding`):
    /// from the `StartupIndex` until the catalog is read, so that start-up's streak line and
    /// risk checks never wait for the index.
    public func streakWorkouts(excluding id: WorkoutID? = nil) -> [StreakWorkout] {
        if id == nil, case .reading(let s?) = phase.withLock({ $0 }) { return s.workouts }
        return summaries { $0.id == id ? nil : StreakWorkout($0, utcOffset: nil) }
    }

    /// Writes the `StartupIndex` when the one on disk is not taken from the index as it is now
    /// (an append since, or none valid at start-up), after the index itself if start-up asked
    /// for it to be written whole. Called once the catalog is read (on the sync queue) and when
    /// the daemon stops; a daemon stopped before it read the catalog, with a valid one on disk,
    /// has nothing to write and reads nothing.
    public func writeStartupIndexIfStale() {
        if case .reading(.some) = phase.withLock({ $0 }) { return }
        let loaded = self.loaded
        finishIndexRewrite()
        loaded.indexLines.withLock { _ in  // no append meanwhile: the stamp is the index's as listed
            guard let now = HistoryStore.stamp(paths.indexFile) else { return }
            if startupStamp.withLock({ $0 }) == now { return }
            let workouts = summaries { StreakWorkout($0, utcOffset: nil) }
            do {
                try AtomicFile.write(StartupIndex(indexStamp: now, workouts: workouts).encoded(), to: paths.startupIndexFile)
                startupStamp.withLock { $0 = now }
            } catch {
                // A cache: the next start reads the index instead.
            }
        }
    }
}
