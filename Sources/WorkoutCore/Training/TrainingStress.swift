/// Where a workout's training stress comes from (`trainingStressMethod`).
public enum TrainingStressMethod: String, Sendable, CaseIterable {
    /// Normalized power against `ftpWatts` (TSS, Coggan).
    case power
    /// Mean heart rate against `thresholdHeartRate` (hrTSS), for a workout without power.
    case heartRate = "heart_rate"
    /// Mean moving pace against `thresholdPaceSecondsPerKm` (rTSS), for a run with neither.
    case pace
}

/// The thresholds training stress is measured against (from the configuration).
public struct TrainingThresholds: Sendable, Equatable {
    /// Heart rate at the lactate threshold (bpm); nil = none.
    public var heartRate: Int?
    /// Threshold running pace (seconds per km); nil = none.
    public var paceSecondsPerKm: Double?

    public init(heartRate: Int? = nil, paceSecondsPerKm: Double? = nil) {
        self.heartRate = heartRate; self.paceSecondsPerKm = paceSecondsPerKm
    }
}

/// A workout's training stress and how it was measured. Every method has one shape:
/// hours x IF^2 x 100, where IF is the workout's intensity against its threshold
/// (docs/metrics.md, "Training stress"):
/// - power: IF = NP / FTP (computed by `PowerAnalysis` over the seconds with power);
/// - heart rate: IF = mean heart rate / threshold heart rate, over the moving time;
/// - pace: IF = moving speed / threshold speed (1000 m / threshold s per km), over the moving
///   time, for running activities only.
public struct TrainingStress: Sendable, Equatable {
    public var value: Double
    public var method: TrainingStressMethod

    public init(value: Double, method: TrainingStressMethod) { self.value = value; self.method = method }

    /// hours x intensity^2 x 100.
    public static func score(seconds: Double, intensity: Double) -> Double { seconds / 3600 * intensity * intensity * 100 }

    /// The stress of `summary`: its power TSS when it has one, else from heart rate, else from
    /// pace for a run; nil when none applies. Reads the summary alone (the index has it), so the
    /// whole history is measured without opening a workout file.
    public static func of(_ summary: WorkoutSummary, thresholds: TrainingThresholds) -> TrainingStress? {
        if let tss = summary.powerTrainingStress { return TrainingStress(value: tss, method: .power) }
        let seconds = summary.movingSeconds > 0 ? summary.movingSeconds : summary.timerSeconds
        guard seconds > 0, seconds.isFinite else { return nil }
        if let lthr = thresholds.heartRate, lthr > 0, let hr = summary.averageHeartRate, hr > 0 {
            return TrainingStress(value: score(seconds: seconds, intensity: hr / Double(lthr)), method: .heartRate)
        }
        if summary.activity.isRun, let pace = thresholds.paceSecondsPerKm, pace > 0, summary.movingSeconds > 0,
           summary.distanceMeters > 0 {
            let speed = summary.distanceMeters / summary.movingSeconds
            return TrainingStress(value: score(seconds: summary.movingSeconds, intensity: speed / (1000 / pace)), method: .pace)
        }
        return nil
    }
}

extension WorkoutSummary {
    /// The power TSS, when the stress the summary carries is power's.
    public var powerTrainingStress: Double? {
        switch trainingStressMethod {
        case .power?: return trainingStress
        case .heartRate?, .pace?, nil: return nil
        }
    }

    /// Sets `trainingStress` and its method to `TrainingStress.of` (the power TSS stands).
    public mutating func measureTrainingStress(_ thresholds: TrainingThresholds) {
        let s = TrainingStress.of(self, thresholds: thresholds)
        trainingStress = s?.value
        trainingStressMethod = s?.method
    }
}
