/// The workout's distance: the GPS track's length, until a device or sensor odometer reads
/// (`OdometerTrack`); from its first reading on the workout's distance is the odometer's and the
/// track's length is kept beside it. A sensor's distance (an indoor ride's wheel) adds while no
/// odometer reads.
struct DistanceTally: Sendable {
    /// The workout's distance (m).
    private(set) var total = 0.0
    /// The GPS track's length (equal to `total` until an odometer reads).
    private(set) var track = 0.0
    /// Distance from a device or sensor, from its first reading on.
    private(set) var odometer: OdometerTrack?

    /// An accepted fix `d` metres from the last.
    mutating func addTrack(_ d: Double) {
        track += d
        if odometer == nil { total += d }
    }

    /// An odometer reading (`counting`: not paused); returns the metres it added.
    mutating func read(_ r: OdometerReading, source: DistanceSource, counting: Bool) -> Double {
        if odometer == nil { odometer = OdometerTrack(source: source) }
        let added = odometer!.add(r, counting: counting)
        total += added
        return added
    }

    /// A sensor's distance step; returns whether it counted (positive, and no odometer reads).
    mutating func addSensor(_ d: Double?) -> Bool {
        guard odometer == nil, let d, d > 0 else { return false }
        total += d
        return true
    }

    /// Room for `n` more odometer readings.
    mutating func reserveOdometer(_ n: Int, source: DistanceSource) {
        if odometer == nil { odometer = OdometerTrack(source: source) }
        odometer!.reserveCapacity(n)
    }
}
