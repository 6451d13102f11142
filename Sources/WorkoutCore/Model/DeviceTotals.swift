/// What the recording device itself said about a workout (a FIT session's totals and a pool
/// swim's lengths), kept in the saved file (`"device":{...}`) beside what workoutd measured
/// and applied to the summary after every measure (import, `edit`, `recompute`:
/// `WorkoutSummary.apply(_:)`), so the head unit's numbers are the ones shown.
public struct DeviceTotals: Sendable, Equatable {
    /// kcal (`total_calories`): the workout's calories, `caloriesMethod` `device`.
    public var calories: Double?
    /// kJ of mechanical work (`total_work`), for a power-based calorie estimate.
    public var workKilojoules: Double?
    /// The device's timer time (`total_timer_time`: its stops and auto-pauses left out) and wall
    /// span (`total_elapsed_time`), seconds.
    public var timerSeconds: Double?
    public var elapsedSeconds: Double?
    /// The device's total distance (`total_distance`), metres.
    public var distanceMeters: Double?
    /// Strokes of a swim (`total_cycles` of a swimming session).
    public var strokes: Int?
    /// A pool swim's pool and lengths; nil for any other workout.
    public var pool: PoolSwim?
    /// The device's averages over the session: heart rate (bpm), power (W, its zeros counted,
    /// as the device counts them) and cadence (rpm, or one foot's strides per minute).
    public var averageHeartRate: Double?
    public var averagePower: Double?
    public var averageCadence: Double?
    /// The device's climb and descent (`total_ascent`, `total_descent`), metres.
    public var ascentMeters: Double?
    public var descentMeters: Double?

    public init(calories: Double? = nil, workKilojoules: Double? = nil, timerSeconds: Double? = nil, elapsedSeconds: Double? = nil,
                distanceMeters: Double? = nil, strokes: Int? = nil, pool: PoolSwim? = nil) {
        self.calories = calories; self.workKilojoules = workKilojoules; self.timerSeconds = timerSeconds
        self.elapsedSeconds = elapsedSeconds; self.distanceMeters = distanceMeters; self.strokes = strokes; self.pool = pool
    }

    public var isEmpty: Bool { self == DeviceTotals() }
}
