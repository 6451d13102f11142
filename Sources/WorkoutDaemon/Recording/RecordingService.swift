import Dispatch
import Glibc
import WorkoutCore

/// Records workouts: owns the lifecycle, its journal, the GPS feeds and the Bluetooth sensors,
/// and performs the actions the core returns (`perform`), deciding nothing itself. What other
/// services must do (tell `watch` subscribers, hold a lock on sleep, announce a saved workout)
/// it reports through `onEvent`; it holds no other service.
/// Everything runs on the loop thread; the saver and the journal's fsync run on queues of their
/// own and post their results back.
/// Confined to the loop thread: the saver and the journal's syncer post their results back to a
/// `LoopBound` of it.
final class RecordingService: DaemonService {
    /// What the recording service tells the daemon.
    enum Event {
        /// The state changed (`publish`, `manager`: also the service manager's STATUS line) or
        /// the numbers moved (`publishProgress`).
        case changed(manager: Bool)
        /// A workout records: hold the lock on sleep.
        case inhibitSleep
        /// No workout records any more: let the lock on sleep go.
        case allowSleep
        /// A workout's save is durable: announce it (personal bests, streaks, habits).
        case saved(RecordedWorkout)
    }

    /// Where the service's own stop is.
    enum Stopping {
        case running
        /// Feeds and sensors closed, the workout in progress kept in the journal; waiting for the
        /// save in flight until `deadline` less the queues' time, then `done`.
        case waitingForSave(deadline: Double, done: () -> Void)
        case stopped
    }

    let context: DaemonContext
    /// Where saves go.
    let store: HistoryStore
    private(set) var lifecycle = WorkoutLifecycle()
    let journal: Journal
    /// The GPS side (`start` opens the feed socket; the core's `openGPS` the sources).
    private(set) var feeds: FeedHub?
    /// Bluetooth sensors (`sensors`), opened while a workout that uses them records.
    private(set) var sensors: SensorHub?
    private let saver = DispatchQueue(label: "workoutd.saver")
    /// Where the journal's periodic fsync runs, off the event loop.
    private let journalSyncer = DispatchQueue(label: "workoutd.journal-sync")
    private var statusLogTimer: RepeatingTimer?
    /// The journal's periodic flush, every `journalFlushSeconds` (made again when a reload
    /// changes it).
    private var journalFlushTimer: RepeatingTimer?
    /// The plan the workout in progress follows (`start --plan`), nil without one. Journaled
    /// (`plan`, `planStep` records): a restarted daemon goes on with it (`restorePlan`).
    private(set) var plan: PlanMachine?
    /// For each step of `plan` begun, how many laps the workout had closed when it began: where
    /// its laps begin in the saved workout (`PlanOutcome`).
    private var planLaps: [Int] = []
    var onEvent: (Event) -> Void = { _ in }
    private var stopping = Stopping.running
    let name = "recording"

    init(context: DaemonContext, config c: Config, store: HistoryStore) {
        self.context = context
        self.store = store
        self.journal = Journal(path: context.paths.journalFile)
        config = Settings(c)
    }

    /// The part of the configuration the recording service reads, its own: taken at start-up
    /// and replaced by `reload`.
    private(set) var config: Settings

    struct Settings: Equatable {
        var feeds: [FeedConfig]
        var sensors: [SensorConfig]
        /// `limits.maxClients`: the feed socket's connections at once.
        var maxFeedClients: Int
        var journalFlushSeconds: Double
        var statusLogSeconds: Double
        var autoResumeAfterRestore: Bool
        var defaultActivity: ActivityType
        var units: Units
        /// The recorder's rules, body figures and thresholds (`metrics`, `units`, `weightKg`,
        /// `age`, `sex`, `heartRate`, `ftpWatts`, the training thresholds).
        var metrics: MetricsSettings
        /// What a plan's targets are read against (`start --plan`).
        var ftpWatts: Double?
        var heartRateZones: HeartRateZones?
        var maxHeartRate: Int?

