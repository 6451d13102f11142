import Glibc
import WorkoutCore

/// Files changed in the history folder by another hand (a sync engine, a person), as
/// `HistorySync` found them, applied to the catalog and the index.
extension HistoryStore {
    /// What a look at one file found.
    enum Observation: Sendable {
        case version(WorkoutVersion)
        /// Not a readable workout (as `stamp` says): unlisted until it changes.
        case unreadable(FileStamp, reason: String)
        case gone
    }

    /// The stamp the catalog has for `file` (read, or found unreadable), nil when unknown.
    func knownStamp(_ file: String) -> FileStamp? {
        loaded.state.withLock { $0.versions[file]?.stamp ?? $0.unreadable[file] }
    }

    /// Files to read and files gone, from the names and stamps of a whole folder.
    func changes(in found: [String: FileStamp]) -> (read: [String], gone: [String]) {
        loaded.state.withLock { $0.changes(in: found) }
    }

    /// Whether this daemon is writing or moving `file` itself.
    func isBusy(_ file: String) -> Bool { busy.withLock { $0.contains(file) } }

    /// Applies what was observed (files this daemon is writing itself are left to it) and
    /// returns what changed in the list, with the version now listed for each event.
    func apply(_ observed: [(file: String, Observation)]) -> [(HistoryCatalogEvent, WorkoutVersion?)] {
        let writing = busy.withLock { $0 }
        let relevant = observed.filter { !writing.contains($0.file) }
        guard !relevant.isEmpty else { return [] }
        var text = ""
        var lines = 0
        for (file, o) in relevant {
            switch o {
            case .version(let v): text += IndexRecord.line(put: v); lines += 1
            case .gone, .unreadable:
                if HistoryFileName(file).workoutID != nil { text += IndexRecord.line(delete: file); lines += 1 }
            }
        }
        let changed: [(HistoryCatalogEvent, WorkoutVersion?)]
        do {
            // The index is a cache here: not synced (the files are, by their writer), and
            // rebuilt from the files should it lose these lines.
            changed = try changeIndexed(text, lineCount: lines, sync: false) { c in
                var events: [HistoryCatalogEvent] = []
                for (file, o) in relevant {
                    switch o {
                    case .version(let v): if c.versions[file] != v { events += c.put(v) }
                    case .unreadable(let stamp, _): events += c.markUnreadable(file, stamp)
                    case .gone: events += c.remove(file: file)
                    }
                }
                return events.map { e in (e, HistoryStore.shown(e, in: c)) }
            }
        } catch {
            return []  // the index could not be written: the next look tries again
        }
        if !changed.isEmpty { forgetRecent() }
        return changed
    }

    /// The version listed (or kept) for the workout an event is about.
    private static func shown(_ e: HistoryCatalogEvent, in c: HistoryCatalog) -> WorkoutVersion? {
        let id: WorkoutID
        switch e {
        case .listed(let i), .changed(let i), .unlisted(let i), .conflict(let i, _, _), .duplicateHidden(let i, _): id = i
        }
        return c.file(of: id).flatMap { c.versions[$0] }
    }
}
