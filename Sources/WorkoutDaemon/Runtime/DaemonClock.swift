import WorkoutCore

/// The daemon's clock: the one place the shell reads the time (docs/time.md). It keeps no
/// time of its own: between workouts `now()` is the wall clock read now (never an anchor taken
/// at start-up); while a workout is in progress it is that workout's time, which the workout
/// owns in the core (`WorkoutInProgress.timeBase`, asked through `workoutTime`).
final class DaemonClock {
    /// Where every reading comes from (the loop's clock).
    let system: any LoopClock
    /// The daemon's time at a reading: the recording service points this at its lifecycle's
    /// `now(_:)`; until then the wall clock.
    var workoutTime: (ClockReading) -> Double = { $0.realtime }
    /// Suspend and step detection, fed once a second.
    private var watch = ClockWatch()
    /// The kernel's synchronization state as last read.
    private(set) var sync: SystemClockSync?

    init(_ system: any LoopClock) { self.system = system }

    /// The three system clocks now.
    func read() -> ClockReading { system.read() }

    /// Seconds since the Unix epoch: the workout's clock during a workout, else the wall clock.
    func now() -> Double { workoutTime(system.read()) }

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
