import Dispatch
import Glibc
import WorkoutCore

/// Wires the shell together and runs the lifecycle: every transition happens on the event loop
/// thread; the daemon applies it and performs the actions it returned (`perform`), deciding
/// nothing itself. Status encoding is in `Daemon+Status.swift`, control requests in
/// `Daemon+Requests.swift`.
/// `@unchecked Sendable`: confined to the loop thread; other threads (saver, signals) only
/// `post` closures to the loop, which run there.
public final class Daemon: @unchecked Sendable {
    public static let version = "0.1.0"

    let loop: EventLoop
    let paths: Paths
    let environment: [String: String]
    var config: Config
    let configPath: String
    var lifecycle = WorkoutLifecycle()
    let logger: Logger
    let store: HistoryStore
    let journal: Journal
    var server: ControlServer?
    var feeds: FeedHub?
    /// Heart-rate sensors (`sensors`), opened while a workout that uses them records.
    var sensors: SensorHub?
    let notifier: SystemdNotifier
    let saver = DispatchQueue(label: "workoutd.saver")
    /// Where the journal's periodic fsync runs, off the event loop.
    let journalSyncer = DispatchQueue(label: "workoutd.journal-sync")
    /// Imports, exports and edits (Daemon+Import.swift).
    let bulk: BulkWorker
    /// Write and commit what an import on `bulk` has measured.
    let importStages = ImportStages()
    var signalSources: [DispatchSourceSignal] = []
    var timers: [RepeatingTimer] = []
    var statusLogTimer: RepeatingTimer?
    /// Where every `now` handed to the core comes from.
    let clock = DaemonClock()
    /// The logind lock on sleep while a workout records (nil: no system bus address).
    var sleepInhibitor: SleepInhibitor?
    /// Why there is no `sleepInhibitor`, for status.
    var inhibitorProblem: String?
    var shutdown = ShutdownState.running
    /// Zone rules for streak days (read from /usr/share/zoneinfo once, and on reload).
    var zoneCache: (ZoneRules, String)?
    /// Seconds ticked since start-up.
    var ticks = 0
    /// The streak day of the last "at risk" warning (once per day).
    var lastRiskWarningDay: StreakDay?
    /// Per habit name, the first day of the period of its last at-risk warning.
    var habitWarnings: [String: StreakDay] = [:]
    /// Runs hook programs (config `hooks`) off the loop; set by `installHooks()`.
    var hookRunner: HookRunner?
    /// Desktop notifications (config `notifications`), created at the first notice.
    var desktopNotifier: DesktopNotifier?
    let testHooks: Bool
    /// The current workout's splits and laps as encoded for the last status line.
    var statusCache = SummaryJSONCache()

    enum ShutdownState { case running, draining(deadline: Double), done }

    public init(config: Config, configPath: String, paths: Paths, environment: [String: String]) throws {
        self.loop = try EventLoop()
        self.config = config
        self.configPath = configPath
        self.paths = paths
        self.environment = environment
        self.logger = Logger(environment: environment, minimumLevel: config.logLevel)
        self.notifier = SystemdNotifier(environment: environment)
        self.testHooks = environment["WORKOUTD_TEST_HOOKS"] == "1"
        var faults: (@Sendable () -> SystemError?)?
        if testHooks, let flag = environment["WORKOUTD_TEST_FAIL_SAVES"] {
            // Test hook: while this file exists, saves fail as on a full disk.
            faults = { access(flag, F_OK) == 0 ? SystemError("write (test hook \(flag))", code: ENOSPC) : nil }
        }
        try PrivateDirectory.prepareOwned(paths.stateDir)
        self.store = try HistoryStore(paths: paths, faultInjector: faults)
        let history = self.store
        bulk = BulkWorker(idleSeconds: HistoryStore.recentIdleSeconds) { history.forgetRecent() }
        self.journal = Journal(path: paths.journalFile)
        configureLogFile()
        installHooks()
    }

    /// The daemon's clock (`DaemonClock`).
    func now() -> Double { clock.now() }

    func log(_ e: some LogEvent) { logger.log(e, wallTime: now()) }

    func configureLogFile() {
        logger.configureFile(path: config.log.file ? paths.logFile : nil, maxBytes: config.log.maxFileBytes, keep: config.log.keepFiles)
        logger.minimumLevel = config.logLevel
    }

