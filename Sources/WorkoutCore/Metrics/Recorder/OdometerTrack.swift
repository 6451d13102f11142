/// The recorder's distance from a device or sensor (`WorkoutRecorder.odometer(time:meters:source:)`):
/// each reading adds how far the odometer moved since the reading before, while the workout
/// runs. A reading while paused (a device's timer stopped) moves the base only, so distance
/// covered while stopped is not counted; a reading below the one before is a reset (a sensor
/// restarted), a new base, never a negative step.
struct OdometerTrack: Sendable {
    let source: DistanceSource
    /// The readings as received (kept: the saved workout replays them).
    private(set) var readings: [OdometerReading] = []
    /// The last reading's metres (readings count from the workout's start: 0 before the first).
    private var last = 0.0

    init(source: DistanceSource) { self.source = source }

    /// Takes a reading; returns the metres to add to the workout's distance (0 while paused).
    mutating func add(_ r: OdometerReading, counting: Bool) -> Double {
        readings.append(r)
        defer { last = r.meters }
        guard counting, r.meters > last else { return 0 }
        return r.meters - last
    }

    mutating func reserveCapacity(_ n: Int) { readings.reserveCapacity(n) }

    var series: OdometerSeries { OdometerSeries(source: source, readings: readings) }
}
