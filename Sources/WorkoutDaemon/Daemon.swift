import Dispatch
import Glibc
import WorkoutCore

/// The composition root: builds the services, wires what each reports to the service that acts
/// on it, starts them in order and stops them in reverse (docs/architecture.md). It decides
/// nothing about workouts: every transition happens in `RecordingService` on the loop thread.
///
/// - `RecordingService` (Recording/): the lifecycle, its journal, feeds and sensors; the saver.
/// - `HistoryService` (History/): the store; import, export, edit, recompute on the bulk worker.
/// - `ReminderService` (Reminders/): streaks and habits.
/// - `IntegrationService` (Integrations/): hooks, desktop notifications, the lock on sleep.
/// - `ControlRouter` (Control/): the control socket; each request to the service that answers.
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
    private var signalSources: [DispatchSourceSignal] = []
    private var timers: [RepeatingTimer] = []
    private var shutdown = ShutdownState.running

    enum ShutdownState { case running, draining(deadline: Double), done }

    public init(config: Config, configPath: String, paths: Paths, environment: [String: String]) throws {
        let context = DaemonContext(loop: try EventLoop(), config: config, configPath: configPath, paths: paths, environment: environment)
        try PrivateDirectory.prepareOwned(paths.stateDir)
        self.context = context
        history = try HistoryService(context: context)
        recording = RecordingService(context: context, store: history.store)
        reminders = ReminderService(context: context, store: history.store)
        integrations = IntegrationService(context: context)
        control = ControlRouter(context: context, recording: recording, history: history, reminders: reminders, integrations: integrations)
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
    }

    var loop: EventLoop { context.loop }
    func log(_ e: some LogEvent) { context.log(e) }

    /// Binds (or adopts) the sockets, restores any journal, reports readiness, and runs until a
    /// stop signal has been handled. Returns the exit status.
    public func run() throws -> Int32 {
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
        recording.start()
        installSignalHandlers()
        timers.append(loop.every(1) { [unowned self] in self.secondTick() })
        timers.append(loop.every(context.config.journalFlushSeconds) { [unowned self] in self.recording.flushJournal() })
        log(DaemonLogEvent.startedUp(version: Daemon.version, socket: context.paths.controlSocket, workouts: history.store.count, activated: activation.control != nil))
        let removed = history.store.removedAtStartup
        if !removed.files.isEmpty { log(HistoryLogEvent.temporaryFilesRemoved(files: removed.files.count, bytes: removed.bytes)) }
        reminders.logAtStartup()
        context.notifier.notify(["READY=1", "STATUS=" + control.statusLine()])
        let watchdogInterval = context.notifier.watchdogInterval
        let notifier = context.notifier
        var lastPing = EventLoop.monotonic()
        loop.run {
            // The watchdog is fed from the loop itself: a hung loop stops feeding it.
            if let iv = watchdogInterval, EventLoop.monotonic() - lastPing >= iv {
                notifier.notify(["WATCHDOG=1"])
                lastPing = EventLoop.monotonic()
            }
        }
        log(DaemonLogEvent.stopped)
        context.logger.drain(seconds: 1)  // the last lines, but no hang on a stderr nobody reads
        return 0
    }

    private func secondTick() {
        recording.tick()
        reminders.tick()
    }

    /// Re-reads the configuration; an invalid one is rejected and the old one stays in force.
    @discardableResult
    func reload() -> JSON {
        context.notifier.notify(["RELOADING=1", "MONOTONIC_USEC=\(UInt64(EventLoop.monotonic() * 1e6))"])
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

    /// Graceful stop: stop accepting, close feeds, keep the workout in progress in the journal
    /// for the next start (`WorkoutLifecycle.shutDown`: a restart or shutdown does not end a
    /// workout), wait for a save in flight (at most 10 s; the journal keeps that workout if the
    /// save cannot finish), fsync the journal, exit.
    private func beginShutdown(reason: String) {
        guard case .running = shutdown else { return }
        context.notifier.notify(["STOPPING=1", "STATUS=Stopping" + (recording.lifecycle.hasWorkoutInProgress ? "; keeping the workout in progress for the next start" : "")])
        log(DaemonLogEvent.shuttingDown(signal: reason))
        control.stop()
        recording.shutDown()
        shutdown = .draining(deadline: EventLoop.monotonic() + 10)
        checkShutdownProgress()
        loop.after(10) { [unowned self] in self.finishShutdown() }
    }

    private func checkShutdownProgress() {
        guard case .draining = shutdown, !recording.isSaving else { return }
        finishShutdown()
    }

    private func finishShutdown() {
        if case .done = shutdown { return }
        recording.finish()
        shutdown = .done
        loop.stop()
    }

    private func ignoreSIGPIPE() { signal(SIGPIPE, SIG_IGN) }
}
