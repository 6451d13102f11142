import Dispatch
import Glibc
import Synchronization
import WorkoutCore

/// Keeps the history catalog in step with the history folder when files arrive, change or
/// vanish by another hand (a sync engine such as Syncthing sharing `historyDir` between
/// machines, or a person): inotify on `workouts/` reports names within milliseconds; a look at
/// the whole folder (names and stamps, one `readdir` and a `stat` per file) runs at start-up,
/// every `rescanSeconds`, and after the kernel dropped events. Files are read and decoded on
/// this service's own queue, never on the event loop, in parallel chunks: 10,000 files
/// arriving at once are listed chunk by chunk while `status` is answered as usual. What
/// changed is reported to the loop as log events (`SyncLogEvent`).
///
/// Confined to the loop thread; the queue's work (`QueueWork`) holds only the store, the links
/// it logged, and a `LoopBound` of this to post what changed back to.
final class HistorySync {

    /// How the folder is followed.
    enum Phase {
        case stopped
        /// inotify reports changes; rescans are the fallback.
        case watching(DirectoryWatch)
        /// inotify could not be used (the reason, logged once): rescans only.
        case rescanning(reason: String)
    }

    private let loop: EventLoop
    private let store: HistoryStore
    private let report: ([SyncLogEvent]) -> Void
    private let queue = DispatchQueue(label: "workoutd.history-sync", qos: .utility)
    private var phase = Phase.stopped
    private var pending: Set<String> = []
    private var flushScheduled = false
    private var rescanTimer: RepeatingTimer?
    /// Arrivals of the last `arrivalWindow` seconds, logged together (`deliver`).
    private var arrivals: [SyncLogEvent] = []
    /// Links found in the folder and logged, once each (by the queue's work).
    private let warnedLinks = LinksLogged()

    /// Seconds between looks at the whole folder (the fallback for what inotify cannot see: a
    /// folder on a network file system changed by another machine, a queue overflow).
    static let rescanSeconds: Double = 30
    /// Names reported within this many seconds are read together.
    static let settleSeconds = 0.1
    /// Files decoded per chunk (each chunk is listed at once).
    static let chunkSize = 512
    /// More workouts than this listed within `arrivalWindow` make one log line, not one each
    /// (files from a sync engine trickle in over seconds).
    static let manyArrivals = 10
    static let arrivalWindow = 1.0

    /// The first look at the whole folder, waited for by readers (`FirstLook.wait`).
    let firstLook = FirstLook()

    /// `report` runs on the loop thread.
    init(loop: EventLoop, store: HistoryStore, report: @escaping ([SyncLogEvent]) -> Void) {
        self.loop = loop
        self.store = store
        self.report = report
    }

    func start() {
        guard case .stopped = phase else { return }
        do throws(SystemError) {
            let w = try DirectoryWatch(loop: loop) { [unowned self] changes in self.changed(changes) }
            do throws(SystemError) { try w.add(store.paths.workoutsDir) } catch { w.close(); throw error }
            phase = .watching(w)
        } catch {
            phase = .rescanning(reason: error.description)
            report([.watchUnavailable(reason: error.description, rescanSeconds: HistorySync.rescanSeconds)])
        }
        // The first use of the catalog reads the index (start-up read only the `StartupIndex`).
        // An index start-up took over (or found unstamped) is written first, before the look at
        // the whole folder: a daemon stopped soon after its start then leaves it written; then
        // the `StartupIndex`, when none valid was found.
        let store = self.store
        queue.async {
            store.compactIndexIfLarge()
            store.writeStartupIndexIfStale()
        }
        rescan()
        let firstLook = self.firstLook
        queue.async { firstLook.signal() }  // after the first look: the queue is serial
        rescanTimer = loop.every(HistorySync.rescanSeconds) { [unowned self] in self.rescan() }
    }

    /// The first look at the whole folder: signalled once it is done (and again by each waiter).
    struct FirstLook: Sendable {
        private let done = DispatchSemaphore(value: 0)

        func signal() { done.signal() }

        /// Waits (on a reader thread, never the loop) until the first look is done, at most
        /// `seconds`: a `list` right after start-up then shows what the folder holds, also when
        /// the index was lost and the catalog is being rebuilt from the files.
        func wait(seconds: Double = 30) {
            if done.wait(timeout: .now() + seconds) == .success { done.signal() }
        }
    }

    /// Stops following. An index start-up asked to write whole that the queue has not written
    /// yet is written now (at most once per upgrade): otherwise every start stamps every file
    /// again (10,000 workouts: start-up 56 -> 540 ms when stopped within a second, BENCHMARKS.md).
    func stop() {
        store.finishIndexRewrite()
        store.writeStartupIndexIfStale()
        rescanTimer?.cancel()
        rescanTimer = nil
        switch phase {
        case .watching(let w): w.close()
        case .stopped, .rescanning: break
        }
        phase = .stopped
        reportArrivals()  // a stop inside the window still logs what arrived
    }

    /// Waits until the work queued so far is done (tests, shutdown).
    func drain() { queue.sync {} }

