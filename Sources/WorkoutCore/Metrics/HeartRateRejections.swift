/// Heart-rate readings and RR intervals dropped as outside physiology
/// (`HeartRateTrack.plausibleRange`, `plausibleRR`): counted, never averaged. JSON
/// `heartRateRejected`: `{"bpm","rr"}`.
public struct HeartRateRejections: Sendable, Equatable {
    /// Readings outside 25-250 bpm.
    public var bpm = 0
    /// RR intervals outside 200-3,000 ms (and those of a dropped reading).
    public var rr = 0

    public init(bpm: Int = 0, rr: Int = 0) { self.bpm = bpm; self.rr = rr }

    public var isEmpty: Bool { bpm == 0 && rr == 0 }
}
