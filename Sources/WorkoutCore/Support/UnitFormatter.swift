/// Numbers with units as people read them, in the configured unit system (config `units`):
/// distances in km or mi (2 decimals), paces per km or per mile, speeds in km/h or mph,
/// elevation in m or ft, temperatures in °C or °F. JSON stays SI; this is only for text.
/// Pure; every function accepts any Double (NaN, negative, huge). One source of truth for the
/// client's renderer and the daemon's log messages.
public struct UnitFormatter: Sendable, Equatable {
    public var system: Units

    public init(_ system: Units) { self.system = system }

    public static let metric = UnitFormatter(.metric)
    public static let imperial = UnitFormatter(.imperial)

    /// Metres in a statute mile and in a foot.
    public static let metersPerMile = 1609.344
    public static let metersPerFoot = 0.3048

    /// Speeds below this (m/s, about 2.8 h per km) have no meaningful pace.
    public static let slowestPaceSpeed = 0.1

    /// The distance unit's symbol: "km" or "mi".
    public var distanceUnit: String {
        switch system {
        case .metric: return "km"
        case .imperial: return "mi"
        }
    }

    /// Metres in one distance unit.
    public var metersPerDistanceUnit: Double {
        switch system {
        case .metric: return 1000
        case .imperial: return UnitFormatter.metersPerMile
        }
    }

    /// `12.34 km` / `7.67 mi` (2 decimals, rounded half away from zero).
    public func distance(_ meters: Double) -> String {
        let m = meters.isFinite && meters > 0 ? meters : 0
        return formatFixed(m / metersPerDistanceUnit, decimals: 2) + " " + distanceUnit
    }

    /// `5:38 /km` or `9:04 /mi` for a speed in m/s; `-:-- /km` when standing still or unknown.
    /// Paces of an hour or more per unit show as h:mm:ss.
    public func pace(speed: Double?) -> String {
        let suffix = " /" + distanceUnit
        guard let v = speed, v.isFinite, v >= UnitFormatter.slowestPaceSpeed else { return "-:--" + suffix }
        let seconds = (metersPerDistanceUnit / v).rounded()
        let t = Int64(min(seconds, 9.0e15))
        if t >= 3600 { return "\(t / 3600):" + two(t / 60 % 60) + ":" + two(t % 60) + suffix }
        return "\(t / 60):" + two(t % 60) + suffix
    }

    /// `24.3 km/h` or `15.1 mph` for a speed in m/s (1 decimal); `-- km/h` when unknown.
    public func speed(_ metersPerSecond: Double?) -> String {
        let unit: String
        let perMeterPerSecond: Double
        switch system {
        case .metric: unit = "km/h"; perMeterPerSecond = 3.6
        case .imperial: unit = "mph"; perMeterPerSecond = 3600 / UnitFormatter.metersPerMile
        }
        guard let v = metersPerSecond, v.isFinite else { return "-- " + unit }
        return formatFixed(max(v, 0) * perMeterPerSecond, decimals: 1) + " " + unit
    }

    /// Elevation or climb in whole metres or feet (`123 m`, `404 ft`).
    public func elevation(_ meters: Double) -> String {
        let m = meters.isFinite ? meters : 0
        switch system {
        case .metric: return formatFixed(m, decimals: 0) + " m"
        case .imperial: return formatFixed(m / UnitFormatter.metersPerFoot, decimals: 0) + " ft"
        }
    }

    /// A temperature in whole degrees (`21 °C`, `70 °F`).
    public func temperature(celsius: Double) -> String {
        let c = celsius.isFinite ? celsius : 0
        switch system {
        case .metric: return formatFixed(c, decimals: 0) + " °C"
        case .imperial: return formatFixed(c * 9 / 5 + 32, decimals: 0) + " °F"
        }
    }

    /// The effort figure of an activity: pace, speed, or nil for activities showing neither.
    public func effort(_ speed: Double?, for activity: ActivityType?) -> String? {
        switch activity?.effortDisplay ?? .speed {
        case .pace: return pace(speed: speed)
        case .speed: return self.speed(speed)
        case .none: return nil
        }
    }

    /// The label of that figure ("Pace", "Speed").
    public static func effortLabel(for activity: ActivityType?) -> String? {
        switch activity?.effortDisplay ?? .speed {
        case .pace: return "Pace"
        case .speed: return "Speed"
        case .none: return nil
        }
    }

    /// The name of a best-effort distance, the same in both systems (race distances keep their
    /// names): "400 m", "1 km", "1 mile", "5 km", "half marathon", "marathon".
    public static func bestEffortName(_ meters: Double) -> String {
        switch meters {
        case 1609...1610: return "1 mile"
        case 21097...21098: return "half marathon"
        case 42194...42196: return "marathon"
        case 1000...: return "\(formatFixed(meters / 1000, decimals: meters.truncatingRemainder(dividingBy: 1000) == 0 ? 0 : 1)) km"
        default: return "\(Int(meters.isFinite ? max(0, meters) : 0)) m"
        }
    }

    private func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
}
