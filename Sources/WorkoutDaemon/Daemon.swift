import Dispatch
import Glibc
import WorkoutCore
import WorkoutSystem

/// The composition root: builds the services, wires what each reports to the service that acts
/// on it, starts them in order and stops them in reverse (docs/architecture.md). It decides
/// nothing about workouts: every transition happens in `RecordingService` on the loop thread.
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
    private var signalSources: [DispatchSourceSignal] = []
    private var timers: [RepeatingTimer] = []
    private var shutdown = ShutdownState.running

    enum ShutdownState { case running, draining(deadline: Double), done }

    /// `clock`: the system's clocks; a test's `ManualClock` to drive time. `poller`: epoll_wait(2).
    /// `hookTrampoline`: the workoutd binary, to start hooks through (`HookTrampoline`).
    public init(config: Config, configPath: String, paths: Paths, environment: [String: String],
                clock: any LoopClock = SystemClock(), poller: EventLoop.Poller? = nil, hookTrampoline: String? = nil) throws {
        var poller = poller
        if poller == nil, environment["WORKOUTD_TEST_HOOKS"] == "1", let flag = environment["WORKOUTD_TEST_FAIL_POLL"] {
            // Test hook: when this file appears, epoll_wait(2) fails (ENOMEM) once; the file is
            // removed, so the daemon that systemd restarts runs on.
            poller = { epollFD, events, capacity, timeout in
                if unlink(flag) == 0 { errno = ENOMEM; return -1 }
                return EventLoop.wait(epollFD, events, capacity, timeout)
            }
        }
        let loop = try poller.map { try EventLoop(clock: clock, poller: $0) } ?? EventLoop(clock: clock)
        var paths = paths
        paths.historyDir = paths.expandFolder(config.historyDir, environment: environment)
        let context = DaemonContext(loop: loop, config: config, configPath: configPath, paths: paths, environment: environment)
        context.hookTrampoline = hookTrampoline
        try PrivateDirectory.prepareOwned(paths.stateDir)
        self.context = context
        history = try HistoryService(context: context)
        recording = RecordingService(context: context, store: history.store)
        reminders = ReminderService(context: context, store: history.store)
        integrations = IntegrationService(context: context)
        web = WebService(context: context, store: history.store)
        control = ControlRouter(context: context, recording: recording, history: history, reminders: reminders, integrations: integrations, web: web)
        context.configureLog()
        wire()
    }

    /// Who hears what: each service reports through closures, and the daemon passes it on.
    private func wire() {
        recording.onEvent = { [unowned self] event in
            switch event {
            case .changed(let manager):
                self.control.publish()
                if manager { self.context.notifier.status(self.control.statusLine()) }  // sent only when the text changed
            case .inhibitSleep: self.integrations.inhibitSleep()
            case .allowSleep: self.integrations.allowSleep()
            case .saved(let workout):
                self.history.announceRecords(workout)
                self.reminders.announceAfterSave(workout)
            case .saveFinished: self.checkShutdownProgress()
            }
        }
        history.onImported = { [unowned self] in self.context.notifier.status(self.control.statusLine()) }
        integrations.onPrepareForSleep = { [unowned self] in self.recording.flushForSleep() }
        integrations.onSleepLockChanged = { [unowned self] in self.control.publish() }
        control.onReload = { [unowned self] in self.reload() }
        web.runRequest = { [unowned self] request in self.control.handle(request) }
        web.liveDelta = { [unowned self] since in
            let now = self.context.now(), lifecycle = self.recording.lifecycle
            var delta = lifecycle.liveDelta(since: since, now: now, fix: self.recording.feeds?.status.fix ?? "none")
            delta.plan = self.recording.plan?.status(at: lifecycle.workoutTime(at: now), distance: lifecycle.distanceMeters ?? 0)
            return delta
        }
        web.calendar = { [unowned self] in self.reminders.streakCalculator().0 }
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
        return runLoop()
    }

    /// All of `run` but the loop: binds (or adopts) the sockets, restores any journal, starts the
    /// timers and reports readiness. A test calls it with `handlingSignals: false` (the signals
    /// are its process's) and drives the loop itself (`loop.advanceTime(by:)` on a `ManualClock`).
    func start(handlingSignals: Bool) throws {
        ignoreSIGPIPE()
        let activation = SocketActivation.listenFDs(environment: context.environment)
        if let e = activation.error { throw ConfigError(key: "LISTEN_FDS", problem: "socket activation: \(e)") }
        let fd: Int32
        if let passed = activation.control {
            fd = passed
        } else {
            fd = try UnixSocket.listen(path: context.paths.controlSocket)
        }
        integrations.start()
        control.start(listenFD: fd, boundPath: activation.control == nil ? context.paths.controlSocket : nil)
        web.start(activatedFD: activation.web)
        recording.start()
        history.start()
        if handlingSignals { installSignalHandlers() }
        timers.append(loop.every(1) { [unowned self] in self.secondTick() })
        timers.append(loop.every(context.config.journalFlushSeconds) { [unowned self] in self.recording.flushJournal() })
        log(DaemonLogEvent.startedUp(version: Daemon.version, socket: context.paths.controlSocket, workouts: history.store.count, activated: activation.control != nil))
        reminders.logAtStartup()
        context.notifier.notify(["READY=1", "STATUS=" + control.statusLine()])
    }

    /// Runs the loop until a stop signal has been handled; the exit status.
    private func runLoop() -> Int32 {
        let watchdogInterval = context.notifier.watchdogInterval
        let notifier = context.notifier
        let loop = self.loop
        var lastPing = loop.now()
        do {
            try loop.run {
                // The watchdog is fed from the loop itself: a hung loop stops feeding it.
                if let iv = watchdogInterval, loop.now() - lastPing >= iv {
                    notifier.notify(["WATCHDOG=1"])
                    lastPing = loop.now()
                }
            }
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
        defer { context.notifier.notify(["READY=1", "STATUS=" + control.statusLine()]) }
        switch ConfigLoader.load(path: context.configPath) {
        case .failure(let e):
            log(DaemonLogEvent.reloadRejected(e.description))
            return ControlServer.errorReply(ProtocolError(code: "invalid_config", message: e.description))
        case .success(let new):
            let changed = context.config.changedKeys(to: new)
            context.config = new
            context.configureLog()
            reminders.configurationChanged()
            control.configurationChanged()
            recording.configurationChanged()
            integrations.configurationChanged(changed)
            history.configurationChanged(changed)
            web.configurationChanged(changed)
            log(DaemonLogEvent.reloaded(changed: changed))
            recording.settingsChanged()
            return ControlServer.okReply([("changed", .array(changed.map { .string($0) }))])
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

    /// Seconds a save in flight may take at a shutdown (the journal keeps that workout if the
    /// save cannot finish).
    static let saveDrainSeconds = 10.0
    /// Seconds the saver's queue and the worker threads get to finish at a shutdown.
    static let workerStopSeconds = 3.0

    /// Graceful stop, in reverse start order with deadlines (swift-service-lifecycle's
    /// `ServiceGroup`): stop accepting; close feeds and sensors and keep the workout in progress
    /// in the journal for the next start (`WorkoutLifecycle.shutDown`: a restart or shutdown
    /// does not end a workout); wait for a save in flight (`saveDrainSeconds`); then
    /// `finishShutdown`.
    private func beginShutdown(reason: String) {
        guard case .running = shutdown else { return }
        context.notifier.notify(["STOPPING=1", "STATUS=Stopping" + (recording.lifecycle.hasWorkoutInProgress ? "; keeping the workout in progress for the next start" : "")])
        log(DaemonLogEvent.shuttingDown(signal: reason))
        control.stop()
        history.stop()
        web.stop()
        recording.shutDown()
        shutdown = .draining(deadline: loop.now() + Daemon.saveDrainSeconds)
        checkShutdownProgress()
        loop.after(Daemon.saveDrainSeconds) { [unowned self] in self.finishShutdown() }
    }

    private func checkShutdownProgress() {
        guard case .draining = shutdown, !recording.isSaving else { return }
        finishShutdown()
    }

    /// The rest of the stop: the saver's queue drains, the bulk worker and the import stages
    /// end their threads (`workerStopSeconds` for all of it; what is late is logged and left to
    /// the process's exit), the journal is flushed and fsync'd, the loop ends.
    private func finishShutdown() {
        if case .done = shutdown { return }
        shutdown = .done
        let deadline = Deadline(seconds: Daemon.workerStopSeconds)
        if !recording.drainQueues(seconds: deadline.remaining) { log(ShutdownLogEvent.late(step: "saver", seconds: Daemon.workerStopSeconds)) }
        if !history.shutDown(seconds: deadline.remaining) { log(ShutdownLogEvent.late(step: "bulk worker", seconds: Daemon.workerStopSeconds)) }
        recording.flushJournalAtExit()
        integrations.hookRunner?.shutDown()  // no hook, nor what one started, outlives the daemon
        loop.stop()
    }

    private func ignoreSIGPIPE() { signal(SIGPIPE, SIG_IGN) }
}
