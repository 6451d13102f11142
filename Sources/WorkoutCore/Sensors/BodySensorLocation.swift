/// Where the strap sits (Body Sensor Location characteristic 0x2A38, one byte).
public enum BodySensorLocation: UInt8, Sendable, Equatable, CaseIterable {
    case other = 0
    case chest = 1
    case wrist = 2
    case finger = 3
    case hand = 4
    case earLobe = 5
    case foot = 6

    /// The word shown in `status` and the log.
    public var label: String {
        switch self {
        case .other: return "other"
        case .chest: return "chest"
        case .wrist: return "wrist"
        case .finger: return "finger"
        case .hand: return "hand"
        case .earLobe: return "ear lobe"
        case .foot: return "foot"
        }
    }

    /// Decodes the characteristic's value: nil when empty or a reserved value (7-255).
    public init?(value: some Collection<UInt8>) {
        guard let b = value.first, let l = BodySensorLocation(rawValue: b) else { return nil }
        self = l
    }
}

/// The Battery Level characteristic (0x2A19, Battery Service 0x180F): one byte, percent.
public enum BatteryLevel {
    /// The percentage, or nil when the value is empty or above 100 (not a level).
    public static func decode(_ value: some Collection<UInt8>) -> Int? {
        guard let b = value.first, b <= 100 else { return nil }
        return Int(b)
    }
}
