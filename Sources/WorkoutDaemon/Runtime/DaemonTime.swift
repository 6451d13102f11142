import WorkoutCore

/// What the shell keeps of the time model (docs/time.md): the clock of the workout in progress
/// (`WorkoutTimeBase`, nil between workouts, when the wall clock is read as it is), the
/// suspend/step detector, and the last synchronization state read from the kernel.
struct DaemonTime {
    var workout: WorkoutTimeBase?
    var watch = ClockWatch()
    var sync: SystemClockSync?
}
