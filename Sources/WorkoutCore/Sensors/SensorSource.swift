/// Where power, cadence, speed and sensor distance come from: a Bluetooth LE service (one device
/// may offer several), or an imported file's own records. Raw values are what the journal and
/// the saved file write.
public enum SensorSource: String, Sendable, Equatable, Hashable, CaseIterable {
    /// Cycling Power (0x1818): power, crank cadence, sometimes wheel revolutions.
    case power
    /// Cycling Speed and Cadence (0x1816): wheel and crank revolutions.
    case csc
    /// Running Speed and Cadence (0x1814), a footpod: speed, step cadence, total distance.
    case rsc
    /// Fitness Machine (0x1826), a smart trainer's Indoor Bike Data: power, cadence, speed.
    case trainer
    /// The records of an imported file (FIT, TCX, GPX), whatever device measured them.
    case file

    /// Which source a channel follows when several give it: the lower rank wins while it is
    /// heard (a power meter's crank cadence before a CSC sensor's; a wheel before a footpod; a
    /// power meter's power before a trainer's, which is used when no power meter is there).
    public func rank(for channel: SensorChannel) -> Int {
        switch (channel, self) {
        case (.cadence, .power), (.speed, .csc), (.distance, .csc), (.power, .power): return 0
        case (.cadence, .csc), (.speed, .trainer), (.distance, .trainer), (.power, .trainer): return 1
        case (.cadence, .trainer), (.speed, .rsc), (.distance, .rsc): return 2
        case (.cadence, .rsc), (.speed, .power), (.distance, .power): return 3
        case (.power, .csc), (.power, .rsc): return 4  // never sent
        case (_, .file): return 5
        }
    }
}

/// What a sensor measures, each recorded as its own series with gaps.
public enum SensorChannel: String, Sendable, Equatable, Hashable, CaseIterable {
    /// Watts.
    case power
    /// Crank revolutions per minute, or a run's strides per minute (one foot's steps) from a
    /// footpod, as FIT and TCX record them.
    case cadence
    /// Metres per second (wheel or footpod).
    case speed
    /// Metres covered (wheel revolutions x circumference, or the footpod's distance).
    case distance
}
