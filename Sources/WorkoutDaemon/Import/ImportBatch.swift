import Dispatch
import Glibc
import Synchronization
import WorkoutCore

/// One `import` request as the bulk worker runs it: file after file, each read while the ones
/// before it are measured and written (`ImportStages`: memory bounded by a few files), results
/// grouped so that each group costs one sync of the data and one of the index
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
            /// A file an import folder holds: opened without following a link (a link in the
            /// folder may lead anywhere, /etc/shadow included).
            case folderFile(String)
        }
        var source: Source
        /// The name shown in results and logs, and kept in the workout's source.
        var file: String
        var activity: ActivityType?
        var title: String?
        /// Strava's notes, gear and perceived effort for the file.
        var notes: String? = nil
        var gear: String? = nil
        var effort: Int? = nil
    }

    /// What became of one file (one result per workout of the file, or one error).
    struct Result: Sendable {
        typealias Kind = ImportResultReply.Kind
        var file: String
        var kind: Kind
        var id: WorkoutID?
        var activity: ActivityType?
        var error: String?
        /// What the user should know about the file (`ImportedWorkout.warnings`); empty: nothing.
        var warnings: [String] = []

        /// `{"file","id","result","activity"?,"error"?,"warnings"?}`, as an `import` event line with `event` first.
        func json(event: Bool = false) -> JSON {
            ImportResultReply(file: file, kind: kind, id: id, activity: activity, error: error, warnings: warnings).json(event: event)
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
    /// This batch's group age (`groupAge`; tests make groups by size only).
    var maxGroupAge = ImportBatch.groupAge

    /// Runs the batch: files are read and decoded on the calling (worker) thread, one after
    /// another; the `stages` measure (on their measurers in turn), write and commit the ones
    /// before meanwhile. The write stage takes the measured files in file order, so results,
    /// duplicates and groups are those of one file after another. `report` gets each committed
    /// group's results in file order, on the calling thread. Returns whether it stopped early
    /// (cancelled), once everything it wrote is committed.
    func run(store: HistoryStore, stages: ImportStages, cancel: CancelFlag, report: ([Result]) -> Void) -> Bool {
        let groups = CommitGroups(store: store, stages: stages, maxAge: maxGroupAge)
        let measuring = Measuring(batch: self, store: store)
        var cancelled = false
        var index = 0
        while index < items.count {
            if cancel.isSet { cancelled = true; break }
            let item = items[index]
            let measurer = stages.measure[index % stages.measure.count]
            index += 1
            // Only the request's last file is kept for an export after it: holding a workout
            // across files keeps malloc from reusing its memory (twice the page faults).
            let keep = index == items.count
            let decoded = ImportBatch.decode(item)
            let handoff = Handoff()
            let accepted = measurer.submit {
                // Cancelled while it waited: dropped unmeasured, like the files not read.
                guard !cancel.isSet else { decoded.close(); handoff.put(.cancelled); return }
                handoff.put(measuring.measure(item, decoded))
            }
            // Refused (the daemon is stopping): the write stage must not wait for it.
            if !accepted { decoded.close(); handoff.put(.cancelled) }
            // Submitted after its measuring: the write stage waits for it, never the other way.
            stages.write.submit {
                for step in measuring.steps(item, handoff.take()) { groups.take(step, keep: keep) }
            }
            groups.committed().forEach(report)
        }
        // Descriptors of files not reached (cancelled) are closed unread.
        while index < items.count {
            if case .descriptor(let fd) = items[index].source { close(fd) }
            index += 1
        }
        stages.write.submit { groups.flush() }
        stages.drain()
        groups.committed().forEach(report)
        return cancelled
    }

    /// One file's measuring, from its measurer to the write stage, which waits for it.
    final class Handoff: Sendable {
        private let value = Mutex<Measured?>(nil)
        private let ready = DispatchSemaphore(value: 0)

        /// Called once, by the measurer.
        func put(_ measured: Measured) {
            value.withLock { $0 = measured }
            ready.signal()
        }

        /// Waits for `put`, and takes what it gave (the handoff holds nothing after).
        func take() -> Measured {
            ready.wait()
            return value.withLock { v in defer { v = nil }; return v ?? .cancelled }
        }
    }

    /// A file read and decoded: its tracks (one per session), a FIT activity to import
    /// straight from its file, or why not.
    enum Decoded: Sendable {
        case tracks([Importer.Track], fileName: String)
        /// Imported by the measuring stage without holding its records (`FITImport`): the
        /// file itself (its descriptor, closed once measured), or a gzip file's FIT inflated.
        case fit(ImportReader.FITSource, fileName: String)
        case failed(String)

        /// Closes what it holds open (a FIT file's descriptor).
        func close() {
            if case .fit(let source, _) = self { source.close() }
        }
    }

    /// Reads and decodes one file (closing a passed descriptor); a FIT file is only opened.
    static func decode(_ item: Item) -> Decoded {
        let bytes: [UInt8]
        let name = String(item.file.split(separator: "/").last ?? Substring(item.file))
        do {
            let fd: Int32
            switch item.source {
            case .descriptor(let d): fd = d
            case .path(let p): fd = try ImportReader.open(path: p)
            case .folderFile(let p): fd = try ImportReader.open(path: p, links: .refuse)
            }
            // Closed here unless a FIT file keeps it open for the measuring stage (refused or not).
            var keptOpen = false
            defer { if !keptOpen { Glibc.close(fd) } }
            if let fit = try ImportReader.fit(fd) { keptOpen = true; return .fit(fit, fileName: name) }
            bytes = try ImportReader.read(fd)
        } catch { return .failed(error.description) }
        do {
            if let inner = try Importer.fitInsideGzip(bytes) { return .fit(.bytes(FITBytes(inner)), fileName: name) }
            return .tracks(try ImportBatch.tracks(bytes, fileName: name), fileName: name)
        } catch { return .failed(error.description) }
    }

    /// A file as its measurer leaves it: its workouts (or each one's failure), why none, or
    /// nothing (the batch was cancelled before it was measured).
    enum Measured: Sendable {
        case workouts([Swift.Result<ImportedWorkout, Importer.Failure>])
        case failed(String)
        case cancelled
    }

    /// What the measuring stage hands the writer for one workout of a file, in file order.
    enum Step: Sendable {
        /// A result with nothing to write (an error or a duplicate).
        case result(Result)
        /// A measured workout to write, and its result once written.
        case write(RecordedWorkout, Result)
    }

    /// The measuring of a batch: each decoded file's tracks through the recorder
    /// (`Importer.imported`) on a measurer (`measure`), then duplicates found on the write stage
    /// in file order (`steps`); nothing is written unless the whole file parsed.
    final class Measuring: Sendable {
        private let batch: ImportBatch
        private let store: HistoryStore
        /// This batch's workouts so far, in file order (`steps`), for the duplicates within it
        /// (the store knows the committed ones). One whose write fails stays here: a later copy
        /// of it in the same batch is then reported as its duplicate (the failure came first).
        private let measured = Mutex<[WorkoutSummary]>([])

        init(batch: ImportBatch, store: HistoryStore) { self.batch = batch; self.store = store }

        /// Measures a decoded file (on a measurer, beside the other measurers): no duplicate
        /// is looked for yet (`steps`, in file order).
        func measure(_ item: Item, _ decoded: Decoded) -> Measured {
            let activity = batch.activity ?? item.activity
            var workouts: [Swift.Result<ImportedWorkout, Importer.Failure>] = []
            switch decoded {
            case .failed(let why): return .failed(why)
            case .tracks(let tracks, let name):
                for track in tracks {
                    workouts.append(Swift.Result { () throws(Importer.Failure) in
                        try Importer.imported(from: track, activity: activity, defaultActivity: batch.defaultActivity,
                                              id: UInt16.random(in: 0...UInt16.max), machine: store.machine, settings: batch.settings,
                                              source: "imported:" + name)
                    })
                }
            case .fit(let fit, let name):
                defer { fit.close() }
                do {
                    workouts = try FITImport.workouts(fit, fileName: name, activity: activity, defaultActivity: batch.defaultActivity,
                                                      settings: batch.settings, source: "imported:" + name,
                                                      machine: store.machine, suffix: { UInt16.random(in: 0...UInt16.max) }).map { .success($0) }
                } catch {
                    return .failed(error.description)
                }
            }
            return .workouts(workouts)
        }

        /// A measured file's steps, on the write stage in file order: each workout checked
        /// against the history and the batch's workouts before it (a duplicate is not written),
        /// the legs of a multisport file linked.
        func steps(_ item: Item, _ file: Measured) -> [Step] {
            let workouts: [Swift.Result<ImportedWorkout, Importer.Failure>]
            switch file {
            case .cancelled: return []
            case .failed(let why): return [.result(Result(file: item.file, kind: .error, id: nil, activity: nil, error: why))]
            case .workouts(let w): workouts = w
            }
            var out: [Step] = []
            var legs = MultisportLinker()
            for result in workouts {
                switch result {
                case .failure(let error):
                    out.append(.result(Result(file: item.file, kind: .error, id: nil, activity: nil, error: error.description)))
                case .success(let imported):
                    var w = imported.recorded
                    // Strava's activities.csv names the workout: its title and notes win over the file's own.
                    if let title = WorkoutAnnotation.cleaned(item.title) { w.summary.annotation.title = title }
                    if let notes = WorkoutAnnotation.cleaned(item.notes) { w.summary.annotation.notes = notes }
                    if let gear = WorkoutAnnotation.cleaned(item.gear) { w.summary.annotation.gear = gear }
                    if let effort = item.effort { w.summary.annotation.effort = effort }
                    let dup = store.duplicate(of: w.summary) ?? measured.withLock { m in
                        if let d = m.first(where: { Importer.isDuplicate(w.summary, of: $0) }) { return d }
                        m.append(w.summary)
                        return nil
                    }
                    if let dup {
                        legs.found(dup, leg: imported.leg)
                        out.append(.result(Result(file: item.file, kind: .duplicate, id: dup.id, activity: dup.activity, error: nil)))
                        continue
                    }
                    legs.link(&w.summary, leg: imported.leg)
                    out.append(.write(w, Result(file: item.file, kind: .imported, id: w.id, activity: w.activity, error: nil,
                                                warnings: imported.warnings)))
                }
            }
            return out
        }
    }

    /// The later stages of a batch: workouts written unsynced and grouped (`stages.write`), each
    /// group committed with one sync of the data and one of the index (`HistoryStore.commit`, on
    /// `stages.commit`) when it holds `groupSize` workouts or its first result is `groupAge` old;
    /// the committed groups' results wait in `committed` for the first stage to report. Only
    /// write jobs change the group.
    final class CommitGroups: Sendable {
        struct Group {
            var results: [Result] = []
            var files: [HistoryStore.Unsynced] = []
            var last: RecordedWorkout?
            var start: Double?
        }
        private let store: HistoryStore
        private let stages: ImportStages
        private let group = Mutex(Group())
        private let done = Mutex<[[Result]]>([])
        /// Measures a group's age.
        private let clock: any LoopClock

        private let maxAge: Double

        init(store: HistoryStore, stages: ImportStages, maxAge: Double = ImportBatch.groupAge, clock: any LoopClock = SystemClock()) {
            self.store = store; self.stages = stages; self.maxAge = maxAge; self.clock = clock
        }

        /// Adds one step's result to the group, writing its workout first.
        func take(_ step: Step, keep: Bool) {
            let full = group.withLock { g -> Bool in
                if g.start == nil { g.start = clock.monotonic() }
                switch step {
                case .result(let r): g.results.append(r)
                case .write(let w, let r):
                    do {
                        g.files.append(try store.writeUnsynced(w))
                        if keep { g.last = w }
                        g.results.append(r)
                    } catch {
                        g.results.append(Result(file: r.file, kind: .error, id: nil, activity: nil, error: "saving: \(error)"))
                    }
                }
                return g.files.count >= ImportBatch.groupSize || clock.monotonic() - (g.start ?? 0) >= maxAge
            }
            if full { flush() }
        }

        /// Hands the group to the commit stage and starts the next one.
        func flush() {
            let g = group.withLock { g -> Group in defer { g = Group() }; return g }
            guard !g.results.isEmpty else { return }
            stages.commit.submit { self.commit(g) }
        }

        /// Commits a group; its results (imported ones turned to errors if the commit failed) go to `committed`.
        private func commit(_ group: Group) {
            var g = group
            // The last workout kept for an export right after the import, when it is not too long to keep.
            let recent = g.last.flatMap { $0.points.count <= RecentWorkout.maxPoints ? $0.workout : nil }
            do {
                // Files removed to make room (the disk ran out) are reported alone.
                let dropped = try store.commit(g.files, recent: recent)
                for k in g.results.indices where g.results[k].kind == .imported {
                    guard let id = g.results[k].id, let why = dropped[id] else { continue }
                    g.results[k] = Result(file: g.results[k].file, kind: .error, id: nil, activity: nil, error: "saving: \(why)")
                }
            } catch {
                // Not durable, so not listed: the files stay unlisted and each is reported failed.
                for k in g.results.indices where g.results[k].kind == .imported {
                    unlink(store.path(of: g.results[k].id!))
                    g.results[k] = Result(file: g.results[k].file, kind: .error, id: nil, activity: nil, error: "saving: \(error)")
                }
            }
            let results = g.results
            done.withLock { $0.append(results) }
        }

        /// The results of the groups committed since the last call, in order.
        func committed() -> [[Result]] {
            done.withLock { d in defer { d.removeAll() }; return d }
        }
    }

    /// The tracks of a file: one per session (a multisport FIT file has several); gzip is undone.
    static func tracks(_ bytes: [UInt8], fileName: String) throws(Importer.Failure) -> [Importer.Track] {
        try Importer.readAll(bytes, fileName: fileName)
    }
}
