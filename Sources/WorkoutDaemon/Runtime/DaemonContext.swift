import WorkoutCore

/// What every service of the daemon shares: the loop they all run on, the log, the service
/// manager, the paths and the clock. No configuration: each service is made with its own slice
/// of the start-up one and gets the next from `DaemonService.reload`. Confined to the loop thread.
final class DaemonContext {
    let loop: EventLoop
    let paths: Paths
    let environment: [String: String]
    /// Where the configuration is read from (and read again on reload).
    let configPath: String
    let logger: Logger
    let notifier: SystemdNotifier
    /// Where every `now` handed to the core comes from.
    let clock: DaemonClock
    /// The edges the host chose (`DaemonPorts`): the hook trampoline, the store's faults, the
    /// web server's limits.
    let ports: DaemonPorts
    /// The workoutd binary hooks are started through (`HookTrampoline`); nil when this process
    /// is not workoutd (an embedding test): hooks are then started directly.
    var hookTrampoline: String? { ports.hookTrampoline }

    init(loop: EventLoop, config: Config, configPath: String, paths: Paths, environment: [String: String], ports: DaemonPorts = DaemonPorts()) {
        self.loop = loop
        self.configPath = configPath
        self.paths = paths
        self.environment = environment
        self.ports = ports
        self.logger = Logger(environment: environment, minimumLevel: config.logLevel, stderrFD: ports.logFD)
        self.notifier = SystemdNotifier(environment: environment)
        self.clock = DaemonClock(loop.clock)
    }

    /// The daemon's clock (`DaemonClock`).
    func now() -> Double { clock.now() }

    func log(_ e: some LogEvent) { logger.log(e, wallTime: now()) }

    /// The log file and level as `c` says (start-up and reload).
    func configureLog(_ c: Config) {
        logger.configureFile(path: c.log.file ? paths.logFile : nil, maxBytes: c.log.maxFileBytes, keep: c.log.keepFiles)
        logger.minimumLevel = c.logLevel
    }
}
