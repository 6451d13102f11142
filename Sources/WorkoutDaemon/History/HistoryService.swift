import Glibc
import WorkoutCore

/// The saved workouts: owns the history store, the bulk worker with its import stages and the
/// reader, and answers the requests about them: `delete`, `undelete` on the loop; `list` and
/// `show` decoded and encoded on the reader (a workout of 60k laps took the loop 591 ms);
/// import, export, edit and recompute on the bulk worker (`HistoryService+Bulk.swift`).
/// Personal bests are judged against its summaries.
/// Confined to the loop thread: the reader and the bulk worker post closures back to a
/// `LoopBound` of it.
final class HistoryService: DaemonService {
    let context: DaemonContext
    let store: HistoryStore
    /// Imports, exports and edits, one at a time on a thread of their own.
    let bulk: BulkWorker
    /// Write and commit what an import on `bulk` has measured.
    let importStages = ImportStages()
    /// `list` and `show`: read-only work off the loop, on a thread of its own so that a long
    /// import on `bulk` does not hold them up, at the daemon's own priority (a person waits for
    /// the answer; at nice 19 a `list` of 12,000 workouts took over 30 s on a busy machine).
    let reader = BulkWorker(niceness: 0)
    /// Exports into pipes and sockets, written on the loop as their readers take them.
    let exportWriter: ExportWriter
    /// Runs before `list` and `show` read, on the reader's thread (`StoreFaults.beforeRead`: a
    /// test holds them there, as a slow disk would, to show the loop goes on).
    let beforeRead: (@Sendable () -> Void)?
    /// An import finished, or workouts changed by another hand (the service manager's STATUS
    /// line shows the new count).
    var onImported: () -> Void = {}
    /// Power workouts' whole curves, measured when `power-curve` first asks and kept between
    /// runs (`PowerCurveCache`, `Paths.powerCurvesFile`).
    let powerCurves: PowerCurveCache
    /// Follows the history folder as files change by another hand (`HistoryStore+Sync.swift`).
    var sync: HistorySync?
    /// Watches `importFolders`.
    var importFolders: ImportFolders?

    /// The part of the configuration the history service reads, its own: taken at start-up and
    /// replaced by `reload` (`historyDir` is the store's folder, read at start-up alone).
    var config: Settings

    struct Settings: Equatable {
        var importFolders: [String]
        var defaultActivity: ActivityType
        var units: Units
        /// How imports, edits and `show` measure (`metrics`, `units`, `weightKg`, `age`, `sex`,
        /// `heartRate`, `ftpWatts`, the training thresholds).
        var measuring: MetricsSettings
        /// The `metrics` rules `recompute --set` overrides.
        var metrics: MetricsConfig

        init(_ c: Config) {
            importFolders = c.importFolders; defaultActivity = c.defaultActivity; units = c.units
            measuring = MetricsSettings(config: c); metrics = c.metrics
        }

        var unitsPair: (String, JSON) { ("units", .string(units.rawValue)) }
    }

    init(context: DaemonContext, config c: Config) throws {
        self.context = context
        config = Settings(c)
        powerCurves = PowerCurveCache(file: context.paths.powerCurvesFile)
        let faults = context.ports.storeFaults
        let clock = context.loop.clock  // revisions are dated by the loop's clock (a test's ManualClock drives it)
        let store = try HistoryStore(paths: context.paths, machine: MachineIdentity.tag(at: context.paths.machineFile),
                                     host: MachineIdentity.hostName(), clock: { clock.wall() }, faultInjector: faults.failure, beforeRename: faults.beforeRename)
        self.store = store
        beforeRead = faults.beforeRead
        bulk = BulkWorker(idleSeconds: HistoryStore.recentIdleSeconds) { store.forgetRecent() }
        exportWriter = ExportWriter(loop: context.loop, stallSeconds: context.ports.exportStallSeconds)
    }

    var loop: EventLoop { context.loop }
    func log(_ e: some LogEvent) { context.log(e) }

    let name = "history"
    /// Seconds the bulk worker, the reader and the import stages get to end at a shutdown.
    static let workerStopSeconds = 3.0

    /// The folders stop being followed; then the workers end (`shutDown`), within
    /// `workerStopSeconds` and the deadline; what is late is logged and left to the exit.
    func stop(by deadline: Double, then done: @escaping () -> Void) {
        stopFollowing()
        let seconds = min(HistoryService.workerStopSeconds, max(0, deadline - loop.now()))
        if !shutDown(seconds: seconds) { log(ShutdownLogEvent.late(step: "bulk worker", seconds: seconds)) }
        done()
    }

