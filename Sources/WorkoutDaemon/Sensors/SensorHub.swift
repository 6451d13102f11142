import WorkoutCore

/// The sensors of the configuration (`sensors`), opened and closed by the lifecycle like the GPS
/// feeds (`openSensors`/`closeSensors`), several devices at once. Reports through a closure;
/// holds no reference to the daemon.
final class SensorHub {
    typealias Report = BluetoothSensor.Report

    private unowned let loop: EventLoop
    private let clock: DaemonClock
    private let environment: [String: String]
    /// Each sensor's waits between attempts after failures.
    private let backoff: SensorConnection.Backoff
    private let report: (Report) -> Void
    private(set) var configs: [SensorConfig]
    private var sensors: [BluetoothSensor] = []
    /// Whether the sensors are read now (the core's `openSensors`/`closeSensors`).
    private var phase = Phase.closed
    /// Reports made while the loop reads batched input, with their dates on the loop's clock:
    /// passed on at the end of that read, in date order (`releaseHeld`).
    private var held: [(date: Double, report: Report)] = []

    enum Phase {
        /// No workout reads them. -> open
        case closed
        /// A workout records with them. -> closed
        case open
    }

    init(loop: EventLoop, configs: [SensorConfig], clock: DaemonClock, environment: [String: String],
         backoff: SensorConnection.Backoff = .init(), report: @escaping (Report) -> Void) {
        self.loop = loop
        self.clock = clock
        self.environment = environment
        self.backoff = backoff
        self.report = report
        self.configs = configs
        build()
        loop.afterInputServed { [weak self] in self?.releaseHeld() }
    }

    private func build() {
        sensors = configs.map { c in
            BluetoothSensor(c, loop: loop, clock: clock, environment: environment, backoff: backoff) { [weak self] r in self?.received(r) }
        }
    }

    /// A sensor's report. Read in a batch, it waits for the others of that read: each sensor's
    /// readings come in their own order, dated back over the time since the last read, and a
    /// power meter's then a wheel sensor's would reach the workout out of order (its sensor
    /// track takes readings in time order only: the 40 s ride lost 14 % of its distance).
    func received(_ r: Report) {
        guard loop.isServingInput else { report(r); return }
        held.append((loop.now() - r.age, r))
    }

    /// The reports of one read of the batched input, oldest first (a sensor's own keep their
    /// order: its dates do not go back), their ages as of now.
    private func releaseHeld() {
        guard !held.isEmpty else { return }
        let now = loop.now()
        let batch = held.indices.sorted { (held[$0].date, $0) < (held[$1].date, $1) }.map { held[$0] }
        held = []
        for h in batch { report(h.report.aged(max(0, now - h.date))) }
    }

    func open() {
        phase = .open
        for s in sensors { s.open() }
    }

    func close() {
        phase = .closed
        for s in sensors { s.close() }
    }

    /// About once a second: silence detection, the trainers' time-outs.
    func tick() { for s in sensors { s.tick() } }

    /// What the plan wants of a smart trainer, for every sensor that is one.
    func wantTrainer(_ w: TrainerControl.Want) { for s in sensors { s.wantTrainer(w) } }

    /// A reload changed `sensors`: close the old ones, open the new ones if recording.
    func configure(_ new: [SensorConfig]) {
        guard new != configs else { return }
        let was = phase
        phase = .closed
        for s in sensors { s.shutdown() }
        configs = new
        build()
        switch was {
        case .open: open()
        case .closed: break
        }
    }

    /// The daemon stops: every sensor closed, a paused trainer's held link too.
    func shutdown() {
        phase = .closed
        for s in sensors { s.shutdown() }
    }

    /// `status.sensors`.
    func json() -> JSON { .array(sensors.map { $0.json(now: clock.now()) }) }
}
