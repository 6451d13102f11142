import WorkoutCore

/// The time model in the shell (docs/time.md): read the clocks, hand the core what it needs.
extension Daemon {
    /// The workout's clock when no simulation drives it: while a workout is in progress, the
    /// wall time read at its start advanced by CLOCK_BOOTTIME (suspends count, steps change no
    /// duration); otherwise the wall clock as it is now.
    func systemWorkoutNow() -> Double {
        let r = SystemClock.read()
        guard lifecycle.canStop else {
            time.workout = nil
            return r.realtime
        }
        let base = time.workout ?? WorkoutTimeBase(r)
        time.workout = base
        return base.time(boottime: r.boottime)
    }

    /// Once a second: notices suspends and wall-clock steps (logged; a suspend during a workout
    /// goes on its timeline) and changes of the kernel's synchronization state.
    func checkClocks() {
        let reading = SystemClock.read()
        for event in time.watch.observe(reading) {
            log(ClockLogEvent.system(event))
            if case .suspended(let seconds, _, _) = event, lifecycle.canStop {
                let t = workoutNow()
                let (actions, events) = lifecycle.suspended(from: t - seconds, to: t)
                handleRecorderEvents(events)
                perform(actions)
            }
        }
        let sync = SystemClock.sync()
        if sync != time.sync {
            time.sync = sync
            log(ClockLogEvent.sync(sync))
        }
    }
}