    private func changed(_ changes: [DirectoryWatch.Change]) {
        var all = false
        for c in changes {
            switch c {
            case .placed(_, let name), .removed(_, let name): pending.insert(name)
            case .written: break  // not asked for (`writes: .ignored`): the close follows
            case .overflow: all = true
            case .directoryGone(let dir):
                // `workouts/` itself was removed or replaced: made again and watched anew.
                all = true
                if case .watching(let w) = phase {
                    try? makeDirectories(dir)
                    do { try w.add(dir) } catch {
                        phase = .rescanning(reason: error.description)
                        report([.watchUnavailable(reason: error.description, rescanSeconds: HistorySync.rescanSeconds)])
                    }
                }
            }
        }
        if all { pending = []; rescan(); return }
        guard !flushScheduled else { return }
        flushScheduled = true
        // Weak: the service may be stopped and released before it runs (a shutdown right after a change).
        loop.after(HistorySync.settleSeconds) { [weak self] in
            guard let self else { return }
            self.flushScheduled = false
            let names = self.pending
            self.pending = []
            guard !names.isEmpty else { return }
            let work = self.work
            self.queue.async { work.reconcile(names) }
        }
    }

    /// A look at the whole folder, on the queue.
    func rescan() {
        let work = self.work
        queue.async { work.reconcile(nil) }
    }

    private var work: QueueWork { QueueWork(store: store, sync: LoopBound(self, loop: loop), warnedLinks: warnedLinks) }

    // MARK: - On the queue

    /// The queue's side: reads the folder, applies it to the store, and posts the log events
    /// back to the service on the loop.
    private struct QueueWork: Sendable {
        let store: HistoryStore
        let sync: LoopBound<HistorySync>
        let warnedLinks: LinksLogged
        var loop: EventLoop { sync.loop }

        /// Reads what changed among `names` (nil: every name in the folder) and applies it.
        func reconcile(_ names: Set<String>?) {
            let dir = store.paths.workoutsDir
            var read: [String] = [], gone: [String] = [], links: [String] = []
            if let names {
                for name in names.sorted() where !store.isBusy(name) {
                    switch HistoryFileName(name) {
                    case .workout, .conflictCopy: break
                    case .inFlight, .unrelated: continue
                    }
                    let known = store.knownStamp(name)
                    if let now = HistoryStore.stamp(dir + "/" + name) {
                        if now != known { read.append(name) }
                    } else {
                        if known != nil { gone.append(name) }
                        if HistoryStore.isLink(dir + "/" + name) { links.append(name) }
                    }
                }
            } else {
                guard let found = HistorySync.scan(dir) else { return }
                (read, gone) = store.changes(in: found)
                links = HistorySync.links(in: dir)
            }
            // A link is never a workout (it may lead anywhere): skipped, logged once.
            let skipped = links.filter(warnedLinks.first).map { SyncLogEvent.linkSkipped(path: dir + "/" + $0) }
            if !skipped.isEmpty { loop.post { sync.value.deliver(skipped) } }
            var events: [(HistoryCatalogEvent, WorkoutVersion?)] = []
            if !gone.isEmpty { events += store.apply(gone.map { ($0, HistoryStore.Observation.gone) }) }
            var unreadable: [SyncLogEvent] = []
            var start = 0
            while start < read.count {
                let chunk = Array(read[start..<min(read.count, start + HistorySync.chunkSize)])
                start += chunk.count
                let observed = HistorySync.observe(chunk, in: dir)
                for (file, o) in observed {
                    if case .unreadable(_, let why) = o { unreadable.append(.unreadable(file: file, reason: why)) }
                }
                events += store.apply(observed)
                if start < read.count, !events.isEmpty {
                    publish(events, unreadable)  // progress: what is listed so far is logged now
                    events = []; unreadable = []
                }
            }
            store.compactIndexIfLarge()
            publish(events, unreadable)
        }

        private func publish(_ events: [(HistoryCatalogEvent, WorkoutVersion?)], _ unreadable: [SyncLogEvent]) {
            let lines = HistorySync.logEvents(events, machine: store.machine, trash: store.paths.trashDir) + HistorySync.summarized(unreadable)
            guard !lines.isEmpty else { return }
            loop.post { sync.value.deliver(lines) }
        }
    }

    /// Names logged once each, by whichever thread finds them.
    final class LinksLogged: Sendable {
        private let names = Mutex<Set<String>>([])
        /// Whether `name` is new (and now logged).
        func first(_ name: String) -> Bool { names.withLock { $0.insert(name).inserted } }
    }

    /// At most `manyArrivals` unreadable files named one by one per look; more make one line.
    static func summarized(_ unreadable: [SyncLogEvent]) -> [SyncLogEvent] {
        guard unreadable.count > manyArrivals, case .unreadable(let file, let why) = unreadable[0] else { return unreadable }
        return [.unreadableMany(count: unreadable.count, example: file, reason: why)]
    }

