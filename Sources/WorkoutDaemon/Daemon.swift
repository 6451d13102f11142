import Dispatch
import Glibc
import WorkoutCore
import WorkoutSystem

/// The composition root: builds the services, wires what each reports to the service that acts
/// on it, and hands them to a `ServiceRunner` that starts them in order and stops them in
/// reverse (docs/architecture.md). It decides nothing about workouts: every transition happens
/// in `RecordingService` on the loop thread. Start order: reminders, integrations, recording,
/// history, web, control (the control socket is served last and closed first).
///
/// - `RecordingService` (Recording/): the lifecycle, its journal, feeds and sensors; the saver.
/// - `HistoryService` (History/): the store; import, export, edit, recompute on the bulk worker.
/// - `ReminderService` (Reminders/): streaks and habits.
/// - `IntegrationService` (Integrations/): hooks, desktop notifications, the lock on sleep.
/// - `ControlRouter` (Control/): the control socket; each request to the service that answers.
/// - `WebService` (Web/): the web pages, served from a thread of their own (docs/web.md).
///
/// `@unchecked Sendable`: confined to the loop thread; other threads (signals) only `post`
/// closures to the loop, which run there.
public final class Daemon: @unchecked Sendable {
    public static let version = "0.1.0"

    let context: DaemonContext
    let recording: RecordingService
    let history: HistoryService
    let reminders: ReminderService
    let integrations: IntegrationService
    let control: ControlRouter
    let web: WebService
    /// Every service above, in start order.
    let services: ServiceRunner
    private var signalSources: [DispatchSourceSignal] = []
    private var timers: [RepeatingTimer] = []
    private var shutdown = ShutdownState.running
    /// The configuration in force: the start-up one until a reload replaces it (the reload's
    /// `old`); the services hold their own slices.
    private var config: Config

    enum ShutdownState { case running, stopping }
    /// What the loop's thread last told `CPUAffinity` (Daemon+CPUPartition).
    var loopCPUs = LoopCPUs.notServing

    /// `ports`: the edges the host chooses (`DaemonPorts`): workoutd's defaults are the
    /// system's clocks and epoll_wait(2); a test embeds the daemon on a `ManualClock`.
    public init(config: Config, configPath: String, paths: Paths, environment: [String: String], ports: DaemonPorts = DaemonPorts()) throws {
        let loop = try EventLoop(clock: ports.clock, poller: ports.poller)
        var paths = paths
        paths.historyDir = paths.expandFolder(config.historyDir, environment: environment)
        let context = DaemonContext(loop: loop, config: config, configPath: configPath, paths: paths, environment: environment, ports: ports)
        try PrivateDirectory.prepareOwned(paths.stateDir)
        self.context = context
        self.config = config
        history = try HistoryService(context: context, config: config)
        recording = RecordingService(context: context, config: config, store: history.store)
        reminders = ReminderService(context: context, config: config, store: history.store)
        integrations = IntegrationService(context: context, config: config)
        web = WebService(context: context, config: config, store: history.store)
        control = ControlRouter(context: context, config: config, routes: Daemon.controlRoutes(recording, history, reminders, integrations, web))
        services = ServiceRunner(loop: loop, services: [reminders, integrations, recording, history, web, control], log: { [context] in context.log($0) })
        context.configureLog(config)
        wire()
    }

    /// Who hears what: each service reports through closures, and the daemon passes it on.
    private func wire() {
        // The daemon's time is the workout's while one is in progress: the lifecycle owns it.
        context.clock.workoutTime = { [unowned recording] reading in recording.workoutTime(reading) }
        recording.onEvent = { [unowned self] event in
            switch event {
            case .changed(let manager):
                self.control.publish()
                self.workoutMayHaveChanged()
                if manager { self.context.notifier.status(self.recording.headline()) }  // sent only when the text changed
            case .inhibitSleep: self.integrations.inhibitSleep()
            case .allowSleep: self.integrations.allowSleep()
            case .saved(let workout):
                self.history.announceRecords(workout)
                self.reminders.announceAfterSave(workout)
            }
        }
        history.onImported = { [unowned self] in self.context.notifier.status(self.recording.headline()) }
        integrations.onPrepareForSleep = { [unowned self] in self.recording.flushForSleep() }
        integrations.onSleepLockChanged = { [unowned self] in self.control.publish() }
        control.onReload = { [unowned self] in self.reload() }
        web.runRequest = { [unowned self] request in self.control.handle(request) }
        web.liveDelta = { [unowned self] since in self.recording.liveDelta(since: since) }
        web.calendar = { [unowned self] in self.reminders.streakCalculator().0 }
    }

