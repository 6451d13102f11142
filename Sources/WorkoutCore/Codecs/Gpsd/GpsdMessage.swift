/// One gpsd JSON report (a line of gpsd's watcher protocol), decoded with our own `JSON` parser.
/// Only the fields workoutd uses are kept; unknown classes decode to `.other` and are ignored.
public enum GpsdMessage: Sendable, Equatable {
    case version(release: String, protocolMajor: Int?, protocolMinor: Int?)
    case tpv(GpsdTPV)
    case sky(GpsdSKY)
    /// Paths of the devices gpsd knows.
    case devices([String])
    case watch(enable: Bool?, json: Bool?)
    case error(message: String)
    /// A class we do not use (ATT, PPS, TOFF, GST, ...), by name.
    case other(className: String)

    /// Why a line was refused.
    public enum Rejection: String, Error, Sendable, Equatable, CaseIterable {
        /// Not JSON at all (e.g. an echoed `$GPGGA` line), or invalid JSON.
        case invalidJSON
        /// Valid JSON, but not an object with a string `class`.
        case notAnObject
        /// A known class with a field of the wrong type (`"mode":"3"`, `"lat":null`,
        /// `"devices":{}`) or an out-of-range value (lat 91).
        case wrongType
    }

    /// Decodes one line (without or with its trailing newline).
    public static func decode(_ line: UnsafeBufferPointer<UInt8>) -> Result<GpsdMessage, Rejection> {
        guard let json = try? JSON.parse(line) else { return .failure(.invalidJSON) }
        return decode(json)
    }

    public static func decode(_ line: String) -> Result<GpsdMessage, Rejection> {
        var copy = line
        return copy.withUTF8 { decode($0) }
    }

    public static func decode(_ json: JSON) -> Result<GpsdMessage, Rejection> {
        guard case .object(let o) = json, let cls = o["class"]?.stringValue else { return .failure(.notAnObject) }
        var r = FieldReader(object: o)
        let message: GpsdMessage
        switch cls {
        case "VERSION":
            message = .version(release: r.string("release") ?? "", protocolMajor: r.int("proto_major"),
                               protocolMinor: r.int("proto_minor"))
        case "TPV":
            var t = GpsdTPV(mode: r.int("mode") ?? 0)
            if let text = r.string("time") {
                if let seconds = ISO8601.parse(text) { t.time = seconds } else { r.bad = true }
            }
            t.device = r.string("device")
            t.status = r.int("status")
            for (key, field) in GpsdTPV.numberFields { t[keyPath: field] = r.double(key) }
            if let lat = t.latitude, abs(lat) > 90 { r.bad = true }
            if let lon = t.longitude, abs(lon) > 180 { r.bad = true }
            message = .tpv(t)
        case "SKY":
            var s = GpsdSKY()
            if let text = r.string("time") { s.time = ISO8601.parse(text) }
            s.hdop = r.double("hdop")
            s.satellitesUsed = r.int("uSat")
            s.satellitesVisible = r.int("nSat")
            if let sats = o["satellites"] {
                if let list = sats.arrayValue {
                    var used = 0
                    for sat in list {
                        guard case .object(let so) = sat else { r.bad = true; break }
                        switch so["used"] {
                        case .bool(true)?: used += 1
                        case .bool(false)?, nil: break
                        default: r.bad = true
                        }
                    }
                    if s.satellitesUsed == nil { s.satellitesUsed = used }
                    if s.satellitesVisible == nil { s.satellitesVisible = list.count }
                } else {
                    r.bad = true
                }
            }
            message = .sky(s)
        case "DEVICES":
            var paths: [String] = []
            if let list = o["devices"]?.arrayValue {
                for d in list {
                    if let p = d["path"]?.stringValue { paths.append(p) } else { r.bad = true }
                }
            } else {
                r.bad = true
            }
            message = .devices(paths)
        case "WATCH":
            message = .watch(enable: r.bool("enable"), json: r.bool("json"))
        case "ERROR":
            message = .error(message: r.string("message") ?? "")
        default:
            return .success(.other(className: cls))
        }
        return r.bad ? .failure(.wrongType) : .success(message)
    }

