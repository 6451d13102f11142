extension WorkoutSummary {
    /// The device's own figures over the measured ones (the one place they are applied: after
    /// an import's measure and after every `edit` or `recompute`):
    /// - calories: the device's `total_calories`, `caloriesMethod` `device`;
    /// - elapsed time: the device's timer time (`total_timer_time`, its stops and auto-pauses
    ///   left out), when it is within `timerTolerance` of the measured one (the device counts
    ///   milliseconds where its timestamps hold whole seconds; a figure further off is not this
    ///   recording's and is not taken); moving time is at most that; averages follow;
    /// - swim: a pool's lengths, strokes, SWOLF and pace, or an open-water swim's strokes and pace.
    public mutating func apply(_ d: DeviceTotals) {
        if let kcal = d.calories, kcal > 0 {
            calories = kcal
            caloriesMethod = .device
        }
        if let timer = d.timerSeconds, timer > 0, abs(timer - elapsedSeconds) <= WorkoutSummary.timerTolerance(elapsedSeconds) {
            elapsedSeconds = timer
            movingSeconds = min(movingSeconds, timer)
            averageSpeed = timer > 0 ? distanceMeters / timer : 0
            movingAverageSpeed = movingSeconds > 0 ? distanceMeters / movingSeconds : 0
        }
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
