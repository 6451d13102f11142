import WorkoutCore

/// The sensors of the configuration (`sensors`), opened and closed by the lifecycle like the GPS
/// feeds (`openSensors`/`closeSensors`), several devices at once. Reports through a closure;
/// holds no reference to the daemon.
final class SensorHub {
    typealias Report = BluetoothSensor.Report

    private unowned let loop: EventLoop
    private let clock: DaemonClock
    private let environment: [String: String]
    private let report: (Report) -> Void
    private(set) var configs: [SensorConfig]
    private var sensors: [BluetoothSensor] = []
    /// Whether the sensors are read now (the core's `openSensors`/`closeSensors`).
    private var phase = Phase.closed

    enum Phase {
        /// No workout reads them. -> open
        case closed
        /// A workout records with them. -> closed
        case open
    }

    init(loop: EventLoop, configs: [SensorConfig], clock: DaemonClock, environment: [String: String], report: @escaping (Report) -> Void) {
        self.loop = loop
        self.clock = clock
        self.environment = environment
        self.report = report
        self.configs = configs
        build()
    }

    private func build() {
        sensors = configs.map { c in
            BluetoothSensor(c, loop: loop, clock: clock, environment: environment) { [weak self] r in self?.report(r) }
        }
    }

    func open() {
        phase = .open
        for s in sensors { s.open() }
    }

    func close() {
        phase = .closed
        for s in sensors { s.close() }
    }

    /// About once a second: silence detection.
    func tick() { for s in sensors { s.tick() } }

    /// A reload changed `sensors`: close the old ones, open the new ones if recording.
    func configure(_ new: [SensorConfig]) {
        guard new != configs else { return }
        let was = phase
        close()
        configs = new
        build()
        switch was {
        case .open: open()
        case .closed: break
        }
    }

    func shutdown() { close() }

    /// `status.sensors`.
    func json() -> JSON { .array(sensors.map { $0.json(now: clock.now()) }) }
}
