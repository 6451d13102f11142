/// Heart-rate figures of a stretch of a workout (the whole workout, a lap or a split).
///
/// Average and maximum are over the samples (each reading once, as the strap or feed sent it).
/// Time in zones and heart-rate calories are over covered time: the time from each sample to
/// the next one of the same run (no gap between them), in the zone of the earlier sample.
public struct HeartRateStats: Sendable, Equatable {
    public var sampleCount = 0
    public var sum = 0
    public var maximum: Int?
    /// Seconds per zone slot (index 0 = below zone 1); empty without zones.
    public var zoneSeconds: [Double]
    /// Seconds covered by heart rate.
    public var coveredSeconds = 0.0
    /// Keytel kcal over the covered time; nil without age, sex and weight.
    public var heartRateKilocalories: Double?

    public init(zoneSlots: Int = 0, heartRateCalories: Bool = false) {
        zoneSeconds = Array(repeating: 0, count: zoneSlots)
        heartRateKilocalories = heartRateCalories ? 0 : nil
    }

    /// Mean of the samples, nil without any.
    public var average: Double? { sampleCount > 0 ? Double(sum) / Double(sampleCount) : nil }

    @inline(__always)
    mutating func add(bpm: Int) {
        sampleCount += 1
        sum += bpm
        maximum = Swift.max(maximum ?? bpm, bpm)
    }

    @inline(__always)
    mutating func cover(seconds: Double, zone: Int?, kcalPerMinute: Double?) {
        coveredSeconds += seconds
        if let z = zone, z < zoneSeconds.count { zoneSeconds[z] += seconds }
        if let k = kcalPerMinute, heartRateKilocalories != nil { heartRateKilocalories! += k * seconds / 60 }
    }

    /// Calories for a stretch with `movingSeconds` of movement: Keytel over the covered time plus
    /// MET for the moving time heart rate did not cover; MET alone without heart rate or without
    /// the profile Keytel needs; nil without a weight.
    public func calories(movingSeconds: Double, met: Double, profile: BodyProfile) -> (kcal: Double, method: CalorieMethod)? {
        guard let w = profile.weightKilograms, w > 0 else { return nil }
        let metRate = met * w / 3600
        if let hrKcal = heartRateKilocalories, coveredSeconds > 0 {
            return (hrKcal + metRate * Swift.max(0, movingSeconds - coveredSeconds), .heartRate)
        }
        return (metRate * movingSeconds, .met)
    }
}