    /// Binds (or adopts) the sockets, restores any journal, reports readiness, and runs until a
    /// stop signal has been handled. Returns the exit status.
    public func run() throws -> Int32 {
        ignoreSIGPIPE()
        let activation = SocketActivation.listenFDs(environment: environment)
        if let e = activation.error { throw ConfigError(key: "LISTEN_FDS", problem: "socket activation: \(e)") }
        let fd: Int32
        if let passed = activation.control {
            fd = passed
        } else {
            fd = try UnixSocket.listen(path: paths.controlSocket)
        }
        server = ControlServer(loop: loop, listenFD: fd, limits: config.limits, boundPath: activation.control == nil ? paths.controlSocket : nil) { [unowned self] req, fds in self.handle(req, descriptors: fds) }
        server?.onDescriptorExhaustion = { [unowned self] out, why in
            self.log(out ? DaemonLogEvent.descriptorsExhausted(why) : DaemonLogEvent.descriptorsAvailable)
        }
        feeds = FeedHub(loop: loop, feeds: config.feeds, paths: paths, maxClients: config.limits.maxClients, clock: clock) { [unowned self] report in
            self.feedReported(report)
        }
        sensors = SensorHub(loop: loop, configs: config.sensors, clock: clock, environment: environment) { [unowned self] report in
            self.sensorReported(report)
        }
        sleepInhibitor = makeSleepInhibitor()
        restoreJournalIfAny()
        installSignalHandlers()
        timers.append(loop.every(1) { [unowned self] in self.secondTick() })
        timers.append(loop.every(config.journalFlushSeconds) { [unowned self] in self.flushJournal() })
        rescheduleStatusLog()
        log(DaemonLogEvent.startedUp(version: Daemon.version, socket: paths.controlSocket, workouts: store.count, activated: activation.control != nil))
        if !store.removedAtStartup.files.isEmpty {
            log(HistoryLogEvent.temporaryFilesRemoved(files: store.removedAtStartup.files.count, bytes: store.removedAtStartup.bytes))
        }
        logStreaksAtStartup()
        notifier.notify(["READY=1", "STATUS=" + statusLine()])
        let watchdogInterval = notifier.watchdogInterval
        var lastPing = EventLoop.monotonic()
        loop.run { [unowned self] in
            // The watchdog is fed from the loop itself: a hung loop stops feeding it.
            if let iv = watchdogInterval, EventLoop.monotonic() - lastPing >= iv {
                self.notifier.notify(["WATCHDOG=1"])
                lastPing = EventLoop.monotonic()
            }
        }
        log(DaemonLogEvent.stopped)
        logger.drain(seconds: 1)  // the last lines, but no hang on a stderr nobody reads
        return 0
    }

    // MARK: - Running the lifecycle

    /// Applies a command's outcome: performs actions on success, turns a refusal into a reply.
    func apply(_ outcome: WorkoutLifecycle.Outcome) -> ControlReply {
        switch outcome {
        case .success(let actions):
            perform(actions)
            return .encodedSuccess(encodedStatus(.reply))
        case .failure(let refusal):
            return .value(ControlServer.errorReply(ProtocolError(code: refusal.code, message: refusal.message)))
        }
    }

    /// Performs the actions a transition returned, in order.
    func perform(_ actions: [LifecycleAction]) {
        for action in actions {
            switch action {
            case .openGPS: feeds?.open()
            case .closeGPS: feeds?.close()
            case .openSensors: sensors?.open()
            case .closeSensors: sensors?.close()
            case .inhibitSleep: sleepInhibitor?.acquire()
            case .allowSleep: sleepInhibitor?.release()
            case .journal(let record): journal.append(record)
            case .keepJournalAside(let reason, let badBytes):
                if let aside = journal.keepAside(reason: reason, now: now()) {
                    if let e = journal.readError {
                        log(DaemonLogEvent.journalUnreadableKeptAside(path: aside, reason: e.description))
                    } else {
                        log(DaemonLogEvent.journalKeptAside(path: aside, bytes: badBytes, skipped: 0))
                    }
                }
            case .save(let workout): beginSave(workout)
            case .retrySave(let id, let after): loop.after(after) { [unowned self] in self.perform(self.lifecycle.retrySave(id)) }
            case .setJournalAside(let id):
                if let aside = journal.setAside(id) { log(DaemonLogEvent.journalSetAside(id: id.rawValue, path: aside)) }
            case .removeSetAsideJournal(let id):
                let paths = journal.setAsideFiles(id)
                saver.async { for path in paths { _ = unlink(path) } }  // freeing a long journal's blocks is slow: off the loop
            case .removeJournal:
                // The unlinked file's blocks are freed on the saver's thread, not the loop's.
                let saver = self.saver
                journal.remove { fd in saver.async { _ = close(fd) } }
            case .announceSaved(let workout): announceSaved(workout)
            case .log(let event): log(event)
            case .logRecorder(let event): log(event)
            case .publish:
                publish()
                notifier.status(statusLine())  // sent only when the text changed
            case .publishProgress: publish()
            case .shiftClock(let seconds):
                clock.shift(by: seconds)
                feeds?.workoutClockShifted(by: seconds)
                log(ClockLogEvent.dates(lifecycle.dateSource.describe(sync: clock.sync ?? .unknown)))
            }
        }
        clock.track(workoutInProgress: lifecycle.hasWorkoutInProgress)
    }

