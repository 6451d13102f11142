/// Heart rate recorded beside the fixes: readings from a strap (`SensorConnection`) or from
/// `HR` lines of the feed socket, and the gaps when a strap loses contact or drops out.
extension WorkoutLifecycle {
    /// A reading. `time` is the feed line's own time; nil for a strap, whose readings are dated
    /// on the workout's clock at `now`. No workout, paused, or out of order: nothing (a reading
    /// in flight when the workout paused or stopped is an expected race).
    public mutating func heartRateReceived(time: Double?, bpm: Int, rr: [UInt16] = [], at now: Double) -> [LifecycleAction] {
        withWorkout { w in
            let t = time ?? w.time(at: now)
            guard w.recorder.heartRate(time: t, bpm: bpm, rr: rr) == .recorded else { return [] }
            return [.journal(.heartRate(time: t, bpm: bpm, rr: rr))]
        } ?? []
    }

    /// The strap stopped giving readings at `now` (contact lost, disconnected): a gap in the
    /// workout's heart rate. Nothing when there is no run to end.
    public mutating func heartRateStopped(at now: Double) -> [LifecycleAction] {
        withWorkout { w in
            let t = w.time(at: now)
            guard w.recorder.heartRateGap(at: t) else { return [] }
            return [.journal(.heartRateGap(time: t))]
        } ?? []
    }
}
