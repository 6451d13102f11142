/// The sex used by Keytel's equations.
public enum Sex: String, Sendable, Equatable, CaseIterable {
    case male
    case female
}

/// How a workout's calories were estimated (`caloriesMethod` in summaries).
public enum CalorieMethod: String, Sendable, Equatable, CaseIterable {
    /// Keytel et al. 2005 from heart rate for the time heart rate was recorded (the rest of the
    /// moving time by MET).
    case heartRate = "heart_rate"
    /// MET x weight x moving hours.
    case met
    /// From the mechanical work of a power meter: kJ of work ~ kcal burnt (a human's gross
    /// efficiency of about 24 % cancels the 4.184 kJ per kcal).
    case power
    /// The recording device's own figure (a FIT session's `total_calories`), kept as it is.
    case device
}

/// The person, for calories: weight for both methods; age and sex for heart-rate calories.
public struct BodyProfile: Sendable, Equatable {
    public var weightKilograms: Double?
    public var age: Int?
    public var sex: Sex?

    public init(weightKilograms: Double? = nil, age: Int? = nil, sex: Sex? = nil) {
        self.weightKilograms = weightKilograms; self.age = age; self.sex = sex
    }

    /// Energy expenditure in kcal per minute at `bpm` (Keytel, Goedecke, Noakes et al., "Prediction
    /// of energy expenditure from heart rate monitoring during submaximal exercise", J Sports Sci
    /// 2005, the equations without VO2max), never negative; nil without weight, age and sex.
    public func keytelKcalPerMinute(bpm: Double) -> Double? {
        guard let w = weightKilograms, let a = age, let s = sex else { return nil }
        let age = Double(a)
        let kJ: Double
        switch s {
        case .male: kJ = -55.0969 + 0.6309 * bpm + 0.1988 * w + 0.2017 * age
        case .female: kJ = -20.4022 + 0.4472 * bpm - 0.1263 * w + 0.074 * age
        }
        return max(0, kJ / 4.184)
    }

    /// Whether heart-rate calories can be computed.
    public var supportsHeartRateCalories: Bool { weightKilograms != nil && age != nil && sex != nil }
}
