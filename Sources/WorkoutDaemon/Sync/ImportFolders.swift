import Dispatch
import Glibc
import WorkoutCore

/// Folders that import themselves (config `importFolders`): a GPX, TCX or FIT file (gzipped or
/// not) written or moved into one is imported once, through the ordinary import (duplicates
/// found, results logged), and remembered in the state directory (`ImportedFiles`) so that a
/// restart imports nothing again. A folder that does not exist yet (a watch's `GARMIN/Activity`
/// before it is mounted) is looked for every `lookSeconds` and watched when it appears; the
/// files already in it are imported then. inotify reports new files at once; a file is
/// imported once it has been quiet (no write, no close, no rename onto it) for `quietSeconds`,
/// so a file rewritten several times by a phone app or a sync engine is imported once, whole. A
/// look at each folder every `rescanSeconds` is the fallback, and takes a file only when its size
/// and time are the same `quietSeconds` apart. A later, longer version of a file already imported
/// (same path) replaces the workouts the earlier one made (`Replace`).
///
/// Confined to the loop thread: the queue's closures capture what they need and post results
/// back to a `LoopBound` of this.
final class ImportFolders {

    /// Imports `paths` (of `folder`) and calls back on the loop with each file's results.
    typealias Importer = (_ folder: String, _ paths: [String], _ done: @escaping @Sendable ([ImportBatch.Result]) -> Void) -> Void
    /// A later version of a file (same path, longer) was imported: `old` are the workouts the
    /// earlier version made, to be replaced by `new` (moved to the trash, undoable).
    struct Replacement: Sendable { var path: String; var old: [String]; var new: [String] }
    typealias Replace = ([Replacement]) -> Void

    /// How one configured folder is followed.
    enum FolderState {
        /// Watched by inotify.
        case watched
        /// Missing or unwatchable (the reason, logged when it became so; empty before the first
        /// look); looked for again.
        case unavailable(String)
    }

    private let loop: EventLoop
    private let importer: Importer
    private let report: (SyncLogEvent) -> Void
    private let queue = DispatchQueue(label: "workoutd.import-folders", qos: .utility)
    private var watch: DirectoryWatch?
    private var folders: [String: FolderState] = [:]
    private var remembered: ImportedFiles
    /// Files found and not yet handled (queued or importing), so none is imported twice.
    private var inFlight: Set<ImportedFiles.Key> = []
    /// Found files waiting for the next import, by folder.
    private var waiting: [String: [ImportedFiles.Key]] = [:]
    private var importing = false
    /// Files placed and not yet quiet: their folder and when they last changed (loop clock).
    private var settling: [String: (folder: String, changedAt: Double)] = [:]
    private var settleTimer: EventLoop.Token?
    private let replace: Replace
    /// Links found in the folders and logged (once each).
    private var warnedLinks: Set<String> = []
    private var timers: [RepeatingTimer] = []

    static let lookSeconds: Double = 2
    static let rescanSeconds: Double = 30
    /// Files found within this many seconds go into one import.
    static let settleSeconds = 0.2
    /// A file is imported once nothing was written to it or renamed onto it for this long
    /// (docs/storage.md, "Import folders").
    static let quietSeconds = 4.0

    init(loop: EventLoop, rememberedAt file: String, importer: @escaping Importer, replace: @escaping Replace = { _ in },
         report: @escaping (SyncLogEvent) -> Void) {
        self.loop = loop
        self.importer = importer
        self.replace = replace
        self.report = report
        remembered = ImportedFiles(file: file)
        watch = try? DirectoryWatch(loop: loop, writes: .reported) { [unowned self] changes in self.changed(changes) }
        timers.append(loop.every(ImportFolders.lookSeconds) { [unowned self] in self.lookForMissing() })
        timers.append(loop.every(ImportFolders.rescanSeconds) { [unowned self] in
            for (f, s) in self.folders { if case .watched = s { self.scan(f) } }
        })
    }

    /// Follows exactly `list` from now on (start-up and reload).
    func configure(folders list: [String]) {
        for f in folders.keys where !list.contains(f) {
            watch?.remove(f)
            folders[f] = nil
            waiting[f] = nil
        }
        for f in list where folders[f] == nil {
            folders[f] = .unavailable("")
            arm(f)
        }
    }

