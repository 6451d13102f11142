/// What one notification of a power, speed/cadence or running sensor says, once its counters are
/// turned into rates (`SensorRates`): each value present only when the notification carries it.
public struct SensorReading: Sendable, Equatable {
    /// Watts (a power meter's instantaneous power).
    public var power: Int?
    /// Crank revolutions per minute, or a run's strides per minute.
    public var cadence: Double?
    /// Metres per second; 0 when the wheel stopped.
    public var speed: Double?
    /// Metres covered since the previous reading of the same source.
    public var distance: Double?

    public init(power: Int? = nil, cadence: Double? = nil, speed: Double? = nil, distance: Double? = nil) {
        self.power = power; self.cadence = cadence; self.speed = speed; self.distance = distance
    }

    /// Whether it carries anything at all.
    public var isEmpty: Bool { power == nil && cadence == nil && speed == nil && distance == nil }

    /// The value of one channel.
    public func value(_ c: SensorChannel) -> Double? {
        switch c {
        case .power: return power.map(Double.init)
        case .cadence: return cadence
        case .speed: return speed
        case .distance: return distance
        }
    }
}

/// One recorded reading of a source, or the start of its gap (`reading` nil: the sensor dropped
/// out, the workout paused): the journal's and the saved file's unit. Replayed in order through
/// `SensorTrack.add`/`gap`, the samples rebuild every figure.
public struct SensorSample: Sendable, Equatable {
    /// UTC seconds since 1970 (the daemon's clock when a Bluetooth notification arrived).
    public var time: Double
    public var source: SensorSource
    public var reading: SensorReading?

    public init(time: Double, source: SensorSource, reading: SensorReading?) {
        self.time = time; self.source = source; self.reading = reading
    }
}