    /// What the control router asks of each service, as closures (it holds none of them).
    private static func controlRoutes(_ recording: RecordingService, _ history: HistoryService, _ reminders: ReminderService,
                                      _ integrations: IntegrationService, _ web: WebService) -> ControlRoutes {
        ControlRoutes(
            snapshot: { [unowned recording] in recording.snapshot() },
            start: { [unowned recording] in recording.start($0) },
            startPlanned: { [unowned recording] in recording.start($0, plan: $1) },
            next: { [unowned recording] in recording.next() },
            pause: { [unowned recording] in recording.pause() },
            resume: { [unowned recording] in recording.resume() },
            lap: { [unowned recording] in recording.lap() },
            marker: { [unowned recording] in recording.marker($0) },
            stop: { [unowned recording] in recording.stop() },
            toggle: { [unowned recording] in recording.toggle() },
            catchUpFeeds: { [unowned recording] in recording.catchUpFeeds() },
            newestID: { [unowned history] in history.store.newestID() },
            lastDeletedID: { [unowned history] in history.store.lastDeletedID() },
            personalBests: { [unowned history] in history.personalBests(of: $0) },
            list: { [unowned history] in history.list($0) },
            show: { [unowned history] in history.show($0) },
            export: { [unowned history] in history.startExport($0, $1, into: $2) },
            importFiles: { [unowned history] in history.startImport($0, activity: $1, streamed: $2) },
            edit: { [unowned history] in history.startEdit($0, $1) },
            recompute: { [unowned history] in history.startRecompute($0, overrides: $1, save: $2) },
            delete: { [unowned history] in history.delete($0) },
            undelete: { [unowned history] in history.undelete($0) },
            charts: { [unowned history] in history.startCharts($0, columns: $1) },
            analytics: { [unowned history] in history.analytics($0, zone: $1, now: $2) },
            streak: { [unowned reminders] in reminders.streakJSON() },
            totals: { [unowned reminders] in reminders.totalsJSON($0, activity: $1) },
            streakZone: { [unowned reminders] in reminders.streakZone().0 },
            sleepInhibitor: { [unowned integrations] in integrations.sleepInhibitorReply() },
            webURL: { [unowned web] in web.urlReply($0) })
    }

    var loop: EventLoop { context.loop }
    func log(_ e: some LogEvent) { context.log(e) }

    /// Seconds after start-up when the code pages start-up ran are handed back again.
    static let settleSeconds = 2.0

    /// Binds (or adopts) the sockets, restores any journal, reports readiness, and runs until a
    /// stop signal has been handled. Returns the exit status.
    public func run() throws -> Int32 {
        try start(handlingSignals: true)
        // Start-up ran code the idle daemon does not run again: its pages go back (MemoryPolicy),
        // once the first second's work (the first tick, the clock's sync state, D-Bus peers
        // answering) is done too.
        MemoryPolicy.releaseCodePages()
        loop.after(Daemon.settleSeconds) { MemoryPolicy.releaseCodePages() }
        return serve()
    }

    /// All of `run` but the loop: binds (or adopts) the sockets, starts the services (the
    /// journal is restored) and the timers, and reports readiness. A test calls it with
    /// `handlingSignals: false` (the signals are its process's) and drives the loop itself
    /// (`loop.advanceTime(by:)` on a `ManualClock`).
    func start(handlingSignals: Bool) throws {
        ignoreSIGPIPE()
        let activation = SocketActivation.listenFDs(environment: context.environment)
        if let e = activation.error { throw ConfigError(key: "LISTEN_FDS", problem: "socket activation: \(e)") }
        // Bound before any service starts: a second daemon fails here, before it touches the journal.
        if let passed = activation.control {
            control.listening = (passed, nil)
        } else {
            control.listening = (try UnixSocket.listen(path: context.paths.controlSocket), context.paths.controlSocket)
        }
        web.activatedFD = activation.web
        try services.start()
        if handlingSignals { installSignalHandlers() }
        timers.append(loop.every(1) { [unowned self] in self.secondTick() })
        log(DaemonLogEvent.startedUp(version: Daemon.version, socket: context.paths.controlSocket, workouts: history.store.count, activated: activation.control != nil))
        reminders.logAtStartup()
        context.notifier.notify(["READY=1", "STATUS=" + recording.headline()])
    }

