/// Power, cadence, speed and distance recorded beside the fixes: readings from Bluetooth power
/// meters, speed/cadence sensors and footpods (`SensorConnection`), and the gaps when one drops
/// out. Dated on the workout's clock at `now`, as a strap's heart rate is.
extension WorkoutLifecycle {
    /// A reading. No workout, paused, or out of order: nothing (a reading in flight when the
    /// workout paused or stopped is an expected race).
    public mutating func sensorReceived(_ reading: SensorReading, from source: SensorSource, at now: Double) -> [LifecycleAction] {
        withWorkout { w in
            let t = w.time(at: now)
            var events: [RecorderEvent] = []
            guard case .recorded? = w.recorder.sensorReading(time: t, source: source, reading: reading, into: &events) else { return [] }
            return [.journal(.sensor(SensorSample(time: t, source: source, reading: reading)))]
                + events.compactMap { RecorderLogEvent($0, id: w.id).map(LifecycleAction.logRecorder) }
        } ?? []
    }

    /// The source stopped giving readings at `now` (dropped out, closed): a gap in its readings.
    /// Nothing when it had none since its last gap.
    public mutating func sensorStopped(_ source: SensorSource, at now: Double) -> [LifecycleAction] {
        withWorkout { w in
            let t = w.time(at: now)
            guard w.recorder.sensorGap(at: t, source: source) else { return [] }
            return [.journal(.sensor(SensorSample(time: t, source: source, reading: nil)))]
        } ?? []
    }
}