    func stop() {
        for t in timers { t.cancel() }
        timers = []
        if let t = settleTimer { loop.cancel(t) }
        settleTimer = nil
        settling = [:]
        watch?.close()
        watch = nil
        folders = [:]
    }

    /// Waits until the looks at the folders queued so far are done (tests); their results are
    /// posted to the loop.
    func drain() { queue.sync {} }

    /// Starts watching `folder` when it is there; then imports what it already holds.
    private func arm(_ folder: String) {
        var st = stat()
        let problem: String?
        if stat(folder, &st) != 0 {
            problem = errno == ENOENT ? "not found" : String(cString: strerror(errno))
        } else if st.st_mode & S_IFMT != S_IFDIR {
            problem = "not a folder"
        } else if let watch {
            do { try watch.add(folder); problem = nil } catch { problem = error.description }
        } else {
            problem = nil  // no inotify at all: rescans only
        }
        if let problem {
            // Logged once until it is watched again, however the reason words it meanwhile.
            if case .unavailable(let before) = folders[folder], !before.isEmpty { return }
            folders[folder] = .unavailable(problem)
            report(.folderUnavailable(folder: folder, reason: problem))
            return
        }
        folders[folder] = .watched
        report(.folderWatched(folder: folder))
        scan(folder)
    }

    private func lookForMissing() {
        for (f, s) in folders { if case .unavailable = s { arm(f) } }
    }

    private func changed(_ changes: [DirectoryWatch.Change]) {
        var placed: [String: [String]] = [:], written: [String] = []
        for c in changes {
            switch c {
            case .placed(let dir, let name):
                if ImportFolderFile.isImportable(name) { placed[dir, default: []].append(dir + "/" + name) }
            case .written(let dir, let name):
                written.append(dir + "/" + name)
            case .removed: break
            case .directoryGone(let dir):
                if folders[dir] != nil { folders[dir] = .unavailable("gone"); report(.folderUnavailable(folder: dir, reason: "removed or unmounted")) }
            case .overflow:
                for (f, s) in folders { if case .watched = s { scan(f) } }
            }
        }
        // Closed after writing or renamed into place: whole for now, but it may be written again
        // (a phone app, a sync engine): taken once quiet. A write to a settling file restarts its
        // wait: its close may reach inotify late (a process spawned meanwhile holds a copy of the
        // writer's descriptor), its writes never do. A write alone makes no file importable.
        let now = loop.now()
        for p in written { settling[p]?.changedAt = now }
        for (folder, paths) in placed { for p in paths { settling[p] = (folder, now) } }
        armSettling()
    }

    /// Schedules the look at the settling files that are quiet first.
    private func armSettling() {
        guard settleTimer == nil, let first = settling.values.map(\.changedAt).min() else { return }
        settleTimer = loop.after(max(0, first + ImportFolders.quietSeconds - loop.now())) { [weak self] in self?.settled() }
    }

    /// The files quiet for `quietSeconds`: stamped off the loop, then found.
    private func settled() {
        settleTimer = nil
        let now = loop.now()
        var quiet: [String: [String]] = [:]
        for (path, s) in settling where now - s.changedAt >= ImportFolders.quietSeconds - 0.01 {
            quiet[s.folder, default: []].append(path)
            settling[path] = nil
        }
        armSettling()
        let me = LoopBound(self, loop: loop), loop = self.loop
        for (folder, paths) in quiet {
            queue.async {
                let keys = paths.compactMap { p in HistoryStore.stamp(p).map { ImportedFiles.Key(path: p, stamp: $0) } }
                let links = paths.filter(HistoryStore.isLink)
                loop.post {
                    me.value.skipped(links)
                    me.value.found(keys, in: folder)
                }
            }
        }
    }

    /// Looks at every file of `folder` (off the loop): those whose size and time stay the same
    /// for `quietSeconds` (on the loop's clock, as every other wait) are found.
    private func scan(_ folder: String) {
        let me = LoopBound(WeakReference(self), loop: loop), loop = self.loop, queue = self.queue
        queue.async {
            let first = ImportFolders.importable(in: folder)
            let links = ImportFolders.links(in: folder)
            if !links.isEmpty { loop.post { me.value.object?.skipped(links) } }
            guard !first.isEmpty else { return }
            loop.post {
                loop.after(ImportFolders.quietSeconds) {
                    guard me.value.object != nil else { return }
                    queue.async {
                        let again = Set(ImportFolders.importable(in: folder))
                        let stable = first.filter { again.contains($0) }
                        loop.post { me.value.object?.found(stable, in: folder) }
                    }
                }
            }
        }
    }