    /// Runs the loop until a stop has been handled; the exit status. `betweenTurns` runs on the
    /// loop's thread between wake-ups (an embedding test moves its `ManualClock` there).
    func serve(betweenTurns: () throws(SystemError) -> Void = {}) -> Int32 {
        let watchdogInterval = context.notifier.watchdogInterval
        let notifier = context.notifier
        let loop = self.loop
        var lastPing = loop.now()
        loopStartsServing()  // the loop's thread: pinned while a workout is in progress (CPUAffinity)
        defer { loopEndsServing() }
        do {
            try loop.run(onIteration: {
                // The watchdog is fed from the loop itself: a hung loop stops feeding it.
                if let iv = watchdogInterval, loop.now() - lastPing >= iv {
                    notifier.notify(["WATCHDOG=1"])
                    lastPing = loop.now()
                }
            }, betweenTurns: betweenTurns)
        } catch {
            return loopFailed(error)
        }
        log(DaemonLogEvent.stopped)
        context.logger.drain(seconds: 1)  // the last lines, but no hang on a stderr nobody reads
        return 0
    }

    /// The loop cannot go on (`poll` failed): say why, keep the workout in progress on disk
    /// (the journal written and fsynced), and exit non-zero so that systemd's
    /// `Restart=on-failure` starts the daemon again, which restores the workout.
    private func loopFailed(_ error: SystemError) -> Int32 {
        log(DaemonLogEvent.loopFailed(error.description))
        recording.flushJournalAtExit()
        context.notifier.notify(["STATUS=Event loop failed: \(error.description)"])
        context.logger.drain(seconds: 1)  // the line that says why, before the process exits
        return Daemon.loopFailureExitStatus
    }

    /// The exit status after the event loop failed: EX_SOFTWARE (an internal error).
    public static let loopFailureExitStatus: Int32 = 70

    private func secondTick() {
        recording.tick()
        reminders.tick()
    }

    /// Re-reads the configuration; an invalid one is rejected and the old one stays in force.
    @discardableResult
    func reload() -> JSON {
        context.notifier.notify(["RELOADING=1", "MONOTONIC_USEC=\(SystemdNotifier.monotonicMicroseconds())"])
        defer { context.notifier.notify(["READY=1", "STATUS=" + recording.headline()]) }
        switch ConfigLoader.load(path: context.configPath) {
        case .failure(let e):
            log(DaemonLogEvent.reloadRejected(e.description))
            return ControlServer.errorReply(ProtocolError(code: "invalid_config", message: e.description))
        case .success(let new):
            var r = ConfigReload(old: config, new: new)
            config = new
            context.configureLog(new)
            r.applied(.log)
            services.reload(&r)
            let changed = r.changed.map(\.rawValue), waiting = r.needsRestart.map(\.rawValue)
            log(DaemonLogEvent.reloaded(changed: changed, needsRestart: waiting))
            recording.settingsChanged()
            return ControlServer.okReply([("changed", .array(changed.map { .string($0) })), ("needsRestart", .array(waiting.map { .string($0) }))])
        }
    }

    // MARK: - Shutdown

    private func installSignalHandlers() {
        for sig in [SIGTERM, SIGINT, SIGHUP] {
            signal(sig, SIG_IGN)
            let src = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            let loop = self.loop
            src.setEventHandler { [unowned self] in loop.post { self.signalReceived(sig) } }
            src.resume()
            signalSources.append(src)
        }
    }

    private func signalReceived(_ sig: Int32) {
        if sig == SIGHUP { reload(); return }
        beginShutdown(reason: sig == SIGTERM ? "SIGTERM" : "SIGINT")
    }

    /// Seconds the whole stop may take (under the unit's `TimeoutStopSec=20`): a save in flight
    /// is waited for until 3 s before the end (the journal keeps that workout if it cannot
    /// finish), the worker threads and the saver's queue get at most 3 s each, within it (what is
    /// late is logged and left to the process's exit).
    static let stopSeconds = 13.0

    /// Graceful stop (swift-service-lifecycle's `ServiceGroup`): the services stop in reverse
    /// start order by one deadline: control stops accepting, web closes, history stops following
    /// folders and ends its workers, recording closes feeds and sensors and keeps the workout in
    /// progress in the journal for the next start (a restart or shutdown does not end a workout)
    /// after any save in flight, integrations end the hooks; then the loop ends.
    func beginShutdown(reason: String) {
        guard case .running = shutdown else { return }
        shutdown = .stopping
        context.notifier.notify(["STOPPING=1", "STATUS=Stopping" + (recording.hasWorkoutInProgress ? "; keeping the workout in progress for the next start" : "")])
        log(DaemonLogEvent.shuttingDown(signal: reason))
        services.stop(within: Daemon.stopSeconds) { [loop] in loop.stop() }
    }

    private func ignoreSIGPIPE() { signal(SIGPIPE, SIG_IGN) }
}