        init(_ c: Config) {
            feeds = c.feeds; sensors = c.sensors; maxFeedClients = c.limits.maxClients
            journalFlushSeconds = c.journalFlushSeconds; statusLogSeconds = c.statusLogSeconds
            autoResumeAfterRestore = c.autoResumeAfterRestore; defaultActivity = c.defaultActivity; units = c.units
            metrics = MetricsSettings(config: c)
            ftpWatts = c.ftpWatts; heartRateZones = c.heartRateZones
            maxHeartRate = c.heartRate.maxBpm ?? c.age.map(HeartRateZones.estimatedMaximum(age:))
        }
    }

    /// The daemon's time at `reading` (`DaemonClock.workoutTime`, which the daemon wires here):
    /// the workout's while one is in progress, as the lifecycle owns it. Asked in place:
    /// `lifecycle.now(reading)` on the stored property copied the whole lifecycle (every array
    /// of the workout retained, then released) at each clock read, several per sensor reading
    /// (BENCHMARKS.md, CPU).
    func workoutTime(_ reading: ClockReading) -> Double {
        func now(_ l: inout WorkoutLifecycle) -> Double { l.now(reading) }
        return now(&lifecycle)
    }

    private var loop: EventLoop { context.loop }
    private func now() -> Double { context.now() }
    private func log(_ e: some LogEvent) { context.log(e) }

    /// Opens the feed socket and the sensors' hub, and restores an interrupted workout.
    func start() {
        feeds = FeedHub(loop: loop, feeds: config.feeds, backoff: context.ports.feedBackoff, paths: context.paths,
                        maxClients: config.maxFeedClients) { [unowned self] report in
            self.feedReported(report)
        }
        sensors = SensorHub(loop: loop, configs: config.sensors, clock: context.clock, environment: context.environment,
                            backoff: context.ports.sensorBackoff) { [unowned self] report in
            self.sensorReported(report)
        }
        restoreJournalIfAny()
        rescheduleStatusLog()
        rescheduleJournalFlush()
    }

    // MARK: - Commands

    /// `start`: a new workout.
    func start(_ activity: ActivityType) -> LifecycleRefusal? {
        let reading = context.clock.read()
        if lifecycle.canStart { plan = nil }
        return apply(lifecycle.start(activity, id: newWorkoutID(lifecycle.now(reading)), clock: reading, settings: config.metrics))
    }

    /// `start ACTIVITY --plan FILE`: the plan is read (with `ftpWatts`) before anything starts,
    /// so a bad plan refuses the start in words and never half-starts a workout.
    func start(_ activity: ActivityType, plan file: PlanFile) -> ProtocolError? {
        let parsed: Plan
        do {
            parsed = try PlanDecoder.decode(file.bytes, ftpWatts: config.ftpWatts, heartRateZones: config.heartRateZones, maxHeartRate: config.maxHeartRate)
        } catch {
            return ProtocolError(code: "bad_plan", message: "\(file.name): \(error.description)")
        }
        if let refusal = start(activity) { return ProtocolError(code: refusal.code, message: refusal.message) }
        log(PlanLogEvent.started(name: parsed.name, steps: parsed.steps.count, timedSeconds: parsed.timedSeconds))
        plan = PlanMachine(plan: parsed)
        planLaps = []
        // Journaled, so that a restart goes on with the plan (`PlanJournal`).
        journal.append(.plan(time: lifecycle.workoutTime(at: now()), plan: parsed))
        drivePlan { m, t, d in m.start(at: t, distance: d) }
        return nil
    }

    /// The plan pauses first: a trainer under control is asked to Stop/Pause, and keeps its link
    /// when the pause closes the sensors (docs/plans.md, "The trainer").
    func pause() -> LifecycleRefusal? {
        if lifecycle.canPause { drivePlan { m, t, _ in m.pause(at: t) } }
        return apply(lifecycle.pause(at: now()))
    }

    func resume() -> LifecycleRefusal? {
        let refusal = apply(lifecycle.resume(at: now()))
        if refusal == nil { drivePlan { m, t, d in m.resume(at: t, distance: d) } }
        return refusal
    }

    /// A lap; with a plan, a lap press ends the plan's step (`next`), whose lap it closes.
    func lap() -> LifecycleRefusal? {
        if let plan, plan.end == nil, lifecycle.hasWorkoutInProgress {
            drivePlan { m, t, d in m.next(at: t, distance: d) }
            return nil
        }
        return apply(lifecycle.lap(at: now()))
    }