    static func importable(in folder: String) -> [ImportedFiles.Key] {
        var out: [ImportedFiles.Key] = []
        for name in directoryEntries(folder) ?? [] {
            guard ImportFolderFile.isImportable(name) else { continue }
            let path = folder + "/" + name
            if let st = HistoryStore.stamp(path) { out.append(ImportedFiles.Key(path: path, stamp: st)) }
        }
        return out.sorted { $0.path < $1.path }
    }

    /// The importable names of `folder` that are symbolic links: never followed (a link may
    /// lead out of the folder, to another user's file or /etc/shadow).
    static func links(in folder: String) -> [String] {
        (directoryEntries(folder) ?? []).filter(ImportFolderFile.isImportable).map { folder + "/" + $0 }.filter(HistoryStore.isLink).sorted()
    }

    /// Logs each link once.
    private func skipped(_ links: [String]) {
        for l in links where warnedLinks.insert(l).inserted { report(.linkSkipped(path: l)) }
    }

    private func found(_ keys: [ImportedFiles.Key], in folder: String) {
        guard folders[folder] != nil else { return }  // no longer configured
        let new = keys.filter { !remembered.contains($0) && !inFlight.contains($0) }
        guard !new.isEmpty else { return }
        inFlight.formUnion(new)
        let first = waiting.isEmpty
        waiting[folder, default: []] += new
        if first { loop.after(ImportFolders.settleSeconds) { [weak self] in self?.importNext() } }
    }

    /// Imports one folder's waiting files at a time.
    private func importNext() {
        guard !importing, let folder = waiting.keys.sorted().first, let keys = waiting.removeValue(forKey: folder) else { return }
        importing = true
        let me = LoopBound(WeakReference(self), loop: loop)
        importer(folder, keys.map(\.path)) { results in
            guard let self = me.value.object else { return }
            self.finished(folder, keys, results)
            self.importing = false
            self.importNext()
        }
    }

    private func finished(_ folder: String, _ keys: [ImportedFiles.Key], _ results: [ImportBatch.Result]) {
        var byFile: [String: [ImportBatch.Result]] = [:]
        for r in results { byFile[r.file, default: []].append(r) }
        var handled: [(key: ImportedFiles.Key, result: String, ids: [String])] = []
        var imported: [String] = [], duplicates = 0, errors = 0
        for key in keys {
            let rs = byFile[key.path] ?? []
            // A file the import never reached (cancelled by shutdown) is not remembered: next start.
            guard !rs.isEmpty else { continue }
            var kinds: Set<String> = []
            for r in rs {
                kinds.insert(r.kind.rawValue)
                switch r.kind {
                case .imported: if let id = r.id { imported.append(id.rawValue) }
                case .duplicate: duplicates += 1
                case .error: errors += 1
                }
            }
            let result = kinds.contains("imported") ? "imported" : kinds.contains("duplicate") ? "duplicate" : "error"
            handled.append((key, result, rs.compactMap { $0.id?.rawValue }))
        }
        let previous = remembered.latest
        do { try remembered.remember(handled) } catch {
            report(.folderUnavailable(folder: folder, reason: "cannot remember imported files: \(error)"))
        }
        // A longer version of a file already imported (same path) replaces what it made.
        var replaced: [Replacement] = []
        for h in handled where h.result == "imported" {
            guard let before = previous[h.key.path], before.size < h.key.size, !before.ids.isEmpty, Set(before.ids) != Set(h.ids) else { continue }
            replaced.append(Replacement(path: h.key.path, old: before.ids, new: h.ids))
        }
        if !replaced.isEmpty { replace(replaced) }
        for k in keys { inFlight.remove(k) }
        if !handled.isEmpty {
            report(.folderImported(folder: folder, imported: imported.count, duplicates: duplicates, errors: errors, ids: imported))
        }
    }
}
