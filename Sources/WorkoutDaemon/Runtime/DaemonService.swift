import WorkoutCore

/// A part of the daemon with one lifecycle, run by `ServiceRunner` on the loop thread
/// (swift-service-lifecycle's `Service` in a `ServiceGroup`, without tasks): started in order,
/// stopped gracefully in reverse, told of every reload. A service holds no other service: what
/// others must do it reports through closures the daemon wires.
protocol DaemonService: AnyObject {
    /// The service's name in log lines (`daemon.shutdown_late`).
    var name: String { get }
    /// Starts (opens, restores, serves). A throw stops the services started before it.
    func start() throws
    /// Stops gracefully by `deadline` (loop time): `done` runs on the loop once the service has
    /// finished (possibly before `stop` returns). A service late at the deadline is left behind.
    func stop(by deadline: Double, then done: @escaping () -> Void)
    /// The configuration was replaced (it is in force in the context): the service applies the
    /// keys it owns and says so in `reload` (`applied`, or `atNextStart` for a key read at
    /// start-up only).
    func reload(_ reload: inout ConfigReload)
}
