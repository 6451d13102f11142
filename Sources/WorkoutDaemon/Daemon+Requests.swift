import Glibc
import WorkoutCore

/// Control requests: each is answered from the lifecycle or the history store.
extension Daemon {
    /// `descriptors`: what the request carried (SCM_RIGHTS), owned from here on.
    func handle(_ request: ControlRequest, descriptors: [Int32] = []) -> ControlReply {
        // Every feed line sent before a stop (pause, lap ...) counts in it (`simulate FILE; stop`);
        // other requests are not held up by a flood on the feed socket.
        if request.readsFeedFirst { feeds?.catchUp() }
        let t = now()
        switch request {
        case .status: return .encodedSuccess(encodedStatus(.reply))
        case .watch: return .encodedSuccess(encodedStatus(.subscribedReply))
        case .start(let activity):
            return apply(lifecycle.start(activity, id: newWorkoutID(t), at: t, settings: metricsSettings()))
        case .pause: return apply(lifecycle.pause(at: t))
        case .resume: return apply(lifecycle.resume(at: t))
        case .lap: return apply(lifecycle.lap(at: t))
        case .marker(let text): return apply(lifecycle.marker(text, at: t))
        case .stop:
            // The reply names the personal bests the workout set (docs/protocol.md).
            let outcome = lifecycle.stop(at: t)
            guard case .success(let actions) = outcome else { return apply(outcome) }
            perform(actions)
            return .encodedSuccess(encodedStatus(.reply, personalBests: lifecycle.summary(now: t).map(personalBests(of:)) ?? []))
        case .toggle:
            return apply(lifecycle.toggle(defaultActivity: config.defaultActivity, id: newWorkoutID(t), at: t, settings: metricsSettings()))
        case .activities:
            return .value(ControlServer.okReply([("activities", .array(ActivityType.allCases.map { $0.json() }))]))
        case .list(let filter):
            return .value(ControlServer.okReply([("workouts", .array(store.list(filter).map { $0.json() })), unitsPair]))
        case .show(let id):
            do {
                let w = try store.load(id)
                return .value(ControlServer.okReply([("workout", w.summary.json()), ("events", .array(w.events.map { $0.json() })), ("source", .string(w.source)),
                                                      ("personalBests", .array(personalBests(of: w.summary).map { $0.json() })), unitsPair]))
            } catch { return .value(storeErrorReply(error, id: id)) }
        case .export(let id, let format): return startExport(id, format, into: nil)
        case .exportTo(let id, let format): return startExport(id, format, into: descriptors[0])
        case .importFiles(let files, let activity):
            return startImport(files.map { .init(source: .path($0), file: $0) }, activity: activity, streamed: false)
        case .importDescriptors(let items, let activity):
            let batch = zip(items, descriptors).map { item, fd in
                ImportBatch.Item(source: .descriptor(fd), file: item.file, activity: item.activity, title: item.title)
            }
            return startImport(batch, activity: activity, streamed: true)
        case .edit(let id, let activity): return startEdit(id, activity: activity)
        case .recompute(let id, let overrides, let save): return startRecompute(id, overrides: overrides, save: save)
        case .delete(let id):
            do { try store.delete(id); log(DaemonLogEvent.deleted(id.rawValue)); return .value(ControlServer.okReply([("id", .string(id.rawValue))])) }
            catch { return .value(storeErrorReply(error, id: id)) }
        case .undelete(let id):
            do { try store.undelete(id); return .value(ControlServer.okReply([("id", .string(id.rawValue))])) }
            catch { return .value(storeErrorReply(error, id: id)) }
        case .streak:
            return .value(ControlServer.okReply([("streak", streakJSON()), unitsPair]))
        case .totals(let per, let activity):
            return .value(ControlServer.okReply([("totals", totalsJSON(per, activity: activity)), unitsPair]))
        case .reload:
            return .value(reload())
        case .debugHang:
            guard testHooks else { return .value(ControlServer.errorReply(ProtocolError(code: "unknown_command", message: "unknown command 'debug-hang'"))) }
            while true { sleep(3600) }  // test-only: a hung main loop, for the watchdog test
        }
    }

    func storeErrorReply(_ error: any Error, id: WorkoutID) -> JSON {
        switch error {
        case let e as StoreError: return ControlServer.errorReply(ProtocolError(code: e.code, message: e.description))
        case let e as SystemError where e.code == ENOENT:
            return ControlServer.errorReply(ProtocolError(code: "not_found", message: "no saved workout \(id) (see `workoutctl list`)"))
        default: return ControlServer.errorReply(ProtocolError(code: "io_error", message: "\(error)"))
        }
    }

    func newWorkoutID(_ t: Double) -> WorkoutID {
        WorkoutID(start: t, suffix: UInt16.random(in: 0...UInt16.max), machine: store.machine)
    }

    /// Re-reads the configuration; an invalid one is rejected and the old one stays in force.
    @discardableResult
    func reload() -> JSON {
        notifier.notify(["RELOADING=1", "MONOTONIC_USEC=\(UInt64(EventLoop.monotonic() * 1e6))"])
        defer { notifier.notify(["READY=1", "STATUS=" + statusLine()]) }
        switch ConfigLoader.load(path: configPath) {
        case .failure(let e):
            log(DaemonLogEvent.reloadRejected(e.description))
            return ControlServer.errorReply(ProtocolError(code: "invalid_config", message: e.description))
        case .success(let new):
            let changed = config.changedKeys(to: new)
            config = new
            zoneCache = nil
            configureLogFile()
            server?.limits = new.limits
            rescheduleStatusLog()
            feeds?.maxClients = new.limits.maxClients
            feeds?.configure(new.feeds)
            sensors?.configure(new.sensors)
            if changed.contains("sleepInhibitor") { reconfigureSleepInhibitor() }
            if changed.contains("importFolders") { importFolders?.configure(folders: importFolderPaths()) }
            if changed.contains("historyDir") { log(SyncLogEvent.historyDirAtNextStart(now: paths.historyDir)) }
            log(DaemonLogEvent.reloaded(changed: changed))
            perform(lifecycle.settingsChanged(metricsSettings(), at: now()))  // the workout in progress follows from now
            return ControlServer.okReply([("changed", .array(changed.map { .string($0) }))])
        }
    }
}

extension ActivityType {
    func json() -> JSON {
        [
            "name": .string(rawValue), "displayName": .string(displayName), "supportsGPS": .bool(supportsGPS),
            "effort": .string(effortDisplay.rawValue), "autoPauseSpeed": .number(autoPauseSpeed), "maxPlausibleSpeed": .number(maxPlausibleSpeed),
            "met": .number(met), "tcxSport": .string(tcxSport.rawValue), "bestEfforts": .bool(tracksBestEfforts),
        ]
    }
}