    /// `next`: the plan's step ends now and the next one begins.
    func next() -> ProtocolError? {
        guard lifecycle.hasWorkoutInProgress else { return ProtocolError(code: LifecycleRefusal.noWorkout.code, message: LifecycleRefusal.noWorkout.message) }
        guard let plan else {
            return ProtocolError(code: "no_plan", message: "the workout follows no plan (start ACTIVITY --plan FILE); `workoutctl lap` closes a lap")
        }
        guard plan.end == nil else {
            return ProtocolError(code: "plan_done", message: "the plan \(plan.plan.name) is done; `workoutctl lap` closes a lap")
        }
        drivePlan { m, t, d in m.next(at: t, distance: d) }
        return nil
    }

    func marker(_ text: String?) -> LifecycleRefusal? { apply(lifecycle.marker(text, at: now())) }

    func stop() -> LifecycleRefusal? {
        let done = lifecycle.hasWorkoutInProgress ? endPlan() : nil
        return apply(lifecycle.stop(at: now(), plan: done))
    }

    func toggle() -> LifecycleRefusal? {
        let reading = context.clock.read()
        let primary = lifecycle.primaryAction(defaultActivity: config.defaultActivity)
        var done: PlanOutcome?
        if case .stop = primary { done = endPlan() }
        if case .start = primary { plan = nil }
        let refusal = apply(lifecycle.toggle(defaultActivity: config.defaultActivity, id: newWorkoutID(lifecycle.now(reading)), clock: reading,
                                             settings: config.metrics, plan: done))
        if refusal == nil, case .resume = primary { drivePlan { m, t, d in m.resume(at: t, distance: d) } }
        return refusal
    }

    /// Every feed line sent before a request that reads them (pause, lap, stop ...) counts in it.
    func catchUpFeeds() { feeds?.catchUp() }

    // MARK: - The plan

    /// Runs a plan event at the workout's time and distance and performs what it returned.
    private func drivePlan(_ event: (inout PlanMachine, _ time: Double, _ distance: Double) -> [PlanAction]) {
        guard var machine = plan else { return }
        let actions = event(&machine, lifecycle.workoutTime(at: now()), lifecycle.distanceMeters ?? 0)
        plan = machine
        performPlan(actions, machine.plan)
    }

    /// The workout ends: the plan stops where it is (its step's lap closes) and is let go;
    /// returns what was done of it (its steps begun and where their laps begin), for the saved
    /// workout.
    private func endPlan() -> PlanOutcome? {
        drivePlan { m, t, _ in m.stop(at: t) }
        let done = plan.map { PlanOutcome(plan: $0.plan, firstLaps: planLaps) }
        plan = nil
        return done
    }

    /// Performs the plan's actions, in order; the trainer's go to every smart trainer among the
    /// sensors (`TrainerControl`), and to none when there is none.
    private func performPlan(_ actions: [PlanAction], _ p: Plan) {
        for action in actions {
            switch action {
            case .stepStarted(let i):
                let laps = lifecycle.lapCount ?? 0
                planLaps.append(laps)
                journal.append(.planStep(time: lifecycle.workoutTime(at: now()), index: i, distance: lifecycle.distanceMeters ?? 0,
                                         timer: lifecycle.summary(now: now())?.timerSeconds ?? 0, laps: laps))
                log(PlanLogEvent.step(index: i, count: p.steps.count, step: p.steps[i]))
                onEvent(.changed(manager: false))
            case .prompt(let text): log(PlanLogEvent.prompt(text))
            case .closeLap(_, let ended):
                // A step the workout's stop ends closes with the workout's last lap, not before it.
                if ended != .stopped { _ = apply(lifecycle.lap(at: now())) }
            case .finished(let end):
                if end == .completed, lifecycle.hasWorkoutInProgress {
                    journal.append(.planStep(time: lifecycle.workoutTime(at: now()), index: p.steps.count, distance: lifecycle.distanceMeters ?? 0,
                                             timer: 0, laps: lifecycle.lapCount ?? 0))
                }
                log(PlanLogEvent.finished(name: p.name, end: end, step: plan?.stepIndex ?? 0, count: p.steps.count))
                sensors?.wantTrainer(.free)
            case .setPower(let watts): sensors?.wantTrainer(.power(watts))
            case .releaseTrainer: sensors?.wantTrainer(.free)
            case .pauseTrainer: sensors?.wantTrainer(.paused)
            }
        }
    }

