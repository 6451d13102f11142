/// The feed socket's line format: JSON fix lines (docs/protocol.md) or NMEA sentences.
/// `{"class":"FIX","time":"2026-11-21T09:30:00Z","lat":..,"lon":..,"alt":..,"speed":..,"mode":3,"eph":..}`
/// heart-rate lines `{"class":"HR","time":..,"bpm":142,"rr":[0.42]}` (collected in `heartRates`)
/// the simulation header `{"class":"SIMULATION","speed":50}` and track segment breaks
/// `{"class":"SEGMENT"}` (`takeSegmentBreak()`).
public struct FeedSocketDecoder: FeedLineDecoder {
    public var rejected: [String: Int] = [:]
    public var satellites: Int?
    /// Set by a `SIMULATION` header: the feed replays a file at this speed, and (with
    /// `recordedTrack`) the lines are a device-recorded track, measured like an import.
    public var replay: FeedReplay?
    /// Heart-rate lines decoded since the owner last took them (`takeHeartRates()`).
    public private(set) var heartRates: [HeartRateReading] = []
    var nmea = NMEADecoder()
    /// A `SEGMENT` line was decoded since the owner last asked (`takeSegmentBreak()`).
    private var segmentBreak = SegmentBreakLine.none

    private enum SegmentBreakLine { case none, received }

    /// Whether a `SEGMENT` line came since the last call (the next fix starts a new segment).
    public mutating func takeSegmentBreak() -> Bool {
        switch segmentBreak {
        case .none: return false
        case .received: segmentBreak = .none; return true
        }
    }

    /// The heart-rate readings decoded so far, emptying the list.
    public mutating func takeHeartRates() -> [HeartRateReading] {
        defer { heartRates.removeAll(keepingCapacity: true) }
        return heartRates
    }

    public init() {}

    public mutating func decode(line: UnsafeBufferPointer<UInt8>) -> [Fix] {
        guard let first = line.first(where: { $0 != 32 && $0 != 9 }) else { return [] }
        if first == UInt8(ascii: "$") || first == UInt8(ascii: "!") || first == UInt8(ascii: "#") {
            var fixes: [Fix] = []
            var withNewline = Array(line)
            withNewline.append(10)
            withNewline.withUnsafeBufferPointer { nmea.feed($0) { fixes.append($0.fix) } }
            for (k, v) in nmea.stats.rejectionCounts { rejected[k] = v }
            if let sats = fixes.last?.satellites { satellites = sats }
            return fixes
        }
        guard first == UInt8(ascii: "{") else { rejected["not_json_or_nmea", default: 0] += 1; return [] }
        guard let j = try? JSON.parse(line) else { rejected["bad_json", default: 0] += 1; return [] }
        switch j["class"]?.stringValue {
        case "SIMULATION":
            replay = FeedReplay(speed: j["speed"]?.doubleValue ?? 1, origin: j["recordedTrack"]?.boolValue == true ? .device : .receiver)
            return []
        case "SEGMENT":
            segmentBreak = .received
            return []
        case "HR":
            switch HeartRateReading.decode(j) {
            case .success(let r): heartRates.append(r)
            case .failure(let problem): rejected[problem.rawValue, default: 0] += 1
            }
            return []
        case "FIX", "TPV":
            guard let fix = FeedSocketDecoder.fix(from: j) else { rejected["bad_fix", default: 0] += 1; return [] }
            if let field = FixBounds.violation(fix) { rejected["implausible_" + field, default: 0] += 1; return [] }
            return [fix]
        default:
            rejected["unknown_class", default: 0] += 1
            return []
        }
    }

    /// A JSON fix line to a Fix; nil when time or position is missing or malformed.
    public static func fix(from j: JSON) -> Fix? {
        guard let ts = j["time"]?.stringValue, let time = ISO8601.parse(ts),
              let lat = j["lat"]?.doubleValue, let lon = j["lon"]?.doubleValue,
              (-90...90).contains(lat), (-180...180).contains(lon) else { return nil }
        let mode = j["mode"]?.intValue.flatMap(FixMode.init(rawValue:)) ?? .threeD
        return Fix(time: time, latitude: lat, longitude: lon, altitude: j["alt"]?.doubleValue ?? j["altHAE"]?.doubleValue,
                   speed: j["speed"]?.doubleValue, course: j["track"]?.doubleValue ?? j["course"]?.doubleValue, mode: mode,
                   satellites: j["sats"]?.intValue, hdop: j["hdop"]?.doubleValue, horizontalAccuracy: j["eph"]?.doubleValue,
                   heartRate: j["hr"]?.intValue, cadence: j["cad"]?.intValue, power: j["power"]?.intValue)
    }
}
