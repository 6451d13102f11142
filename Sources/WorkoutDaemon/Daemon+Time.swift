import WorkoutCore

/// The time model in the shell (docs/time.md): read the clocks, hand the core what happened.
extension Daemon {
    /// Once a second: suspends and wall-clock steps are logged (a suspend during a workout goes
    /// on its timeline through the core), and so is a change of the kernel's synchronization.
    func checkClocks() {
        let (events, sync) = clock.check()
        for event in events {
            log(ClockLogEvent.system(event))
            if case .suspended(let seconds, _, _) = event {
                let t = now()
                perform(lifecycle.suspended(from: t - seconds, to: t))
            }
        }
        if let sync { log(ClockLogEvent.sync(sync)) }
    }
}