    /// Reads optional fields of an object, remembering whether any had the wrong type.
    private struct FieldReader {
        let object: JSONObject
        var bad = false

        /// The field `key` as `value` reads it: nil when absent; nil and `bad` when of the wrong type.
        private mutating func field<T>(_ key: String, _ value: (JSON) -> T?) -> T? {
            guard let v = object[key] else { return nil }
            guard let typed = value(v) else { bad = true; return nil }
            return typed
        }
        mutating func double(_ key: String) -> Double? { field(key, \.doubleValue) }
        mutating func int(_ key: String) -> Int? { field(key, \.intValue) }
        mutating func string(_ key: String) -> String? { field(key, \.stringValue) }
        mutating func bool(_ key: String) -> Bool? { field(key, \.boolValue) }
    }
}

/// The TPV fields workoutd reads. gpsd omits a field it does not know; so do we (nil).
public struct GpsdTPV: Sendable, Equatable {
    /// Seconds since 1970 UTC; nil when gpsd sent no `time` (it does so without a date).
    public var time: Double?
    /// 0 unknown, 1 no fix, 2 2D, 3 3D.
    public var mode: Int
    public var device: String?
    /// gpsd `status`: 2 DGPS, 3 RTK fixed, 4 RTK float, 5 DR, 6 GNSS+DR, 7 time only, 8 simulated.
    public var status: Int?
    public var latitude: Double?
    public var longitude: Double?
    public var altHAE: Double?
    public var altMSL: Double?
    /// Deprecated by gpsd (= altMSL since 3.20); used only when the other two are absent.
    public var alt: Double?
    public var geoidSeparation: Double?
    /// m/s.
    public var speed: Double?
    public var track: Double?
    public var eph: Double?
    public var epx: Double?
    public var epy: Double?

    public init(time: Double? = nil, mode: Int) {
        self.time = time
        self.mode = mode
    }

    /// The optional numbers by their gpsd key: what `decode` reads and `merged` keeps.
    static let numberFields: [(key: String, field: WritableKeyPath<GpsdTPV, Double?> & Sendable)] = [
        ("lat", \.latitude), ("lon", \.longitude), ("altHAE", \.altHAE), ("altMSL", \.altMSL), ("alt", \.alt),
        ("geoidSep", \.geoidSeparation), ("speed", \.speed), ("track", \.track), ("eph", \.eph), ("epx", \.epx), ("epy", \.epy),
    ]

    /// Altitude preference: HAE, else MSL, else the deprecated `alt`.
    public var altitude: Double? { altHAE ?? altMSL ?? alt }

    /// Horizontal error: `eph`, else the root sum square of `epx` and `epy`.
    public var horizontalAccuracy: Double? {
        if let eph { return eph }
        if let epx, let epy { return (epx * epx + epy * epy).squareRoot() }
        return nil
    }

    /// gpsd `status` as a quality (nil when gpsd sent none, which means plain GPS or unknown).
    public var quality: FixQuality? {
        switch status {
        case 1?: return .gps
        case 2?: return .dgps
        case 3?: return .rtkFixed
        case 4?: return .rtkFloat
        case 5?, 6?: return .estimated
        case 8?: return .simulated
        default: return nil
        }
    }

    /// Later fields win; fields the later report lacks are kept from this one.
    public func merged(with later: GpsdTPV) -> GpsdTPV {
        var m = later
        m.time = later.time ?? time
        m.device = later.device ?? device
        m.status = later.status ?? status
        for (_, field) in Self.numberFields { m[keyPath: field] = later[keyPath: field] ?? self[keyPath: field] }
        return m
    }
}

/// The SKY fields workoutd reads.
public struct GpsdSKY: Sendable, Equatable {
    public var time: Double?
    public var hdop: Double?
    /// `uSat`, else the count of `used:true` in `satellites`.
    public var satellitesUsed: Int?
    public var satellitesVisible: Int?
    public init() {}
}
