extension WorkoutLifecycle {
    /// The daemon's time at the clocks' `reading`: during a workout its time base's (the wall time
    /// at its start advanced by CLOCK_BOOTTIME, moved with its dates), else the wall clock
    /// (docs/time.md). Every event the shell hands the core takes this as `now`.
    /// A `switch`, not `guard case`: that form copied the whole workout in progress (every array
    /// retained and released) at each clock read, several per sensor reading (BENCHMARKS.md, CPU).
    public func now(_ reading: ClockReading) -> Double {
        switch state {
        case .recording(let w): return w.timeBase.time(boottime: reading.boottime)
        case .idle, .restoring, .saving, .modifying: return reading.realtime
        }
    }

    /// What dates the workout in progress; between workouts (and during a simulation, whose feed
    /// dates it) the system clock.
    public var dateSource: DateSource {
        guard case .recording(let w) = state else { return .system }
        return w.dates
    }

    /// The receiver clock's problem in words (status `gps.problem` when the source has no other),
    /// nil without a workout or when the clocks agree.
    public var receiverClockProblem: String? {
        guard case .recording(let w) = state else { return nil }
        return w.receiver.problem
    }

    /// The receiver's time minus the workout's clock (status `gps.clockOffsetSeconds`).
    public var receiverClockOffset: Double? {
        guard case .recording(let w) = state else { return nil }
        return w.receiverOffset
    }

    /// Once a second, with the kernel's synchronization state: while the system clock is
    /// unsynchronized and the receiver's time is trusted, the workout's dates move to the
    /// receiver's; when the kernel says synchronized, back to the system clock's
    /// (`DateSource.next`, docs/time.md). A move shifts every date of the workout by the same
    /// amount (`WorkoutRecorder.shifted`): its durations and distance do not change. Its time
    /// base moves with them, and the receiver's offset to it is restated
    /// (`ReceiverClock.workoutClockShifted`); the shell only logs it (`datesMoved`).
    public mutating func datesChecked(sync: SystemClockSync) -> [LifecycleAction] {
        withWorkout { w in
            guard w.replay == nil, w.clock == .system else { return [] }
            let next = w.dates.next(sync: sync, receiver: w.receiver)
            guard next != w.dates else { return [] }
            let seconds = next.offset - w.dates.offset
            w.dates = next
            w.recorder = w.recorder.shifted(by: seconds)
            w.timeBase = w.timeBase.shifted(by: seconds)
            let events = w.receiver.workoutClockShifted(by: seconds)
            return events.map(LifecycleAction.logReceiverClock) + [.datesMoved(by: seconds), .journal(.shifted(by: seconds)), .publish]
        } ?? []
    }
}
