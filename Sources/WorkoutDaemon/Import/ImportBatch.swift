import Glibc
import WorkoutCore

/// One `import` request as the bulk worker runs it: file after file (memory bounded by one
/// file), results grouped so that each group costs one sync of the data and one of the index
/// (`HistoryStore.commit`), reported per file once their group is durable. Stops after the
/// current file when the client cancels.
struct ImportBatch: Sendable {
    /// One file to import.
    struct Item: Sendable {
        enum Source: Sendable {
            /// Opened by the client and passed over the socket (owned: closed after reading).
            case descriptor(Int32)
            /// A path the daemon opens itself (the older request form).
            case path(String)
        }
        var source: Source
        /// The name shown in results and logs, and kept in the workout's source.
        var file: String
        var activity: ActivityType?
        var title: String?
    }

    /// What became of one file (one result per workout of the file, or one error).
    struct Result: Sendable {
        enum Kind: String, Sendable { case imported, duplicate, error }
        var file: String
        var kind: Kind
        var id: WorkoutID?
        var activity: ActivityType?
        var error: String?
        /// What the user should know about the file (`ImportedWorkout.warnings`); empty: nothing.
        var warnings: [String] = []

        /// `{"file","id","result","activity"?,"error"?,"warnings"?}`, as an `import` event line with `event` first.
        func json(event: Bool = false) -> JSON {
            var o = JSONObject(event ? [("event", "import")] : [])
            o["file"] = .string(file); o["id"] = .string(id?.rawValue); o["result"] = .string(kind.rawValue)
            if let activity { o["activity"] = .string(activity.rawValue) }
            if let error { o["error"] = .string(error) }
            if !warnings.isEmpty { o["warnings"] = .array(warnings.map { .string($0) }) }
            return .object(o)
        }
    }

    var items: [Item]
    var activity: ActivityType?
    var settings: MetricsSettings
    /// The activity of a file that names none (the configured `defaultActivity`).
    var defaultActivity: ActivityType = .other

    /// A group is committed when it holds this many new workouts...
    static let groupSize = 64
    /// ...or its first result is this old (seconds), so progress keeps flowing on slow files.
    static let groupAge = 0.25

    /// Runs the batch on the calling (worker) thread. `report` gets each committed group's
    /// results in file order. Returns whether it stopped early (cancelled).
    func run(store: HistoryStore, cancel: CancelFlag, report: ([Result]) -> Void) -> Bool {
        var results: [Result] = []
        var written: [WorkoutSummary] = []
        var files: [Int32] = []
        var last: Workout?
        var groupStart: Double?
        var cancelled = false
        var index = 0
        func flush() {
            guard !results.isEmpty else { return }
            defer { files.removeAll(keepingCapacity: true) }
            defer { last = nil }
            do { try store.commit(written, files: files, recent: last) } catch {
                // Not durable, so not listed: the files stay unlisted and each is reported failed.
                for k in results.indices where results[k].kind == .imported {
                    unlink(store.path(of: results[k].id!))
                    results[k] = Result(file: results[k].file, kind: .error, id: nil, activity: nil, error: "saving: \(error)")
                }
            }
            report(results)
            results.removeAll(keepingCapacity: true)
            written.removeAll(keepingCapacity: true)
            groupStart = nil
        }
        while index < items.count {
            if cancel.isSet { cancelled = true; break }
            let item = items[index]
            index += 1
            if groupStart == nil { groupStart = EventLoop.monotonic() }
            // Only the request's last file is kept for an export after it: holding a workout
            // across files keeps malloc from reusing its memory (twice the page faults).
            results += importOne(item, store: store, pending: &written, files: &files, last: &last, keep: index == items.count)
            if written.count >= ImportBatch.groupSize || EventLoop.monotonic() - (groupStart ?? 0) >= ImportBatch.groupAge { flush() }
        }
        // Descriptors of files not reached (cancelled) are closed unread.
        while index < items.count {
            if case .descriptor(let fd) = items[index].source { close(fd) }
            index += 1
        }
        flush()
        return cancelled
    }

    /// Reads, parses and writes one file; nothing is written unless the whole file parses.
    /// With `keep`, `last` gets the workout written last (kept in memory after the commit: `RecentWorkout`).
    func importOne(_ item: Item, store: HistoryStore, pending: inout [WorkoutSummary], files: inout [Int32],
                   last: inout Workout?, keep: Bool) -> [Result] {
        func failure(_ why: String) -> [Result] { [Result(file: item.file, kind: .error, id: nil, activity: nil, error: why)] }
        let bytes: [UInt8]
        do {
            let fd: Int32
            switch item.source {
            case .descriptor(let d): fd = d
            case .path(let p): fd = try ImportReader.open(path: p)
            }
            defer { close(fd) }
            bytes = try ImportReader.read(fd)
        } catch { return failure(error.description) }
        let name = String(item.file.split(separator: "/").last ?? Substring(item.file))
        let tracks: [Importer.Track]
        do { tracks = try ImportBatch.tracks(bytes, fileName: name) } catch { return failure(error.description) }
        var out: [Result] = []
        for track in tracks {
            do {
                var source = "imported:" + name
                if let title = item.title, !title.isEmpty { source += " (" + title + ")" }
                let imported = try Importer.imported(from: track, activity: activity ?? item.activity, defaultActivity: defaultActivity,
                                                     id: UInt16.random(in: 0...UInt16.max), settings: settings, source: source)
                let w = imported.workout
                if let dup = store.duplicate(of: w.summary) ?? pending.first(where: { Importer.isDuplicate(w.summary, of: $0) }) {
                    out.append(Result(file: item.file, kind: .duplicate, id: dup.id, activity: dup.activity, error: nil))
                    continue
                }
                files.append(try store.writeUnsynced(w))
                if keep { last = w }
                pending.append(w.summary)
                out.append(Result(file: item.file, kind: .imported, id: w.id, activity: w.activity, error: nil, warnings: imported.warnings))
            } catch let e as Importer.Failure {
                out.append(Result(file: item.file, kind: .error, id: nil, activity: nil, error: e.description))
            } catch {
                out.append(Result(file: item.file, kind: .error, id: nil, activity: nil, error: "saving: \(error)"))
            }
        }
        return out
    }

    /// The tracks of a file: one per session (a multisport FIT file has several); gzip is undone.
    static func tracks(_ bytes: [UInt8], fileName: String) throws(Importer.Failure) -> [Importer.Track] {
        try Importer.readAll(bytes, fileName: fileName)
    }
}
