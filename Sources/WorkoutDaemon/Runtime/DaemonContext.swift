import WorkoutCore

/// What every service of the daemon shares: the loop they all run on, the configuration read at
/// start-up (each service takes its own slice of it when it is made, and the next one from
/// `DaemonService.reload`), the log, the service manager, the paths and the clock. Confined to
/// the loop thread.
final class DaemonContext {
    let loop: EventLoop
    let paths: Paths
    let environment: [String: String]
    /// Where the configuration is read from (and read again on reload).
    let configPath: String
    /// The configuration read at start-up; read by no one after it (a reload hands each
    /// service the new one, `ConfigReload`).
    let config: Config
    let logger: Logger
    let notifier: SystemdNotifier
    /// Where every `now` handed to the core comes from.
    let clock: DaemonClock
    /// `WORKOUTD_TEST_HOOKS=1`: the test-only requests and faults are enabled.
    let testHooks: Bool
    /// The workoutd binary hooks are started through (`HookTrampoline`); nil when this process
    /// is not workoutd (in-process tests): hooks are then started directly.
    var hookTrampoline: String?

    init(loop: EventLoop, config: Config, configPath: String, paths: Paths, environment: [String: String]) {
        self.loop = loop
        self.config = config
        self.configPath = configPath
        self.paths = paths
        self.environment = environment
        self.logger = Logger(environment: environment, minimumLevel: config.logLevel)
        self.notifier = SystemdNotifier(environment: environment)
        self.clock = DaemonClock(loop.clock)
        self.testHooks = environment["WORKOUTD_TEST_HOOKS"] == "1"
    }

    /// The daemon's clock (`DaemonClock`).
    func now() -> Double { clock.now() }

    func log(_ e: some LogEvent) { logger.log(e, wallTime: now()) }

    /// The log file and level as the start-up configuration says.
    func configureLog() { configureLog(config) }

    /// The log file and level as `c` says (start-up and reload).
    func configureLog(_ c: Config) {
        logger.configureFile(path: c.log.file ? paths.logFile : nil, maxBytes: c.log.maxFileBytes, keep: c.log.keepFiles)
        logger.minimumLevel = c.logLevel
    }
}
