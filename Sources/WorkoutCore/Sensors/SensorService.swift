/// The Bluetooth LE services workoutd reads, each with its measurement characteristic (notify).
public enum SensorService: String, Sendable, Equatable, Hashable, CaseIterable {
    /// Heart Rate 0x180D, Heart Rate Measurement 0x2A37.
    case heartRate = "hr"
    /// Cycling Power 0x1818, Cycling Power Measurement 0x2A63.
    case cyclingPower = "power"
    /// Cycling Speed and Cadence 0x1816, CSC Measurement 0x2A5B.
    case cyclingSpeedCadence = "csc"
    /// Running Speed and Cadence 0x1814, RSC Measurement 0x2A53.
    case runningSpeedCadence = "rsc"
    /// Fitness Machine 0x1826 (a smart trainer), Indoor Bike Data 0x2AD2.
    case fitnessMachine = "ftms"

    /// The service's UUID in BlueZ's 128-bit spelling.
    public var uuid: String {
        switch self {
        case .heartRate: return BlueZObjects.UUID.heartRateService
        case .cyclingPower: return BlueZObjects.UUID.full(0x1818)
        case .cyclingSpeedCadence: return BlueZObjects.UUID.full(0x1816)
        case .runningSpeedCadence: return BlueZObjects.UUID.full(0x1814)
        case .fitnessMachine: return BlueZObjects.UUID.full(0x1826)
        }
    }

    /// The measurement characteristic's UUID.
    public var measurementUUID: String {
        switch self {
        case .heartRate: return BlueZObjects.UUID.heartRateMeasurement
        case .cyclingPower: return BlueZObjects.UUID.full(0x2A63)
        case .cyclingSpeedCadence: return BlueZObjects.UUID.full(0x2A5B)
        case .runningSpeedCadence: return BlueZObjects.UUID.full(0x2A53)
        case .fitnessMachine: return BlueZObjects.UUID.full(0x2AD2)
        }
    }

    /// Where its readings are recorded (nil: heart rate, recorded as `HeartRateTrack` samples).
    public var source: SensorSource? {
        switch self {
        case .heartRate: return nil
        case .cyclingPower: return .power
        case .cyclingSpeedCadence: return .csc
        case .runningSpeedCadence: return .rsc
        case .fitnessMachine: return .trainer
        }
    }

    /// Words for status and logs.
    public var label: String {
        switch self {
        case .heartRate: return "heart rate"
        case .cyclingPower: return "power"
        case .cyclingSpeedCadence: return "speed/cadence"
        case .runningSpeedCadence: return "footpod"
        case .fitnessMachine: return "trainer"
        }
    }

    /// Parses one notification of the measurement characteristic.
    public func parse(_ bytes: [UInt8]) -> SensorMeasurement? {
        switch self {
        case .heartRate: return (try? HeartRateMeasurement.parse(bytes)).map(SensorMeasurement.heartRate)
        case .cyclingPower: return (try? CyclingPowerMeasurement.parse(bytes)).map(SensorMeasurement.cyclingPower)
        case .cyclingSpeedCadence: return (try? CSCMeasurement.parse(bytes)).map(SensorMeasurement.cyclingSpeedCadence)
        case .runningSpeedCadence: return (try? RSCMeasurement.parse(bytes)).map(SensorMeasurement.runningSpeedCadence)
        case .fitnessMachine: return (try? IndoorBikeData.parse(bytes)).map(SensorMeasurement.fitnessMachine)
        }
    }
}

/// One parsed notification of any service workoutd reads.
public enum SensorMeasurement: Sendable, Equatable {
    case heartRate(HeartRateMeasurement)
    case cyclingPower(CyclingPowerMeasurement)
    case cyclingSpeedCadence(CSCMeasurement)
    case runningSpeedCadence(RSCMeasurement)
    case fitnessMachine(IndoorBikeData)
}
