import Dispatch
import Glibc
import WorkoutCore

/// Wires the shell together and owns the lifecycle. Every transition happens on the event loop
/// thread: apply the pure transition, then perform the actions it returned.
/// `@unchecked Sendable`: confined to the loop thread; other threads (saver, signals) only
/// `post` closures to the loop, which run there.
public final class Daemon: @unchecked Sendable {
    public static let version = "0.1.0"

    let loop: EventLoop
    let paths: Paths
    let environment: [String: String]
    var config: Config
    let configPath: String
    var lifecycle: WorkoutLifecycle = .idle(lastActivity: nil)
    let logger: Logger
    let store: HistoryStore
    let journal: Journal
    var server: ControlServer?
    var feeds: FeedHub?
    let notifier: SystemdNotifier
    let saver = DispatchQueue(label: "workoutd.saver")
    /// Imports, exports and edits (Daemon+Import.swift).
    let bulk = BulkWorker()
    var signalSources: [DispatchSourceSignal] = []
    var timers: [RepeatingTimer] = []
    var statusLogTimer: RepeatingTimer?
    /// Wall time at start-up and the monotonic reading taken with it: `now()` advances with the
    /// monotonic clock, so a wall-clock step during a workout changes no duration.
    /// Moved forward (never back) at restore when the wall clock is behind the journal.
    var wallAnchor: Double
    let monoAnchor: Double
    var shutdown = ShutdownState.running
    /// Where the workout's time comes from: the daemon's clock, or a simulation feed's.
    var clock = WorkoutClock.system
    /// Zone rules for streak days (read from /usr/share/zoneinfo once, and on reload).
    var zoneCache: (ZoneRules, String)?
    /// Seconds ticked since start-up.
    var ticks = 0
    /// The streak day of the last "at risk" warning (once per day).
    var lastRiskWarningDay: StreakDay?
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
        self.store = try HistoryStore(paths: paths, faultInjector: faults)
        self.journal = Journal(path: paths.journalFile)
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        wallAnchor = Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        monoAnchor = EventLoop.monotonic()
        configureLogFile()
    }

    /// The daemon's clock: wall time at start-up advanced by the monotonic clock.
    func now() -> Double { wallAnchor + (EventLoop.monotonic() - monoAnchor) }

    /// The workout's clock: the daemon's, or while a simulation feed drives the workout, the
    /// feed's last fix time advanced by the wall time since, times the replay speed.
    func workoutNow() -> Double {
        switch clock {
        case .system: return now()
        case .feed(let t, let at, let speed): return t + (EventLoop.monotonic() - at) * speed
        }
    }

    /// The simulation feed closed: the workout's clock stops at its last fix, so a stop sent
    /// later still ends the workout where the file ended.
    func simulationEnded() {
        if case .feed(let t, _, _) = clock { clock = .feed(lastFixTime: t, receivedAt: EventLoop.monotonic(), speed: 0) }
    }

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
        server = ControlServer(loop: loop, listenFD: fd, limits: config.limits) { [unowned self] req, fds in self.handle(req, descriptors: fds) }
        feeds = FeedHub(daemon: self)
        restoreJournalIfAny()
        installSignalHandlers()
        timers.append(loop.every(1) { [unowned self] in self.secondTick() })
        timers.append(loop.every(config.journalFlushSeconds) { [unowned self] in self.flushJournal() })
        rescheduleStatusLog()
        log(DaemonLogEvent.startedUp(version: Daemon.version, socket: paths.controlSocket, workouts: store.count, activated: activation.control != nil))
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
        return 0
    }

    // MARK: - Lifecycle plumbing

    /// Applies a transition's outcome: performs actions on success, turns a refusal into a reply.
    func apply(_ outcome: WorkoutLifecycle.Outcome) -> ControlReply {
        switch outcome {
        case .success(let actions):
            perform(actions)
            publish()
            return .encodedSuccess(encodedStatus(.reply))
        case .failure(let refusal):
            return .value(ControlServer.errorReply(ProtocolError(code: refusal.code, message: refusal.message)))
        }
    }

    func perform(_ actions: [LifecycleAction]) {
        for action in actions {
            switch action {
            case .openGPS: feeds?.open()
            case .closeGPS: feeds?.close()
            case .journal(let record): journal.appendNow(record)
            case .save(let workout):
                clock = .system
                beginSave(workout)
            case .retrySave(let after): loop.after(after) { [unowned self] in self.perform(self.lifecycle.retrySave()) }
            case .removeJournal:
                // The unlinked file's blocks are freed on the saver's thread, not the loop's.
                let saver = self.saver
                journal.remove { fd in saver.async { _ = close(fd) } }
            case .announceSaved(let workout): announceSaved(workout)
            case .log(let event): log(event)
            }
        }
        notifier.notify(["STATUS=" + statusLine()])
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
        publish()
        checkShutdownProgress()
    }

    func announceSaved(_ workout: RecordedWorkout) {
        let s = workout.summary
        let duration = max(0, (s.endedAt ?? s.startedAt) - s.startedAt)
        log(DaemonLogEvent.health(s, fixRate: duration > 0 ? Double(s.pointCount) / duration : 0))
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
            log(RecordLogEvent(best: best, id: workout.id))
        }
    }

    func restoreJournalIfAny() {
        guard journal.exists else { return }
        _ = lifecycle.beginRestore()
        notifier.notify(["STATUS=Restoring an interrupted workout"])
        guard let recovery = journal.recover(now: now()) else {
            // Unreadable: keep it for a person, start clean.
            if let aside = journal.keepAside(reason: "unreadable", now: now()) { log(DaemonLogEvent.journalKeptAside(path: aside, bytes: 0)) }
            lifecycle = .idle(lastActivity: nil)
            return
        }
        if let aside = recovery.keptAside { log(DaemonLogEvent.journalKeptAside(path: aside, bytes: recovery.badBytes)) }
        // The wall clock may now be behind the journal (stepped back while we were down): run
        // the daemon's clock from the journal's last moment instead, so the workout's times
        // keep increasing and a resumed workout counts time at once.
        if let last = recovery.records.compactMap(\.aliveTime).max(), last > now() {
            wallAnchor += last - now()
        }
        let actions = lifecycle.restored(recovery.records, at: now(), autoResume: config.autoResumeAfterRestore, settings: metricsSettings())
        if case .idle = lifecycle, let aside = journal.keepAside(reason: "unrestorable", now: now()) {
            // No start record: nothing to restore, but never delete what we could not read.
            log(DaemonLogEvent.journalKeptAside(path: aside, bytes: recovery.badBytes))
        }
        perform(actions)
    }

    func metricsSettings() -> MetricsSettings {
        MetricsSettings(config: config)
    }

    // MARK: - Timers

    func secondTick() {
        let events = lifecycle.tick(now: workoutNow())
        handleRecorderEvents(events)
        if case .active = lifecycle { publish() }
        ticks &+= 1
        if ticks % 60 == 0 { checkStreakRisk() }  // the warning is due once a day; a minute is precise enough
    }

    func flushJournal() {
        switch lifecycle {
        case .active, .paused:
            journal.flush(alive: now())
            if let e = journal.lastError { log(DaemonLogEvent.journalWriteFailed(e.description)) }
        case .idle, .restoring, .saving:
            break
        }
    }

    func rescheduleStatusLog() {
        statusLogTimer?.cancel()
        statusLogTimer = nil
        guard config.statusLogSeconds > 0 else { return }
        statusLogTimer = loop.every(config.statusLogSeconds) { [unowned self] in
            switch self.lifecycle {
            case .active, .paused:
                if let s = self.lifecycle.summary(now: self.workoutNow()) {
                    self.log(DaemonLogEvent.status(s, state: self.lifecycle.stateName, fix: self.feeds?.status.fix ?? "none"))
                }
            case .idle, .restoring, .saving: break
            }
        }
    }

    // MARK: - GPS

    /// A fix from the active source: into the lifecycle, and into the journal if recorded.
    /// `simulation` is set for a simulation feed: the workout then follows the feed's time, and a
    /// replayed device track is measured with the import rules (docs/protocol.md).
    func fixArrived(_ fix: Fix, simulation: (speed: Double, origin: TrackOrigin)? = nil) {
        if let (speed, origin) = simulation, lifecycle.wantsGPS {
            perform(lifecycle.rebaseStart(to: fix.time, origin: origin, settings: metricsSettings()))
            clock = .feed(lastFixTime: fix.time, receivedAt: EventLoop.monotonic(), speed: max(speed, 0.001))
        }
        guard let events = lifecycle.fixReceived(fix) else { return }
        journal.appendFix(fix)
        handleRecorderEvents(events)
    }

    func handleRecorderEvents(_ events: [RecorderEvent]) {
        for e in events { if let line = RecorderLogEvent(e, id: lifecycle.currentWorkoutID) { log(line) } }
    }

    // MARK: - Status

    /// Which status line to encode.
    enum StatusLine {
        /// The reply to `status` and to successful transitions: `{"ok":true,"state":...}`.
        case reply
        /// The reply to `watch`: the same with `"subscribed":true` at the end.
        case subscribedReply
        /// What `watch` subscribers receive after a change: `{"event":"status","state":...}`.
        case event
    }

    /// The status as compact JSON text (keys: docs/interface.md), written straight to bytes;
    /// the workout's closed splits and laps are copied from `statusCache`, not encoded again.
    func encodedStatus(_ line: StatusLine) -> [UInt8] {
        var w = JSONWriter(capacity: 1024)
        switch line {
        case .reply, .subscribedReply: w.raw("{\"ok\":true")
        case .event: w.raw("{\"event\":\"status\"")
        }
        w.raw(",\"state\":"); w.string(lifecycle.stateName)
        w.raw(",\"workout\":")
        if let summary = lifecycle.summary(now: workoutNow()) {
            summary.writeJSON(to: &w, cache: &statusCache)
        } else {
            w.null()
            statusCache = SummaryJSONCache()  // no workout: keep no bytes of the last one
        }
        w.raw(",\"gps\":"); w.value(feeds?.status.json() ?? GPSStatus().json())
        w.raw(",\"action\":"); w.string(lifecycle.actionTitle(defaultActivity: config.defaultActivity))
        w.raw(",\"saveError\":"); w.string(lifecycle.saveError ?? journal.lastError?.description)
        switch line {
        case .subscribedReply: w.raw(",\"subscribed\":true}")
        case .reply, .event: w.raw("}")
        }
        return w.bytes
    }

    /// One line for `systemctl status` (sd_notify STATUS=).
    func statusLine() -> String {
        switch lifecycle {
        case .idle: return "Idle; \(store.count) workouts saved"
        case .restoring: return "Restoring an interrupted workout"
        case .active, .paused:
            guard let s = lifecycle.summary(now: workoutNow()) else { return lifecycle.stateName }
            return "\(lifecycle.stateName == "active" ? "Recording" : "Paused") \(s.activity.rawValue) \(formatDuration(s.elapsedSeconds)) \(formatFixed(s.distanceMeters / 1000, decimals: 2)) km; GPS \(feeds?.status.fix ?? "none")"
        case .saving(let job):
            return job.lastError.map { "Saving \(job.workout.id) failed: \($0); retrying" } ?? "Saving \(job.workout.id)"
        }
    }

    /// Tells `watch` subscribers the current status.
    func publish() {
        guard let server, server.watcherCount > 0 else { return }
        server.broadcast(encoded: encodedStatus(.event))
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

    /// Graceful stop: stop accepting, close feeds, stop and save the workout, wait for the
    /// saver (at most 10 s; the journal keeps the workout if the save cannot finish), exit.
    func beginShutdown(reason: String) {
        guard case .running = shutdown else { return }
        notifier.notify(["STOPPING=1"])
        log(DaemonLogEvent.shuttingDown(signal: reason))
        server?.close()
        server = nil
        feeds?.shutdown()
        if lifecycle.canStop { _ = apply(lifecycle.stop(at: workoutNow())) }
        shutdown = .draining(deadline: EventLoop.monotonic() + 10)
        checkShutdownProgress()
        loop.after(10) { [unowned self] in self.finishShutdown() }
    }

    func checkShutdownProgress() {
        guard case .draining = shutdown else { return }
        switch lifecycle {
        case .saving(let job) where job.failures == 0: return  // first attempt still running
        case .idle, .restoring, .active, .paused, .saving: finishShutdown()
        }
    }

    func finishShutdown() {
        if case .done = shutdown { return }
        flushJournal()  // only writes while a workout is active or paused
        shutdown = .done
        loop.stop()
    }

    func ignoreSIGPIPE() { signal(SIGPIPE, SIG_IGN) }
}

/// Where a workout's time comes from.
enum WorkoutClock {
    /// The daemon's clock (wall time at start-up advanced by the monotonic clock).
    case system
    /// A simulation feed's: its last fix time, when that fix arrived (monotonic), and the speed.
    case feed(lastFixTime: Double, receivedAt: Double, speed: Double)
}
