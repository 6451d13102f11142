import Glibc
import WorkoutCore

/// The history folder followed as files change by another hand (`HistorySync`), and import
/// folders (`ImportFolders`), started after the journal is restored.
extension Daemon {
    func startHistoryServices() {
        let sync = HistorySync(loop: loop, store: store) { [unowned self] events in
            for e in events { self.log(e) }
            self.notifier.notify(["STATUS=" + self.statusLine()])
        }
        sync.start()
        historySync = sync
        let folders = ImportFolders(loop: loop, rememberedAt: paths.importedFilesFile, importer: { [unowned self] folder, files, done in
            self.importFromFolder(folder, files, done: done)
        }, report: { [unowned self] event in self.log(event) })
        folders.configure(folders: importFolderPaths())
        importFolders = folders
    }

    func stopHistoryServices() {
        historySync?.stop()
        historySync = nil
        importFolders?.stop()
        importFolders = nil
    }

    /// `importFolders` as absolute paths.
    func importFolderPaths() -> [String] {
        config.importFolders.map { paths.expandFolder($0, environment: environment) }
    }

    /// Imports files of an import folder on the bulk worker, as `import` does (no client: the
    /// results are logged, and `done` gets them on the loop).
    func importFromFolder(_ folder: String, _ files: [String], done: @escaping @Sendable ([ImportBatch.Result]) -> Void) {
        let batch = ImportBatch(items: files.map { .init(source: .path($0), file: $0) }, activity: nil, settings: metricsSettings(),
                                defaultActivity: config.defaultActivity)
        let store = self.store
        let loop = self.loop
        let stages = importStages
        bulk.async {
            var all: [ImportBatch.Result] = []
            _ = batch.run(store: store, stages: stages, cancel: CancelFlag()) { group in
                all += group
                loop.post { self.logImportResults(group) }
            }
            let results = all
            loop.post { done(results) }
        }
    }
}
