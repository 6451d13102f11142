/// What a receiver says about its fix: none, 2D (no altitude) or 3D. Raw values are gpsd's `mode`.
public enum FixMode: Int, Sendable, Codable, Comparable, CaseIterable {
    case noFix = 1
    case twoD = 2
    case threeD = 3

    public static func < (a: FixMode, b: FixMode) -> Bool { a.rawValue < b.rawValue }

    /// The word shown in `status` ("none", "2D", "3D").
    public var label: String {
        switch self {
        case .noFix: return "none"
        case .twoD: return "2D"
        case .threeD: return "3D"
        }
    }
}

/// How the position was solved (NMEA GGA quality indicator, gpsd `status`).
public enum FixQuality: String, Sendable, Codable, CaseIterable {
    case invalid
    case gps
    case dgps
    case pps
    case rtkFixed = "rtk_fixed"
    case rtkFloat = "rtk_float"
    case estimated
    case manual
    case simulated
}

/// One position report from any source (gpsd, NMEA, the feed socket, an imported file).
/// Times are UTC seconds since 1970 as the receiver reported them; the daemon never rewrites
/// them from its own clock (a replayed capture keeps its own dates).
public struct Fix: Sendable, Equatable {
    /// Receiver UTC time, seconds since 1970-01-01T00:00:00Z.
    public var time: Double
    public var latitude: Double
    public var longitude: Double
    /// Metres; height above the ellipsoid when known, else above mean sea level.
    public var altitude: Double?
    /// Ground speed in m/s, as reported by the receiver.
    public var speed: Double?
    /// Course over ground, degrees true.
    public var course: Double?
    public var mode: FixMode
    public var quality: FixQuality?
    /// Satellites used in the solution.
    public var satellites: Int?
    public var hdop: Double?
    /// Estimated horizontal error in metres (gpsd `eph`, or derived from epx/epy or HDOP).
    public var horizontalAccuracy: Double?
    /// Heart rate (bpm) and cadence (rpm) when an imported file carries them.
    public var heartRate: Int?
    public var cadence: Int?
    /// Power in watts and air temperature in degrees Celsius when an imported file carries them.
    public var power: Int?
    public var temperature: Int?

    public init(time: Double, latitude: Double, longitude: Double, altitude: Double? = nil,
                speed: Double? = nil, course: Double? = nil, mode: FixMode = .threeD,
                quality: FixQuality? = nil, satellites: Int? = nil, hdop: Double? = nil,
                horizontalAccuracy: Double? = nil, heartRate: Int? = nil, cadence: Int? = nil,
                power: Int? = nil, temperature: Int? = nil) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.speed = speed
        self.course = course
        self.mode = mode
        self.quality = quality
        self.satellites = satellites
        self.hdop = hdop
        self.horizontalAccuracy = horizontalAccuracy
        self.heartRate = heartRate
        self.cadence = cadence
        self.power = power
        self.temperature = temperature
    }
}
