import WorkoutCore

/// Runs the daemon's services (swift-service-lifecycle's `ServiceGroup` shape, on the loop):
/// `start` starts them in order, and when one fails stops those already started; `stop` stops
/// them in reverse order, one at a time, all by one deadline: a service still stopping at the
/// deadline is logged (`daemon.shutdown_late`) and the ones before it stop anyway.
/// Confined to the loop thread.
final class ServiceRunner {
    /// Where the runner is.
    enum Phase {
        case idle
        /// Every service started.
        case running
        /// `services[index]` stops; then those before it, and `done` runs.
        case stopping(index: Int)
        case stopped
    }

    let loop: EventLoop
    let services: [any DaemonService]
    private let log: (any LogEvent) -> Void
    private(set) var phase = Phase.idle

    init(loop: EventLoop, services: [any DaemonService], log: @escaping (any LogEvent) -> Void) {
        self.loop = loop
        self.services = services
        self.log = log
    }

    /// Starts every service in order. When one throws, the ones started before it stop in
    /// reverse (at once: their deadline is now) and the error is rethrown.
    func start() throws {
        guard case .idle = phase else { return }
        for (i, service) in services.enumerated() {
            do { try service.start() } catch {
                stop(from: i - 1, deadline: loop.now(), seconds: 0, done: {})
                throw error
            }
        }
        phase = .running
    }

    /// Stops every service in reverse order within `seconds`; `done` runs once the first
    /// service has stopped (or was late). Ignored unless the services run.
    func stop(within seconds: Double, then done: @escaping () -> Void) {
        guard case .running = phase else { return }
        stop(from: services.count - 1, deadline: loop.now() + seconds, seconds: seconds, done: done)
    }

    /// Every service is told of a reload, in start order, while they run (a stopping web
    /// service must not listen again): otherwise nothing applies and every changed key waits.
    func reload(_ r: inout ConfigReload) {
        guard case .running = phase else { return }
        for service in services { service.reload(&r) }
    }

    private func stop(from index: Int, deadline: Double, seconds: Double, done: @escaping () -> Void) {
        guard index >= 0 else {
            phase = .stopped
            done()
            return
        }
        phase = .stopping(index: index)
        let service = services[index]
        // Whichever comes first moves on: the service's `done`, or the deadline.
        let next = { [unowned self] in
            guard case .stopping(let current) = self.phase, current == index else { return }
            self.stop(from: index - 1, deadline: deadline, seconds: seconds, done: done)
        }
        let late = loop.after(max(0, deadline - loop.now())) { [unowned self] in
            guard case .stopping(let current) = self.phase, current == index else { return }
            self.log(ShutdownLogEvent.late(step: service.name, seconds: seconds))
            next()
        }
        service.stop(by: deadline) { [unowned self] in
            self.loop.cancel(late)
            next()
        }
    }
}
