/// Why a stretch of a track is beyond its activity (`PlausibilityBounds`).
public enum ImplausibleReason: String, Sendable, Equatable, CaseIterable {
    /// Faster than the activity's top speed (on the flat, or descending).
    case speed
    /// Farther from the speed before than the activity can accelerate: a catch-up after a gap
    /// or a stop, however straight.
    case acceleration
    /// A best effort faster than the fastest ever over its distance (a world record).
    case record
}

/// A stretch of a workout's track its activity could not have done: kept in the track and
/// drawn, but counted in no maximum speed, best effort, record or personal best. JSON
/// `{"start","seconds","meters","speed","reason"}` (`speed`: the fastest seen in it, m/s).
public struct ImplausibleStretch: Sendable, Equatable {
    public var start: Double
    public var seconds: Double
    public var meters: Double
    /// The fastest speed seen in it (m/s).
    public var speed: Double
    public var reason: ImplausibleReason

    public init(start: Double, seconds: Double, meters: Double, speed: Double, reason: ImplausibleReason) {
        self.start = start; self.seconds = seconds; self.meters = meters; self.speed = speed; self.reason = reason
    }

    public var end: Double { start + seconds }

    /// What an import's warning and `show` say: when, how long, how fast.
    public func text(activity: ActivityType) -> String {
        let kmh = { (v: Double) in String(Int((v * 3.6).rounded())) }
        let b = activity.plausibility
        let why: String
        switch reason {
        case .speed: why = "faster than \(activity.displayName.lowercased()) goes (\(kmh(b.flatSpeed)) km/h on the flat, \(kmh(b.descentSpeed)) downhill)"
        case .acceleration: why = "farther than \(activity.displayName.lowercased()) gets from the speed before (a GPS catch-up after a gap or a stop)"
        case .record: why = "faster than the fastest ever over \(formatFixed(meters / 1000, decimals: 2)) km (\(ImplausibleStretch.clock(b.fastestSeconds(meters: meters))))"
        }
        return "implausible stretch at \(ISO8601.format(start)) for \(Int(seconds.rounded())) s: \(Int(meters.rounded())) m, up to \(kmh(speed)) km/h, "
            + "\(why); kept in the track, left out of max speed, best efforts and records"
    }

    /// Most stretches named one by one in the warnings; the rest are counted.
    static let namedInWarnings = 5

    /// The warnings for `stretches`: the first `namedInWarnings` named, the rest counted.
    public static func warnings(_ stretches: [ImplausibleStretch], activity: ActivityType) -> [String] {
        var w = stretches.prefix(namedInWarnings).map { $0.text(activity: activity) }
        if stretches.count > namedInWarnings {
            let rest = stretches.dropFirst(namedInWarnings)
            let seconds = rest.reduce(0) { $0 + $1.seconds }
            w.append("\(rest.count) more implausible stretches (\(Int(seconds.rounded())) s in all), left out of max speed, best efforts and records as well")
        }
        return w
    }

    /// "2:11.96", "56:42.00", "9.58 s".
    static func clock(_ seconds: Double) -> String {
        let cs = Int((seconds * 100).rounded())
        let (m, rest) = (cs / 6000, cs % 6000)
        let frac = ISO8601.pad(rest % 100, 2)
        guard m > 0 else { return "\(rest / 100).\(frac) s" }
        return "\(m):" + ISO8601.pad(rest / 100, 2) + "." + frac
    }

    public func json() -> JSON { JSONTree.build { encode(to: &$0) } }

    /// The stretch's one schema, for the tree and the bytes (inside the summary).
    func encode<S: JSONSink>(to s: inout S) {
        s.beginObject()
        s.key("start"); s.time(start, fractionDigits: 3)
        s.key("seconds"); s.number(rounded(seconds, 3))
        s.key("meters"); s.number(rounded(meters, 1))
        s.key("speed"); s.number(rounded(speed, 3))
        s.key("reason"); s.string(reason.rawValue)
        s.endObject()
    }

    public init?(json j: JSON) {
        guard let s = j["start"]?.stringValue.flatMap({ ISO8601.parse($0) }), let r = j["reason"]?.stringValue.flatMap(ImplausibleReason.init(rawValue:))
        else { return nil }
        self.init(start: s, seconds: j["seconds"]?.doubleValue ?? 0, meters: j["meters"]?.doubleValue ?? 0, speed: j["speed"]?.doubleValue ?? 0, reason: r)
    }
}
