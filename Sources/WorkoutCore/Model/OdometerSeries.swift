/// One reading of the distance a device or sensor has measured since the workout's start: a
/// FIT record's `distance`, a pool swim's lengths so far, a wheel sensor's revolutions times
/// its circumference.
public struct OdometerReading: Sendable, Equatable {
    /// UTC seconds since 1970.
    public var time: Double
    /// Metres since the start, as the device counts them.
    public var meters: Double

    public init(time: Double, meters: Double) { self.time = time; self.meters = meters }
}

/// The distance readings of a workout whose distance is not the GPS track's (`DistanceSource`
/// `device` or `sensor`): what the recorder takes its distance from (`WorkoutRecorder.odometer`),
/// kept in the saved file (`"odometer":{"source":...,"readings":[[time, metres], ...]}`) so a
/// recompute measures the same. Empty for a GPS workout.
public struct OdometerSeries: Sendable, Equatable {
    public var source: DistanceSource
    public var readings: [OdometerReading]

    public init(source: DistanceSource = .device, readings: [OdometerReading] = []) {
        self.source = source; self.readings = readings
    }

    public var isEmpty: Bool { readings.isEmpty }

    /// The last reading at or before `t` (nil before the first): what the device showed then.
    public func meters(at t: Double) -> Double? {
        let lo = readings.endOfTimes(atOrBefore: t, time: \.time)
        return lo > 0 ? readings[lo - 1].meters : nil
    }
}