    /// On the loop: arrivals wait up to `arrivalWindow` to be counted; the rest is reported now.
    private func deliver(_ lines: [SyncLogEvent]) {
        let windowOpen = !arrivals.isEmpty
        var now: [SyncLogEvent] = []
        for l in lines {
            if case .arrived = l { arrivals.append(l) } else { now.append(l) }
        }
        if !now.isEmpty { report(now) }
        guard !windowOpen, !arrivals.isEmpty else { return }
        loop.after(HistorySync.arrivalWindow) { [weak self] in self?.reportArrivals() }
    }

    /// Logs the arrivals counted so far: one line each, or one for them all when many.
    private func reportArrivals() {
        let batch = arrivals
        arrivals = []
        guard !batch.isEmpty else { return }
        if batch.count > HistorySync.manyArrivals {
            var hosts: Set<String> = []
            for case .arrived(_, let host?) in batch { hosts.insert(host) }
            report([.arrivedMany(count: batch.count, hosts: hosts.sorted())])
        } else {
            report(batch)
        }
    }

    /// The names and stamps of the workout files and conflict copies in `dir` (nil: unreadable).
    static func scan(_ dir: String) -> [String: FileStamp]? {
        guard let names = directoryEntries(dir) else { return nil }
        var found: [String: FileStamp] = [:]
        for name in names {
            switch HistoryFileName(name) {
            case .workout, .conflictCopy: break
            case .inFlight, .unrelated: continue
            }
            if let st = HistoryStore.stamp(dir + "/" + name) { found[name] = st }
        }
        return found
    }

    /// The names of workout files and conflict copies in `dir` that are symbolic links.
    static func links(in dir: String) -> [String] {
        (directoryEntries(dir) ?? []).filter { name in
            switch HistoryFileName(name) {
            case .workout, .conflictCopy: return HistoryStore.isLink(dir + "/" + name)
            case .inFlight, .unrelated: return false
            }
        }.sorted()
    }

    /// Reads the heads of `files` on up to four threads.
    static func observe(_ files: [String], in dir: String) -> [(file: String, HistoryStore.Observation)] {
        var out = [HistoryStore.Observation?](repeating: nil, count: files.count)
        let threads = max(1, min(4, sysconf(Int32(_SC_NPROCESSORS_ONLN)), files.count / 16))
        out.withUnsafeMutableBufferPointer { buf in
            nonisolated(unsafe) let buf = buf  // each thread writes its own slots
            DispatchQueue.concurrentPerform(iterations: threads) { t in
                var k = t
                while k < files.count {
                    buf[k] = observe(files[k], in: dir)
                    k += threads
                }
            }
        }
        return zip(files, out).compactMap { f, o in o.map { (f, $0) } }
    }

    /// What one file holds; nil when there is nothing to say yet (a file still being copied).
    static func observe(_ file: String, in dir: String) -> HistoryStore.Observation? {
        let path = dir + "/" + file
        do {
            let (head, stamp) = try HistoryReader.read(path: path)
            guard let named = HistoryFileName(file).workoutID, named == head.summary.id else {
                return .unreadable(stamp, reason: "holds workout \(head.summary.id), not the one its name says")
            }
            return .version(WorkoutVersion(file: file, summary: head.summary, revision: head.revision,
                                           imported: HistoryStore.isImported(head.source), stamp: stamp))
        } catch {
            guard let stamp = HistoryStore.stamp(path) else { return .gone }
            // A file being written in place (a copy by hand) that the folder look found early:
            // looked at again when it is closed or at the next look.
            if case .incomplete = error, SystemClock().wall() - stamp.modified < recentSeconds { return nil }
            return .unreadable(stamp, reason: error.description)
        }
    }

    /// A file changed this recently that does not read whole is taken to be still written.
    static let recentSeconds = 5.0

    /// Log lines for what changed (one line for many arrivals at once).
    static func logEvents(_ events: [(HistoryCatalogEvent, WorkoutVersion?)], machine: MachineTag, trash: String) -> [SyncLogEvent] {
        var out: [SyncLogEvent] = []
        var arrived: [SyncLogEvent] = []
        for (e, v) in events {
            let host = v?.revision.flatMap { $0.host.isEmpty ? $0.machine.rawValue : $0.host }
            switch e {
            case .listed(let id):
                // Deleted here while edited on another machine: the sync engine brought the edit
                // back (an edit wins over a delete). The same version coming back is an undelete.
                if let trashed = try? HistoryReader.head(path: trash + "/" + HistoryFileName.of(id)), trashed.revision != v?.revision {
                    out.append(.deleteOverridden(id: id.rawValue, host: host))
                } else {
                    arrived.append(.arrived(id: id.rawValue, host: host))
                }
            case .changed(let id): out.append(.changed(id: id.rawValue, host: host))
            case .unlisted(let id): out.append(.removed(id: id.rawValue))
            case .conflict(let id, let shown, let aside): out.append(.conflict(id: id.rawValue, shown: shown, keptAside: aside, host: host))
            case .duplicateHidden(let id, let of): out.append(.duplicateHidden(id: id.rawValue, copyOf: of.rawValue))
            }
        }
        return arrived + out
    }
}
