/// What accepted fixes carry beside their position (an imported file's records, FIX lines with
/// "hr", "power", "cadence"): heart rate's and power's and cadence's sums, counts and maxima, and
/// the fixes' power in seconds (normalized power, zones, the power curve: `HeldPower`).
struct FixSamples: Sendable {
    private(set) var heartRate = SampleStats()
    private(set) var power = SampleStats()
    private(set) var cadence = SampleStats()
    private(set) var held: HeldPower

    init(ftp: Double?) { held = HeldPower(ftp: ftp) }

    /// A fix's heart rate, already accepted by the heart-rate track.
    mutating func add(heartRate bpm: Int) { heartRate.add(bpm) }

    /// A fix's power and cadence at `t`, as counted (`SampleStats.counted`): nil power ends a
    /// run of held power.
    mutating func add(countedPower w: Int?, countedCadence c: Int?, at t: Double) {
        if let w { power.add(w) }
        held.add(w, at: t)
        if let c { cadence.add(c) }
    }

    /// A pause at `t`: held power ends there.
    mutating func end(at t: Double) { held.end(at: t) }
}
