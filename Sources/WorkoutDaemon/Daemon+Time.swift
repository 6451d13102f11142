import WorkoutCore

/// The time model in the shell (docs/time.md): read the clocks, hand the core what happened.
extension Daemon {
    /// Once a second: suspends and wall-clock steps are logged (a suspend during a workout goes
    /// on its timeline through the core), and so is a change of the kernel's synchronization;
    /// then the core says whether the workout's dates move to a GPS receiver's or back.
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
        // The core decides whether the workout's dates come from the receiver (docs/time.md).
        perform(lifecycle.datesChecked(sync: clock.sync ?? .unknown, receiver: feeds?.receiverClock ?? ReceiverClock()))
    }
}
