import WorkoutCore

/// The daemon's clock: the one place the shell reads the time for the core (docs/time.md).
/// Between workouts it is the wall clock read now (never an anchor taken at start-up). While a
/// workout is in progress it is the wall time read at its start advanced by CLOCK_BOOTTIME
/// (`WorkoutTimeBase`): a suspend counts, a wall-clock step changes no duration.
final class DaemonClock {
    /// Where every reading comes from (the loop's clock).
    let system: any LoopClock
    /// The clock of the workout in progress; nil between workouts.
    private(set) var workout: WorkoutTimeBase?
    /// Suspend and step detection, fed once a second.
    private var watch = ClockWatch()
    /// The kernel's synchronization state as last read.
    private(set) var sync: SystemClockSync?

    init(_ system: any LoopClock) { self.system = system }

    /// Seconds since the Unix epoch: the workout's clock during a workout, else the wall clock.
    func now() -> Double {
        guard let w = workout else { return system.wall() }
        return w.time(boottime: system.boottime())
    }

    /// Follows the lifecycle (called after every batch of actions): a workout in progress keeps
    /// the base taken when it began; none drops it.
    func track(workoutInProgress: Bool) {
        if !workoutInProgress { workout = nil }
        else if workout == nil { workout = WorkoutTimeBase(system.read()) }
    }

    /// A restored workout's clock: the wall clock, or the journal's last moment if the wall clock
    /// is behind it. Only the workout's clock moves; the wall clock is read as it is.
    func restore(journalLast: Double?) {
        workout = WorkoutTimeBase.restored(system.read(), journalLast: journalLast)
    }

    /// Moves the workout's dates by `seconds` (the core's `shiftClock`: dated by a GPS receiver,
    /// or back by the system clock); its durations run on unchanged.
    func shift(by seconds: Double) {
        workout = workout?.shifted(by: seconds)
    }

    /// Reads the clocks: suspends and steps since the last reading, and the synchronization
    /// state when it changed (nil when unchanged).
    func check() -> (events: [ClockEvent], syncChanged: SystemClockSync?) {
        let events = watch.observe(system.read())
        let s = system.sync()
        guard s != sync else { return (events, nil) }
        sync = s
        return (events, s)
    }
}
