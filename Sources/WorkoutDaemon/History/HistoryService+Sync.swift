import Glibc
import WorkoutCore

/// The history folder followed as files change by another hand (`HistorySync`), and import
/// folders (`ImportFolders`): started after the journal is restored, stopped first at shutdown.
extension HistoryService {
    func start() {
        let sync = HistorySync(loop: loop, store: store) { [unowned self] events in
            for e in events { self.log(e) }
            self.onImported()
        }
        sync.start()  // its queue reads the index first (start-up read only the `StartupIndex`)
        self.sync = sync
        let store = self.store, loop = self.loop, me = LoopBound(self, loop: loop)
        reader.async {  // after that read
            let removed = store.removedAtStartup
            guard !removed.files.isEmpty else { return }
            loop.post { me.value.log(HistoryLogEvent.temporaryFilesRemoved(files: removed.files.count, bytes: removed.bytes)) }
        }
        let folders = ImportFolders(loop: loop, rememberedAt: context.paths.importedFilesFile, importer: { [unowned self] folder, files, done in
            self.importFromFolder(folder, files, done: done)
        }, replace: { [unowned self] replaced in self.replaceFromFolder(replaced) },
        report: { [unowned self] event in self.log(event) })
        folders.configure(folders: importFolderPaths())
        importFolders = folders
    }

    func stopFollowing() {
        sync?.stop()
        sync = nil
        importFolders?.stop()
        importFolders = nil
    }

    /// A reload: import folders are watched as configured now; `historyDir` is read at
    /// start-up only (the store, its index and the sync follow one folder).
    func reload(_ r: inout ConfigReload) {
        config = Settings(r.new)
        if r.changed(.importFolders) { importFolders?.configure(folders: importFolderPaths()) }
        if r.changed(.historyDir) { log(SyncLogEvent.historyDirAtNextStart(now: context.paths.historyDir)) }
        r.applied(.importFolders, .defaultActivity, .units, .metrics, .weightKg, .age, .sex, .heartRate, .ftpWatts)
        r.applied(.thresholdHeartRate, .thresholdPaceSecondsPerKm)
        r.atNextStart(.historyDir)
    }

    /// `importFolders` as absolute paths.
    func importFolderPaths() -> [String] {
        config.importFolders.map { context.paths.expandFolder($0, environment: context.environment) }
    }

    /// A longer version of an import folder's file was imported: the workouts the earlier
    /// version made go to the trash (undoable), on the bulk worker; each replacement is logged.
    func replaceFromFolder(_ replaced: [ImportFolders.Replacement]) {
        let store = self.store
        let loop = self.loop
        let me = LoopBound(self, loop: loop)
        bulk.async {
            var done: [(ImportFolders.Replacement, String?)] = []
            for r in replaced {
                var failure: String?
                for old in r.old {
                    guard let id = WorkoutID(rawValue: old), store.summary(id) != nil else { continue }
                    do { try store.delete(id) } catch { failure = "\(error)" }
                }
                done.append((r, failure))
            }
            let results = done
            loop.post {
                let service = me.value
                for (r, failure) in results { service.log(SyncLogEvent.folderReplaced(path: r.path, old: r.old, new: r.new, failure: failure)) }
                service.onImported()
            }
        }
    }

    /// Imports files of an import folder on the bulk worker, as `import` does (no client: the
    /// results are logged, and `done` gets them on the loop).
    func importFromFolder(_ folder: String, _ files: [String], done: @escaping @Sendable ([ImportBatch.Result]) -> Void) {
        let batch = ImportBatch(items: files.map { .init(source: .folderFile($0), file: $0) }, activity: nil, settings: config.measuring,
                                defaultActivity: config.defaultActivity)
        let store = self.store
        let loop = self.loop
        let stages = importStages
        let me = LoopBound(self, loop: loop)
        bulk.async {
            var all: [ImportBatch.Result] = []
            _ = batch.run(store: store, stages: stages, cancel: CancelFlag()) { group in
                all += group
                loop.post { me.value.logImportResults(group) }
            }
            let results = all
            loop.post {
                done(results)
                me.value.onImported()
            }
        }
    }
}
