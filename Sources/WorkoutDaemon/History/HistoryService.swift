import Glibc
import WorkoutCore

/// The saved workouts: owns the history store and the bulk worker with its import stages, and
/// answers the requests about them (`list`, `show`, `delete`, `undelete` here; import, export,
/// edit and recompute on the bulk worker, `HistoryService+Bulk.swift`). Personal bests are
/// judged against its summaries.
/// `@unchecked Sendable`: confined to the loop thread; the bulk worker only `post`s closures back.
final class HistoryService: @unchecked Sendable {
    let context: DaemonContext
    let store: HistoryStore
    /// Imports, exports and edits, one at a time on a thread of their own.
    let bulk: BulkWorker
    /// Write and commit what an import on `bulk` has measured.
    let importStages = ImportStages()
    /// An import finished (the service manager's STATUS line shows the new count).
    var onImported: () -> Void = {}

    init(context: DaemonContext) throws {
        self.context = context
        var faults: (@Sendable () -> SystemError?)?
        if context.testHooks, let flag = context.environment["WORKOUTD_TEST_FAIL_SAVES"] {
            // Test hook: while this file exists, saves fail as on a full disk.
            faults = { access(flag, F_OK) == 0 ? SystemError("write (test hook \(flag))", code: ENOSPC) : nil }
        }
        let store = try HistoryStore(paths: context.paths, faultInjector: faults)
        self.store = store
        bulk = BulkWorker(idleSeconds: HistoryStore.recentIdleSeconds) { store.forgetRecent() }
    }

    var loop: EventLoop { context.loop }
    func log(_ e: some LogEvent) { context.log(e) }

    // MARK: - Requests answered on the loop

    func list(_ filter: ListFilter) -> ControlReply {
        .value(ControlServer.okReply([("workouts", .array(store.list(filter).map { $0.json() })), context.unitsPair]))
    }

    func show(_ id: WorkoutID) -> ControlReply {
        do {
            let w = try store.load(id)
            return .value(ControlServer.okReply([("workout", w.summary.json()), ("events", .array(w.events.map { $0.json() })), ("source", .string(w.source)),
                                                  ("personalBests", .array(personalBests(of: w.summary).map { $0.json() })), context.unitsPair]))
        } catch { return .value(storeErrorReply(error, id: id)) }
    }

    func delete(_ id: WorkoutID) -> ControlReply {
        do { try store.delete(id); log(DaemonLogEvent.deleted(id.rawValue)); return .value(ControlServer.okReply([("id", .string(id.rawValue))])) }
        catch { return .value(storeErrorReply(error, id: id)) }
    }

    func undelete(_ id: WorkoutID) -> ControlReply {
        do { try store.undelete(id); return .value(ControlServer.okReply([("id", .string(id.rawValue))])) }
        catch { return .value(storeErrorReply(error, id: id)) }
    }

    func storeErrorReply(_ error: any Error, id: WorkoutID) -> JSON {
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
        guard summary.activity.tracksBestEfforts, !summary.bestEfforts.isEmpty else { return [] }
        var previous: [ActivityType: [BestEffort]] = [:]
        for other in store.summaries() where other.id != summary.id && other.activity == summary.activity && other.startedAt < summary.startedAt {
            previous = PersonalRecords.merged(activity: other.activity, previous: previous, efforts: other.bestEfforts)
        }
        return PersonalRecords.newBests(activity: summary.activity, previous: previous, efforts: summary.bestEfforts)
    }

    /// Logs the personal bests a saved workout set against every other saved workout of its activity.
    func announceRecords(_ workout: RecordedWorkout) {
        var previous: [ActivityType: [BestEffort]] = [:]
        for other in store.summaries() where other.id != workout.id && other.activity == workout.activity {
            previous = PersonalRecords.merged(activity: other.activity, previous: previous, efforts: other.bestEfforts)
        }
        for best in PersonalRecords.newBests(activity: workout.activity, previous: previous, efforts: workout.summary.bestEfforts) {
            log(PersonalBestLogEvent(best: best, id: workout.id))
        }
    }
}
