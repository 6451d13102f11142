import Glibc
import WorkoutCore

/// The route `simulate` feeds without a file: a loop around a point at the activity's typical
/// speed, one fix per second, with small realistic jitter (position error under a metre, drifting slowly; speed ~5 %, altitude
/// noise and a gentle hill). Deterministic for a given seed, so tests can check it.
public struct BuiltInRoute: Sendable {
    public var activity: ActivityType
    public var centerLatitude = 52.5145
    public var centerLongitude = 13.3501
    public var baseAltitude = 35.0
    public var start: Double
    var rng: SplitMix64
    /// GPS error is correlated from one fix to the next (an AR(1) walk, ~0.7 m standard
    /// deviation), not white noise that would make the track zig-zag.
    var errorEast = 0.0, errorNorth = 0.0

    public init(activity: ActivityType, start: Double, seed: UInt64 = 0x5EED) {
        self.activity = activity
        self.start = start
        rng = SplitMix64(seed: seed)
    }

    /// A typical pace for the activity in m/s, derived from its properties (a quarter of the
    /// highest plausible speed, at least three times its auto-pause threshold): running ~3.1 m/s
    /// (5:20 /km), walking 1.0, cycling 6.75 (24 km/h), swimming 0.75.
    public static func typicalSpeed(_ a: ActivityType) -> Double {
        max(a.maxPlausibleSpeed * 0.25, (a.autoPauseSpeed ?? 0) * 3)
    }

    /// Seconds for one lap: about ten minutes, so a lap is 0.6 km walking or 4 km cycling.
    public static let lapSeconds = 600

    public var speed: Double { BuiltInRoute.typicalSpeed(activity) }
    public var radius: Double { speed * Double(BuiltInRoute.lapSeconds) / (2 * Double.pi) }

    /// The JSON fix lines of laps `[0, laps)` (nil = one lap; the caller loops by asking again
    /// with `fromSecond`).
    public mutating func fixes(fromSecond first: Int, count: Int) -> [TimedLine] {
        var out: [TimedLine] = []
        out.reserveCapacity(count)
        let metersPerDegreeLat = 111_320.0
        let metersPerDegreeLon = 111_320.0 * cos(centerLatitude * Double.pi / 180)
        for k in first..<first + count {
            let t = start + Double(k)
            let angle = Double(k) * speed / radius
            errorEast = 0.9 * errorEast + rng.normal() * 0.3
            errorNorth = 0.9 * errorNorth + rng.normal() * 0.3
            let east = radius * sin(angle) + errorEast
            let north = radius * (1 - cos(angle)) + errorNorth
            let lat = centerLatitude + north / metersPerDegreeLat
            let lon = centerLongitude + east / metersPerDegreeLon
            let alt = baseAltitude + 6 * (1 - cos(angle)) + rng.normal() * 0.5
            let v = max(0, speed * (1 + rng.normal() * 0.05))
            var track = (angle * 180 / Double.pi + 90).truncatingRemainder(dividingBy: 360)
            if track < 0 { track += 360 }
            let o = JSONObject([
                ("class", "FIX"), ("time", .string(ISO8601.format(t, fractionDigits: t == t.rounded() ? 0 : 3))),
                ("lat", .number(Double(formatFixed(lat, decimals: 7)) ?? lat)), ("lon", .number(Double(formatFixed(lon, decimals: 7)) ?? lon)),
                ("alt", .number(Double(formatFixed(alt, decimals: 1)) ?? alt)), ("speed", .number(Double(formatFixed(v, decimals: 2)) ?? v)),
                ("track", .number(Double(formatFixed(track, decimals: 1)) ?? track)), ("mode", 3), ("sats", .int(9 + Int(rng.next() % 3))),
                ("eph", .number(Double(formatFixed(3 + abs(rng.normal()), decimals: 1)) ?? 3)),
            ])
            out.append(TimedLine(time: t, line: JSON.object(o).serialized()))
        }
        return out
    }
}

extension SplitMix64 {
    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }
    /// Standard normal (Box-Muller).
    mutating func normal() -> Double {
        let u = max(uniform(), 1e-12), v = uniform()
        return sqrt(-2 * log(u)) * cos(2 * Double.pi * v)
    }
}
