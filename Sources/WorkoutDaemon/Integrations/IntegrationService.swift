import WorkoutCore

/// What the daemon tells the rest of the system: hook programs and desktop notifications (both
/// fed from the logger's tap, so every log event can trigger them), and the logind lock on sleep
/// while a workout records. Reports what others must do through closures; holds no other service.
/// Confined to the loop thread: hook threads reach it only through closures posted to the loop,
/// holding it as a `LoopBound`.
final class IntegrationService: DaemonService {
    let context: DaemonContext
    /// Runs hook programs (config `hooks`) off the loop; set by `start()`.
    var hookRunner: HookRunner?
    /// Desktop notifications (config `notifications`), created at the first notice.
    var desktopNotifier: DesktopNotifier?
    /// The logind lock on sleep, or why there is none.
    var sleepLock = SleepLock.none(problem: "no sleep inhibitor")
    /// A suspend is announced: every fix so far must be durably in the journal before the lock
    /// goes (the daemon flushes the journal there, synchronously).
    var onPrepareForSleep: () -> Void = {}
    /// The sleep inhibitor's state changed (status shows it).
    var onSleepLockChanged: () -> Void = {}

    /// The lock on sleep: an inhibitor talking to logind, or none (no system bus address).
    enum SleepLock {
        case none(problem: String)
        case inhibitor(SleepInhibitor)
    }

    /// The part of the configuration this service reads, its own: taken at start-up and
    /// replaced by `reload`.
    private(set) var config: Settings

    struct Settings: Equatable {
        var hooks: [HookConfig]
        var notifications: NotificationsConfig
        var sleepInhibitor: SleepInhibitMode
        var units: Units

        init(_ c: Config) { hooks = c.hooks; notifications = c.notifications; sleepInhibitor = c.sleepInhibitor; units = c.units }
    }

    init(context: DaemonContext, config c: Config) {
        self.context = context
        config = Settings(c)
    }

    func log(_ e: some LogEvent) { context.log(e) }

    let name = "integrations"

    /// Starts the hook runner, taps the logger and prepares the sleep inhibitor.
    func start() {
        installHooks()
        sleepLock = makeSleepLock()
    }

    /// Stops last: no hook, nor what one started, outlives the daemon.
    func stop(by deadline: Double, then done: @escaping () -> Void) {
        hookRunner?.shutDown()
        done()
    }

    /// A reload: a new sleep inhibitor mode applies from the next start or resume; hooks and
    /// notifications are read at each event.
    func reload(_ r: inout ConfigReload) {
        config = Settings(r.new)
        if r.changed(.sleepInhibitor) { reconfigureSleepInhibitor() }
        r.applied(.sleepInhibitor, .hooks, .notifications)
    }
}
