/// The energy of a workout as it moves: mechanical work from power where fixes carry it, and the
/// model's energy per kilogram of body weight for each moving stretch (`EnergyModel`: ACSM's
/// walking and running equations with the grade, a rider's power from speed and grade, or a
/// fixed MET). `WorkoutRecorder` feeds it; the calories of the summary come from it
/// (`calories(...)`: power, else heart rate, else the model). Pure, O(1) per fix.
struct EnergyTally: Sendable {
    let activity: ActivityType
    /// Joules of work from power, and the seconds power covered.
    private(set) var workJoules = 0.0
    private(set) var powerSeconds = 0.0
    /// kcal per kilogram from the model over the moving stretches, and their seconds.
    private(set) var modelKcalPerKg = 0.0
    private(set) var modelSeconds = 0.0
    /// The last fix with power: its time and watts (work is the power held until the next).
    private var lastPower: (time: Double, watts: Int)?
    /// Where the last moving stretch ended: time, cumulative distance, altitude.
    private var lastMove: (time: Double, distance: Double, altitude: Double?)?

    /// Longest step (s) power or a moving stretch is carried over: a longer gap adds nothing.
    static let maximumStep = 30.0
    /// Grades beyond this are taken as this (GPS altitude over a short step is noisy).
    static let maximumGrade = 0.3

    init(activity: ActivityType) { self.activity = activity }

    /// A fix's power at `t` (counted as `SampleStats.counted(power:)`); nil ends a run of power.
    mutating func power(_ watts: Int?, at t: Double) {
        if let p = lastPower, t > p.time, t - p.time <= EnergyTally.maximumStep {
            workJoules += Double(p.watts) * (t - p.time)
            powerSeconds += t - p.time
        }
        lastPower = watts.map { (t, $0) }
    }

    /// The workout moved until `t` (cumulative `distance`, `altitude` there); `moving` is false
    /// for the first fix of a stretch (after a stop, a pause or a signal loss).
    mutating func moved(at t: Double, distance: Double, altitude: Double?, continuing moving: Bool) {
        defer { lastMove = (t, distance, altitude ?? lastMove?.altitude) }
        guard moving, let m = lastMove, t > m.time, t - m.time <= EnergyTally.maximumStep else { return }
        let dt = t - m.time, d = max(0, distance - m.distance)
        var grade = 0.0
        if let a = altitude, let b = m.altitude, d > 0 { grade = min(EnergyTally.maximumGrade, max(0, (a - b) / d)) }
        modelKcalPerKg += EnergyTally.kcalPerKilogramSecond(activity, speed: d / dt, grade: grade) * dt
        modelSeconds += dt
    }

    /// kcal per kilogram and second at `speed` (m/s) up `grade` (rise over run, >= 0).
    /// - gait: ACSM, VO2 (ml/kg/min) = 0.1 S + 1.8 S G + 3.5 walking (below 2 m/s), 0.2 S + 0.9 S G
    ///   + 3.5 running, S in m/min; 5 kcal per litre of oxygen.
    /// - cycling: the power to roll (Crr 0.005), climb and push the air (CdA 0.4 m2, 1.225 kg/m3)
    ///   for the rider and a 10 kg bike, at the rider's 70 kg per kg of body (so it scales with
    ///   weight like the others), over a gross efficiency of 24 %, plus 1 MET.
    /// - fixed: MET / 3600.
    static func kcalPerKilogramSecond(_ activity: ActivityType, speed v: Double, grade g: Double) -> Double {
        switch activity.energyModel {
        case .gait:
            let s = v * 60
            let vo2 = v < 2 ? 0.1 * s + 1.8 * s * g + 3.5 : 0.2 * s + 0.9 * s * g + 3.5
            return vo2 * 5 / 1000 / 60
        case .cycling:
            let mass = 80.0, cda = 0.4, rho = 1.225, crr = 0.005
            let watts = max(0, mass * 9.81 * (crr + g) * v + 0.5 * rho * cda * v * v * v)
            return (watts / 0.24 / 4184) / 70 + 1.0 / 3600
        case .fixed:
            return activity.met / 3600
        }
    }
}

/// Calories of a workout by the best method its data allows (docs/metrics.md):
/// power (`.power`: kJ of work ~ kcal) where power covers at least half the moving time; else
/// heart rate (`.heartRate`: Keytel over the covered time, the model for the rest); else the
/// model with the body weight (`.met`); nil without weight and power.
struct CalorieEstimate {
    static func calories(_ e: EnergyTally, movingSeconds: Double, heartRate: HeartRateStats, profile: BodyProfile)
        -> (kcal: Double, method: CalorieMethod)? {
        if e.powerSeconds > 0, e.powerSeconds >= movingSeconds / 2 {
            // kJ of work ~ kcal burnt (24 % efficiency x 4.184 kJ/kcal); power's gaps at its mean.
            return (e.workJoules / 1000 * max(1, movingSeconds / e.powerSeconds), .power)
        }
        guard let w = profile.weightKilograms, w > 0 else { return nil }
        // The model's rate over the stretches it saw, for moving time it did not (a lone fix).
        let rate = e.modelSeconds > 0 ? e.modelKcalPerKg / e.modelSeconds : EnergyTally.kcalPerKilogramSecond(e.activity, speed: 0, grade: 0)
        let model = (e.modelKcalPerKg + rate * max(0, movingSeconds - e.modelSeconds)) * w
        if let hr = heartRate.heartRateKilocalories, heartRate.coveredSeconds > 0 {
            let uncovered = movingSeconds > 0 ? max(0, movingSeconds - heartRate.coveredSeconds) / movingSeconds : 0
            return (hr + model * uncovered, .heartRate)
        }
        return (model, .met)
    }
}
