extension WorkoutSummary {
    /// The device's own figures over the measured ones (the one place they are applied: after
    /// an import's measure and after every `edit` or `recompute`):
    /// - calories: the device's `total_calories`, `caloriesMethod` `device`;
    /// - elapsed: the device's wall span (`total_elapsed_time`), when it is within
    ///   `timerTolerance` of the measured one (the device counts milliseconds where its
    ///   timestamps hold whole seconds; a figure further off is not this recording's);
    /// - timer: the device's timer time (`total_timer_time`, a TCX file's laps' time: its stops
    ///   and auto-pauses left out, which a file may not mark), when it fits in that span (a
    ///   longer one is not this track's: a file cut short); moving time is at most that;
    ///   averages follow;
    /// - heart rate, power and cadence: the session's averages (`avg_heart_rate`, `avg_power`,
    ///   `avg_cadence`: a run's in steps per minute), when not zero; power only where records
    ///   carry it;
    /// - climb: the device's `total_ascent` and `total_descent` beside the measured gain and
    ///   loss (`deviceElevationGainMeters`, `deviceElevationLossMeters`), never over them;
    /// - swim: a pool's lengths, strokes, SWOLF and pace, or an open-water swim's strokes and pace.
    public mutating func apply(_ d: DeviceTotals) {
        if let kcal = d.calories, kcal > 0 {
            calories = kcal
            caloriesMethod = .device
        }
        if let wall = d.elapsedSeconds, wall > 0, abs(wall - elapsedSeconds) <= WorkoutSummary.timerTolerance(elapsedSeconds) {
            elapsedSeconds = wall
        }
        if let timer = d.timerSeconds, timer > 0, timer <= elapsedSeconds + WorkoutSummary.timerTolerance(elapsedSeconds) {
            timerSeconds = timer
            movingSeconds = min(movingSeconds, timer)
            averageSpeed = timer > 0 ? distanceMeters / timer : 0
            movingAverageSpeed = movingSeconds > 0 ? distanceMeters / movingSeconds : 0
        }
        // The session's averages are the workout's: its power counts the zeros the device
        // counts (the records' own mean is the recorder's, docs/metrics.md); a zero average is
        // a field without a sensor.
        if let hr = d.averageHeartRate, hr > 0 { averageHeartRate = hr }
        if let p = d.averagePower, p > 0, averagePower != nil { averagePower = p }
        if let c = d.averageCadence, c > 0 { averageCadence = c * activity.cadenceFactor }
        deviceElevationGainMeters = d.ascentMeters
        deviceElevationLossMeters = d.descentMeters
        if let pool = d.pool {
            swim = SwimSummary(pool: pool, strokes: d.strokes)
        } else if activity.isSwim {
            let hundreds = distanceMeters / 100
            swim = SwimSummary(strokes: d.strokes, pacePer100: hundreds > 0 && movingSeconds > 0 ? movingSeconds / hundreds : nil)
        }
    }

    /// How far the device's timer time may be from the measured elapsed time (s): 2 s (whole-
    /// second timestamps at both ends) plus 1 %.
    static func timerTolerance(_ elapsed: Double) -> Double { 2 + 0.01 * elapsed }
}
