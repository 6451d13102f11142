/// One entry of the `sensors` list: read while a workout that uses sensors records.
public enum SensorConfig: Sendable, Equatable {
    /// A Bluetooth LE sensor through BlueZ on the system D-Bus, read for every service it offers
    /// (Heart Rate, Cycling Power, Cycling Speed and Cadence, Running Speed and Cadence):
    /// `{"kind":"bluetooth","address":"AA:BB:CC:DD:EE:FF","wheelCircumferenceMm":2105}`; without
    /// an address, the first device BlueZ knows that offers the Heart Rate service (0x180D), else
    /// one of the others. `wheelCircumferenceMm` is the wheel its speed sensor turns.
    case bluetooth(address: String?, wheelCircumferenceMm: Int = SensorConfig.defaultWheelCircumferenceMm)

    /// A 700x25c tyre.
    public static let defaultWheelCircumferenceMm = 2105
    /// Wheels from a child's bike to a fat bike.
    public static let wheelCircumferenceRange = 500...3500

    /// Words for `status` and logs.
    public var label: String {
        switch self {
        case .bluetooth(let a, _): return "Bluetooth sensor" + (a.map { " \($0)" } ?? "")
        }
    }

    /// The wheel a speed sensor of this entry turns, in metres.
    public var wheelCircumference: Double {
        switch self {
        case .bluetooth(_, let mm): return Double(mm) / 1000
        }
    }

    public var kind: String {
        switch self {
        case .bluetooth: return "bluetooth"
        }
    }

    static func decode(_ value: JSON, path: String) throws(ConfigError) -> SensorConfig {
        var r = try KeyReader(value, path: path)
        guard let kind = try r.string("kind") else { throw ConfigError(key: path + ".kind", problem: "missing; \"bluetooth\"") }
        let sensor: SensorConfig
        switch kind {
        case "bluetooth":
            let address = try r.string("address")
            if let a = address, !SensorConfig.isBluetoothAddress(a) {
                throw ConfigError(key: path + ".address", problem: "'\(a)' is not a Bluetooth address like AA:BB:CC:DD:EE:FF")
            }
            let wheel = try r.int("wheelCircumferenceMm", in: SensorConfig.wheelCircumferenceRange) ?? SensorConfig.defaultWheelCircumferenceMm
            sensor = .bluetooth(address: address?.uppercased(), wheelCircumferenceMm: wheel)
        default:
            throw ConfigError(key: path + ".kind", problem: "unknown sensor kind '\(kind)'; \"bluetooth\"")
        }
        try r.finish()
        return sensor
    }

    /// Six pairs of hex digits separated by colons.
    public static func isBluetoothAddress(_ s: String) -> Bool {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 6 && parts.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }
}

/// Heart-rate zones (`heartRate` in the configuration): explicit lower bounds of zones 1-5, or
/// the maximum heart rate (and the resting one for the reserve method). Without any, and with
/// `age`, the maximum is estimated as 208 - 0.7 x age (Tanaka 2001).
public struct HeartRateConfig: Sendable, Equatable {
    public var maxBpm: Int?
    public var restingBpm: Int?
    /// Lower bounds (bpm) of zones 1...n, increasing.
    public var zones: [Int]?
    public init() {}
}

extension Config {
    /// The zones in force: explicit bounds, else from the maximum (configured or estimated from
    /// the age) and the resting rate; nil when nothing is known.
    public var heartRateZones: HeartRateZones? {
        if let z = heartRate.zones { return HeartRateZones(lowerBounds: z) }
        guard let max = heartRate.maxBpm ?? age.map(HeartRateZones.estimatedMaximum(age:)) else { return nil }
        return HeartRateZones(maximum: max, resting: heartRate.restingBpm)
    }

    /// Weight, age and sex for calories.
    public var bodyProfile: BodyProfile { BodyProfile(weightKilograms: weightKg, age: age, sex: sex) }

    /// Plausible functional threshold powers (W).
    public static let ftpRange = 30.0...2000

    /// Reads `sensors`, `ftpWatts`, `thresholdHeartRate`, `thresholdPaceSecondsPerKm`, `age`, `sex` and `heartRate` (called by `decode(json:)`).
    static func decodeHeartRateKeys(_ r: inout KeyReader, into c: inout Config) throws(ConfigError) {
        if let sensors = try r.array("sensors") {
            c.sensors = []
            for (i, s) in sensors.enumerated() { c.sensors.append(try SensorConfig.decode(s, path: "sensors[\(i)]")) }
        }
        c.ftpWatts = try r.number("ftpWatts", in: Config.ftpRange) ?? c.ftpWatts
        c.thresholdHeartRate = try r.int("thresholdHeartRate", in: 60...250) ?? c.thresholdHeartRate
        c.thresholdPaceSecondsPerKm = try r.number("thresholdPaceSecondsPerKm", in: 120...900) ?? c.thresholdPaceSecondsPerKm
        c.age = try r.int("age", in: 5...120) ?? c.age
        if let s = try r.string("sex") {
            guard let v = Sex(rawValue: s) else { throw ConfigError(key: "sex", problem: "must be \"male\" or \"female\", not '\(s)'") }
            c.sex = v
        }
        if var h = try r.object("heartRate") {
            c.heartRate.maxBpm = try h.int("maxBpm", in: 100...250) ?? c.heartRate.maxBpm
            c.heartRate.restingBpm = try h.int("restingBpm", in: 25...120) ?? c.heartRate.restingBpm
            if let z = try h.array("zones") {
                let bounds = z.compactMap(\.intValue)
                guard bounds.count == z.count, !bounds.isEmpty, bounds.count <= 10, HeartRateZones(lowerBounds: bounds) != nil else {
                    throw ConfigError(key: "heartRate.zones", problem: "expected 1 to 10 increasing whole numbers (lower bounds of zones 1, 2, ... in bpm)")
                }
                c.heartRate.zones = bounds
            }
            if let m = c.heartRate.maxBpm, let rest = c.heartRate.restingBpm, rest >= m {
                throw ConfigError(key: "heartRate.restingBpm", problem: "\(rest) is not below maxBpm \(m)")
            }
            try h.finish()
        }
    }
}
