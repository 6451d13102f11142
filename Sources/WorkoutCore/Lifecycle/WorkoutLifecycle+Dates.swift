extension WorkoutLifecycle {
    /// What dates the workout in progress; between workouts (and during a simulation, whose feed
    /// dates it) the system clock.
    public var dateSource: DateSource {
        guard case .recording(let w) = state else { return .system }
        return w.dates
    }

    /// Once a second, with the kernel's synchronization state and the receiver's clock as
    /// measured against the workout's clock: while the system clock is unsynchronized and the
    /// receiver's time is trusted, the workout's dates move to the receiver's; when the kernel
    /// says synchronized, back to the system clock's (`DateSource.next`, docs/time.md). A move
    /// shifts every date of the workout by the same amount (`WorkoutRecorder.shifted`): its
    /// durations and distance do not change. The shell moves its clock (`shiftClock`).
    public mutating func datesChecked(sync: SystemClockSync, receiver: ReceiverClock) -> [LifecycleAction] {
        withWorkout { w in
            guard w.replay == nil, w.clock == .system else { return [] }
            let next = w.dates.next(sync: sync, receiver: receiver)
            guard next != w.dates else { return [] }
            let seconds = next.offset - w.dates.offset
            w.dates = next
            w.recorder = w.recorder.shifted(by: seconds)
            return [.shiftClock(by: seconds), .journal(.shifted(by: seconds)), .publish]
        } ?? []
    }
}