    /// What the feed hub reported.
    func feedReported(_ report: FeedHub.Report) {
        switch report {
        case .fix(let fix): perform(lifecycle.fixReceived(fix, at: now()))
        case .sourceChanged(let replay): perform(lifecycle.feedSourceChanged(replay: replay, at: now()))
        case .replayEnded: perform(lifecycle.replayEnded(at: now()))
        case .segmentBreak: perform(lifecycle.segmentBreakReceived(at: now()))
        case .readTurnEnded: journal.writeBuffered()  // a killed process then loses no counted fix
        case .heartRate(let r): perform(lifecycle.heartRateReceived(time: r.time, bpm: r.bpm, rr: r.rr1024, at: now()))
        case .log(let event): log(event)
        }
    }

    /// What the heart-rate sensors reported.
    func sensorReported(_ report: SensorHub.Report) {
        switch report {
        case .reading(let bpm, let rr): perform(lifecycle.heartRateReceived(time: nil, bpm: bpm, rr: rr, at: now()))
        case .stopped: perform(lifecycle.heartRateStopped(at: now()))
        case .log(let event): log(event)
        }
    }

    func beginSave(_ workout: RecordedWorkout) {
        journal.flush(alive: nil)
        let store = self.store
        let loop = self.loop
        saver.async {
            let t0 = EventLoop.monotonic()
            let result: Result<Double, SystemError>
            do { try store.save(workout); result = .success((EventLoop.monotonic() - t0) * 1000) }
            catch let e as SystemError { result = .failure(e) }
            catch { result = .failure(SystemError("save", code: EIO)) }
            MemoryPolicy.returnFreedMemory()
            loop.post { self.saveFinished(workout, result) }
        }
    }

    func saveFinished(_ workout: RecordedWorkout, _ result: Result<Double, SystemError>) {
        switch result {
        case .success(let ms):
            log(DaemonLogEvent.saved(workout.summary, path: store.path(of: workout.id), milliseconds: ms))
            perform(lifecycle.saveSucceeded(workout.id))
        case .failure(let e):
            perform(lifecycle.saveFailed(workout.id, error: e.description))
        }
        checkShutdownProgress()
    }

    func announceSaved(_ workout: RecordedWorkout) {
        let s = workout.summary
        let duration = max(0, (s.endedAt ?? s.startedAt) - s.startedAt)
        // Recording health is about GPS fixes: nothing to say for yoga or strength training.
        if s.activity.supportsGPS {
            log(DaemonLogEvent.health(s, fixRate: duration > 0 ? Double(s.pointCount) / duration : 0))
        }
        announceRecords(workout)
        announceStreakAfterSave(workout)
    }

    /// Personal bests this workout set against every other saved workout of its activity.
    func announceRecords(_ workout: RecordedWorkout) {
        var previous: [ActivityType: [BestEffort]] = [:]
        for other in store.summaries() where other.id != workout.id && other.activity == workout.activity {
            previous = PersonalRecords.merged(activity: other.activity, previous: previous, efforts: other.bestEfforts)
        }
        for best in PersonalRecords.newBests(activity: workout.activity, previous: previous, efforts: workout.summary.bestEfforts) {
            log(PersonalBestLogEvent(best: best, id: workout.id))
        }
    }