    private func apply(_ outcome: WorkoutLifecycle.Outcome) -> LifecycleRefusal? {
        switch outcome {
        case .success(let actions): perform(actions); return nil
        case .failure(let refusal): return refusal
        }
    }

    private func newWorkoutID(_ t: Double) -> WorkoutID {
        WorkoutID(start: t, suffix: UInt16.random(in: 0...UInt16.max), machine: store.machine)
    }

    // MARK: - Performing the core's actions

    /// Performs the actions a transition returned, in order.
    func perform(_ actions: [LifecycleAction]) {
        for action in actions {
            switch action {
            case .openGPS: feeds?.open()
            case .closeGPS: feeds?.close()
            case .openSensors: sensors?.open()
            case .closeSensors: sensors?.close()
            case .inhibitSleep: onEvent(.inhibitSleep)
            case .allowSleep: onEvent(.allowSleep)
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
            case .publish: onEvent(.changed(manager: true))
            case .publishProgress: onEvent(.changed(manager: false))
            case .datesMoved:
                log(ClockLogEvent.dates(lifecycle.dateSource.describe(sync: context.clock.sync ?? .unknown)))
            case .logReceiverClock(let event): log(ClockLogEvent.receiver(event))
            }
        }
    }

    /// What the feed hub reported.
    private func feedReported(_ report: FeedHub.Report) {
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

    /// What the sensors reported.
    private func sensorReported(_ report: SensorHub.Report) {
        switch report {
        case .reading(let bpm, let rr, let age): perform(lifecycle.heartRateReceived(time: nil, bpm: bpm, rr: rr, at: now() - age))
        case .stopped: perform(lifecycle.heartRateStopped(at: now()))
        case .sensorReading(let source, let r, let age): perform(lifecycle.sensorReceived(r, from: source, at: now() - age))
        case .sensorStopped(let source): perform(lifecycle.sensorStopped(source, at: now()))
        case .log(let event): log(event)
        case .trainerLog(let event): log(event)
        }
    }

    // MARK: - Saving

    private func beginSave(_ workout: RecordedWorkout) {
        journal.flush(alive: nil)
        let store = self.store
        let loop = self.loop
        let clock = loop.clock
        let me = LoopBound(self, loop: loop)
        saver.async {
            let t0 = clock.monotonic()
            let result: Result<Double, SystemError>
            do { try store.save(workout); result = .success((clock.monotonic() - t0) * 1000) }
            catch let e as SystemError { result = .failure(e) }
            catch { result = .failure(SystemError("save", code: EIO)) }
            MemoryPolicy.returnFreedMemory()
            loop.post { me.value.saveFinished(workout, result) }
        }
    }

    private func saveFinished(_ workout: RecordedWorkout, _ result: Result<Double, SystemError>) {
        switch result {
        case .success(let ms):
            log(DaemonLogEvent.saved(workout.summary, path: store.path(of: workout.id), milliseconds: ms))
            perform(lifecycle.saveSucceeded(workout.id))
        case .failure(let e):
            perform(lifecycle.saveFailed(workout.id, error: e.description))
        }
        if case .waitingForSave = stopping, !lifecycle.firstSaveRunning { finishStop() }
    }

    private func announceSaved(_ workout: RecordedWorkout) {
        let s = workout.summary
        // Recording health is about GPS fixes: nothing to say for yoga or strength training.
        if s.activity.supportsGPS {
            log(DaemonLogEvent.health(s, fixRate: s.fixRate))
        }
        onEvent(.saved(workout))
    }

    // MARK: - Restoring

    private func restoreJournalIfAny() {
        // Finished workouts whose save had not succeeded when the next one started: save them.
        for path in journal.setAsidePaths() {
            guard let recovery = Journal(path: path).recover(now: now()) else { continue }
            perform(lifecycle.restoredSetAside(recovery.records, settings: config.metrics))
        }
        guard journal.exists else { return }
        _ = lifecycle.beginRestore()
        context.notifier.notify(["STATUS=Restoring an interrupted workout"])
        guard let recovery = journal.recover(now: now()) else {
            perform(lifecycle.restoreFailed())
            return
        }
        if let aside = recovery.keptAside { log(DaemonLogEvent.journalKeptAside(path: aside, bytes: recovery.badBytes, skipped: recovery.skippedRecords)) }
        if let e = recovery.asideError { log(DaemonLogEvent.journalTornEndCut(bytes: recovery.tornBytes, skipped: recovery.skippedRecords, reason: e.description)) }
        // The restored workout's clock never runs behind its journal (a wall clock stepped back
        // while the daemon was down); the wall clock is not moved (docs/time.md).
        perform(lifecycle.restored(recovery.records, badBytes: recovery.badBytes, clock: context.clock.read(),
                                   autoResume: config.autoResumeAfterRestore, settings: config.metrics))
        restorePlan(recovery.records)
    }

    /// A restored workout that followed a plan goes on with it: the step it was in, with the
    /// running time it had had, resumed if the workout runs (the trainer asked for its power).
    private func restorePlan(_ records: [JournalRecord]) {
        guard lifecycle.hasWorkoutInProgress, let journaled = PlanJournal(records: records),
              let timer = lifecycle.summary(now: now())?.timerSeconds else { return }
        plan = journaled.machine(at: lifecycle.workoutTime(at: now()), timer: timer)
        planLaps = journaled.firstLaps
        log(PlanLogEvent.restored(name: journaled.plan.name, step: plan?.stepIndex ?? 0, count: journaled.plan.steps.count))
        if lifecycle.phase == .active { drivePlan { m, t, d in m.resume(at: t, distance: d) } }
    }

    // MARK: - Timers

    /// Once a second: the clocks, the lifecycle's tick, the sensors' silence.
    func tick() {
        checkClocks()
        perform(lifecycle.tick(at: now()))
        sensors?.tick()
        drivePlan { m, t, d in m.tick(at: t, distance: d) }
        if plan?.wantsMeasures == true, let s = lifecycle.summary(now: now()) {
            drivePlan { m, t, _ in m.measured(heartRate: s.heartRate.map(Double.init), cadence: s.cadence.map(Double.init), speed: s.currentSpeed, at: t) }
        }
    }

    /// Once a second (docs/time.md): suspends and wall-clock steps are logged (a suspend during
    /// a workout goes on its timeline through the core), and so is a change of the kernel's
    /// synchronization; then the core says whether the workout's dates move to a GPS
    /// receiver's or back.
    private func checkClocks() {
        let (events, sync) = context.clock.check()
        for event in events {
            log(ClockLogEvent.system(event))
            if case .suspended(let seconds, _, _) = event {
                let t = now()
                perform(lifecycle.suspended(from: t - seconds, to: t))
            }
        }
        if let sync { log(ClockLogEvent.sync(sync)) }
        perform(lifecycle.datesChecked(sync: context.clock.sync ?? .unknown))
    }

    /// The journal's periodic flush (`journalFlushSeconds`, and before a suspend): an `alive`
    /// record, fsync'd off the loop.
    func flushJournal() {
        guard lifecycle.hasWorkoutInProgress else { return }
        let loop = self.loop
        let me = LoopBound(self, loop: loop)
        journal.flushInBackground(alive: now(), on: journalSyncer) { error in
            loop.post {
                me.value.journal.backgroundSyncFinished(error)
                if let error { me.value.log(DaemonLogEvent.journalWriteFailed(error.description)) }
            }
        }
        if let e = journal.lastError { log(DaemonLogEvent.journalWriteFailed(e.description)) }
    }

    /// A suspend is announced: every fix so far durably in the journal before the lock on sleep goes.
    func flushForSleep() {
        flushJournal()
        log(SleepInhibitorLogEvent.flushedForSleep(error: journal.lastError?.description))
    }

    private func rescheduleJournalFlush() {
        journalFlushTimer?.cancel()
        journalFlushTimer = loop.every(config.journalFlushSeconds) { [unowned self] in self.flushJournal() }
    }

    private func rescheduleStatusLog() {
        statusLogTimer?.cancel()
        statusLogTimer = nil
        guard config.statusLogSeconds > 0 else { return }
        statusLogTimer = loop.every(config.statusLogSeconds) { [unowned self] in
            guard self.lifecycle.hasWorkoutInProgress, let s = self.lifecycle.summary(now: self.now()) else { return }
            self.log(DaemonLogEvent.status(s, state: self.lifecycle.stateName, fix: self.gpsFix, units: self.config.units))
        }
    }

    /// The fix of the feeding source in words (`none` without GPS).
    var gpsFix: String { feeds?.status.fix ?? "none" }

    // MARK: - Reload and shutdown

    /// A reload replaced the configuration: feeds, sensors and the timers follow it; the keys
    /// read where they are used apply from now on; the metrics settings from `settingsChanged`.
    func reload(_ r: inout ConfigReload) {
        let old = config
        config = Settings(r.new)
        if config.statusLogSeconds != old.statusLogSeconds { rescheduleStatusLog() }
        if config.journalFlushSeconds != old.journalFlushSeconds { rescheduleJournalFlush() }
        feeds?.maxClients = config.maxFeedClients
        feeds?.configure(config.feeds)
        sensors?.configure(config.sensors)
        r.applied(.feeds, .sensors, .limits, .statusLogSeconds, .journalFlushSeconds, .defaultActivity, .autoResumeAfterRestore)
        r.applied(.metrics, .units, .weightKg, .age, .sex, .heartRate, .ftpWatts, .thresholdHeartRate, .thresholdPaceSecondsPerKm)
    }

    /// After a reload (and its log line): the workout in progress is measured with the new
    /// settings from now; `units` and body figures reach the next workout (`workout.settings_changed`).
    func settingsChanged() {
        perform(lifecycle.settingsChanged(config.metrics, at: now()))
    }

    /// Seconds the saver's and the journal syncer's queues get at the end of a stop.
    static let queueDrainSeconds = 3.0

    /// The graceful stop: feeds and sensors close, the workout in progress stays in the journal
    /// for the next start (`WorkoutLifecycle.shutDown`: a restart does not end a workout); a
    /// save in flight is waited for (the journal keeps that workout if it cannot finish), at
    /// most until `queueDrainSeconds` before `deadline`; then `finishStop`.
    func stop(by deadline: Double, then done: @escaping () -> Void) {
        guard case .running = stopping else { return }
        statusLogTimer?.cancel()
        feeds?.shutdown()
        sensors?.shutdown()
        perform(lifecycle.shutDown(at: now(), journalWritable: journal.lastError == nil))
        stopping = .waitingForSave(deadline: deadline, done: done)
        guard lifecycle.firstSaveRunning else { finishStop(); return }
        loop.after(max(0, deadline - RecordingService.queueDrainSeconds - loop.now())) { [unowned self] in self.finishStop() }
    }

    /// The rest of the stop: the saver's queue drains (what is late is logged and left to the
    /// process's exit), the journal is flushed and fsync'd.
    private func finishStop() {
        guard case .waitingForSave(let deadline, let done) = stopping else { return }
        stopping = .stopped
        let seconds = min(RecordingService.queueDrainSeconds, max(0, deadline - loop.now()))
        if !drainQueues(seconds: seconds) { log(ShutdownLogEvent.late(step: "saver", seconds: seconds)) }
        flushJournalAtExit()
        done()
    }

    /// The saver's and the journal syncer's queues run what they hold (unlinks, closes, a
    /// background fsync) within `seconds`; whether they did.
    private func drainQueues(seconds: Double) -> Bool {
        let deadline = Deadline(seconds: seconds)
        return [saver, journalSyncer].allSatisfy { q in
            let done = DispatchSemaphore(value: 0)
            q.async { done.signal() }
            return done.wait(timeout: .now() + .milliseconds(Int(deadline.remaining * 1000))) == .success
        }
    }

    /// At exit the journal's fsync is waited for (the periodic one runs in the background).
    func flushJournalAtExit() {
        if lifecycle.hasWorkoutInProgress { journal.flush(alive: now()) }
    }
}