    /// The shutdown: the bulk worker finishes the job it runs (an import stops at its next file:
    /// its client is gone) and drops the rest, then the import stages run what they hold; their
    /// threads end. Returns whether all ended within `seconds`.
    private func shutDown(seconds: Double) -> Bool {
        let deadline = Deadline(seconds: seconds)
        exportWriter.abandonAll()
        let readerEnded = reader.shutDown(seconds: deadline.remaining)
        let bulkEnded = bulk.shutDown(seconds: deadline.remaining)
        return importStages.shutDown(seconds: deadline.remaining) && bulkEnded && readerEnded
    }

    // MARK: - Requests answered on the loop

    /// `list`: the summaries read and encoded on the reader.
    func list(_ filter: ListFilter) -> ControlReply {
        let store = self.store, units = config.units, hold = beforeRead, firstLook = sync?.firstLook
        return onReader { w in
            hold?()
            firstLook?.wait()
            ListReply.write(store.list(filter), units: units, to: &w)
        }
    }

    /// `show`: the workout decoded and its reply encoded on the reader.
    func show(_ id: WorkoutID) -> ControlReply {
        let store = self.store, units = config.units, hold = beforeRead, settings = config.measuring, firstLook = sync?.firstLook
        return onReader { w in
            hold?()
            firstLook?.wait()
            do {
                // The file's head and events only, unless its splits must be drawn again from the
                // points in the units shown (a workout saved in miles, shown in km).
                var head = try store.loadHead(id)
                if head.summary.splitUnit != settings.splitUnit, !head.summary.splits.isEmpty {
                    let workout = try store.load(id)
                    head = WorkoutFile.Head(summary: workout.summary(splitIn: settings.splitUnit, settings: settings), source: workout.source,
                                            revision: nil, events: workout.events)
                }
                let bests = HistoryService.personalBests(of: head.summary, in: store)
                w.value(ShowReply(workout: head.summary, events: head.events ?? [], source: head.source,
                                  personalBests: bests.map(PersonalBestReply.init), units: units).json())
            } catch {
                w.value(HistoryService.storeErrorReply(error, id: id))
            }
        }
    }

    /// Runs `work` on the reader and answers with the reply it writes.
    func onReader(_ work: @escaping @Sendable (inout JSONWriter) -> Void) -> ControlReply {
        let loop = self.loop
        let pending = PendingReply(), later = LoopBound(pending, loop: loop)
        reader.async {
            var w = JSONWriter(capacity: 4096)
            work(&w)
            let line = w.bytes
            loop.post { later.value.finish(.encodedSuccess(line)) }
        }
        return .pending(pending)
    }

    func delete(_ id: WorkoutID) -> ControlReply {
        do { try store.delete(id); log(DaemonLogEvent.deleted(id.rawValue)); return .value(ControlServer.okReply([("id", .string(id.rawValue))])) }
        catch { return .value(HistoryService.storeErrorReply(error, id: id)) }
    }

    func undelete(_ id: WorkoutID) -> ControlReply {
        do { try store.undelete(id); return .value(ControlServer.okReply([("id", .string(id.rawValue))])) }
        catch { return .value(HistoryService.storeErrorReply(error, id: id)) }
    }

    static func storeErrorReply(_ error: any Error, id: WorkoutID) -> JSON {
        switch error {
        case let e as StoreError: return ControlServer.errorReply(ProtocolError(code: e.code, message: e.description))
        case let e as SystemError where e.code == ENOENT:
            return ControlServer.errorReply(ProtocolError(code: "not_found", message: "no saved workout \(id) (see `workoutctl list`)"))
        default: return ControlServer.errorReply(ProtocolError(code: "io_error", message: "\(error)"))
        }
    }

    // MARK: - Personal bests

    /// The personal bests `summary` set: its best efforts faster than every saved workout of its
    /// activity that started before it (a workout just stopped: every saved one). For `stop` and
    /// `show`.
    func personalBests(of summary: WorkoutSummary) -> [PersonalBest] {
        HistoryService.personalBests(of: summary, in: store)
    }

    /// The same against `store` (from any thread: the store is thread-safe).
    static func personalBests(of summary: WorkoutSummary, in store: HistoryStore) -> [PersonalBest] {
        PersonalRecords.bests(of: summary, among: store.summaries())
    }

    /// Logs the personal bests a saved workout set against every other saved workout of its activity.
    func announceRecords(_ workout: RecordedWorkout) {
        guard workout.summary.records.counts else { return }
        var previous: [ActivityType: [BestEffort]] = [:]
        for other in store.summaries() where other.id != workout.id && other.activity == workout.activity && other.records.counts {
            previous = PersonalRecords.merged(activity: other.activity, previous: previous, efforts: other.bestEfforts)
        }
        for best in PersonalRecords.newBests(activity: workout.activity, previous: previous, efforts: workout.summary.bestEfforts) {
            log(PersonalBestLogEvent(best: best, id: workout.id))
        }
    }
}