    func restoreJournalIfAny() {
        // Finished workouts whose save had not succeeded when the next one started: save them.
        for path in journal.setAsidePaths() {
            guard let recovery = Journal(path: path).recover(now: now()) else { continue }
            perform(lifecycle.restoredSetAside(recovery.records, settings: metricsSettings()))
        }
        guard journal.exists else { return }
        _ = lifecycle.beginRestore()
        notifier.notify(["STATUS=Restoring an interrupted workout"])
        guard let recovery = journal.recover(now: now()) else {
            perform(lifecycle.restoreFailed())
            return
        }
        if let aside = recovery.keptAside { log(DaemonLogEvent.journalKeptAside(path: aside, bytes: recovery.badBytes, skipped: recovery.skippedRecords)) }
        if let e = recovery.asideError { log(DaemonLogEvent.journalTornEndCut(bytes: recovery.tornBytes, skipped: recovery.skippedRecords, reason: e.description)) }
        // The restored workout's clock never runs behind its journal (a wall clock stepped back
        // while the daemon was down); the daemon's own clock is not moved (docs/time.md).
        clock.restore(journalLast: recovery.records.compactMap(\.aliveTime).max())
        perform(lifecycle.restored(recovery.records, badBytes: recovery.badBytes, at: now(),
                                   autoResume: config.autoResumeAfterRestore, settings: metricsSettings()))
    }

    func metricsSettings() -> MetricsSettings {
        MetricsSettings(config: config)
    }

    // MARK: - Timers

    func secondTick() {
        checkClocks()
        perform(lifecycle.tick(at: now()))
        sensors?.tick()
        ticks &+= 1
        if ticks % 60 == 0 { checkStreakRisk() }  // the warning is due once a day; a minute is precise enough
    }

    func flushJournal() {
        guard lifecycle.hasWorkoutInProgress else { return }
        let loop = self.loop
        journal.flushInBackground(alive: now(), on: journalSyncer) { error in
            loop.post { [unowned self] in
                self.journal.backgroundSyncFinished(error)
                if let error { self.log(DaemonLogEvent.journalWriteFailed(error.description)) }
            }
        }
        if let e = journal.lastError { log(DaemonLogEvent.journalWriteFailed(e.description)) }
    }

    func rescheduleStatusLog() {
        statusLogTimer?.cancel()
        statusLogTimer = nil
        guard config.statusLogSeconds > 0 else { return }
        statusLogTimer = loop.every(config.statusLogSeconds) { [unowned self] in
            guard self.lifecycle.hasWorkoutInProgress, let s = self.lifecycle.summary(now: self.now()) else { return }
            self.log(DaemonLogEvent.status(s, state: self.lifecycle.stateName, fix: self.feeds?.status.fix ?? "none", units: self.config.units))
        }
    }

    // MARK: - Shutdown

    func installSignalHandlers() {
        for sig in [SIGTERM, SIGINT, SIGHUP] {
            signal(sig, SIG_IGN)
            let src = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            let loop = self.loop
            src.setEventHandler { [unowned self] in loop.post { self.signalReceived(sig) } }
            src.resume()
            signalSources.append(src)
        }
    }

    func signalReceived(_ sig: Int32) {
        if sig == SIGHUP { reload(); return }
        beginShutdown(reason: sig == SIGTERM ? "SIGTERM" : "SIGINT")
    }

    /// Graceful stop: stop accepting, close feeds, keep the workout in progress in the journal
    /// for the next start (`WorkoutLifecycle.shutDown`: a restart or shutdown does not end a
    /// workout), wait for a save in flight (at most 10 s; the journal keeps that workout if the
    /// save cannot finish), fsync the journal, exit.
    func beginShutdown(reason: String) {
        guard case .running = shutdown else { return }
        notifier.notify(["STOPPING=1", "STATUS=Stopping" + (lifecycle.hasWorkoutInProgress ? "; keeping the workout in progress for the next start" : "")])
        log(DaemonLogEvent.shuttingDown(signal: reason))
        server?.close()
        server = nil
        feeds?.shutdown()
        sensors?.shutdown()
        perform(lifecycle.shutDown(at: now(), journalWritable: journal.lastError == nil))
        shutdown = .draining(deadline: EventLoop.monotonic() + 10)
        checkShutdownProgress()
        loop.after(10) { [unowned self] in self.finishShutdown() }
    }

    func checkShutdownProgress() {
        guard case .draining = shutdown, !lifecycle.firstSaveRunning else { return }
        finishShutdown()
    }

    func finishShutdown() {
        if case .done = shutdown { return }
        // At exit the fsync is waited for (the periodic one runs in the background).
        if lifecycle.hasWorkoutInProgress { journal.flush(alive: now()) }
        shutdown = .done
        loop.stop()
    }

    func ignoreSIGPIPE() { signal(SIGPIPE, SIG_IGN) }
}
