/// Why TZif bytes could not be read.
public struct ZoneRulesError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { "invalid TZif data: \(reason)" }
}

/// The UTC offsets of one time zone over time: the rules a zone file (`/usr/share/zoneinfo/...`,
/// TZif v1/v2/v3, RFC 8536) describes, or a fixed offset.
///
/// Pure: the shell reads the file (config key `timeZone`, else `$TZ`, else `/etc/localtime`) and
/// passes the bytes in. Answers the offset in force at an instant and the local civil time.
///
/// - Before the first transition, the first local time type (type 0) applies (RFC 8536).
/// - After the last transition, the footer's POSIX TZ string applies when the file has one
///   (v2+); otherwise the last transition's type stays in force.
/// - Leap-second records (the `right/` zones) are ignored: instants are POSIX seconds.
public struct ZoneRules: Sendable, Equatable {
    /// One local time type of a TZif file.
    public struct LocalTimeType: Sendable, Equatable {
        /// Seconds east of UTC.
        public var utcOffset: Int
        public var isDaylight: Bool
        public var abbreviation: String
    }

    /// A label for logs (the zone's identifier when the caller knows it, "UTC", "+05:45").
    public var name: String
    /// Transition instants (seconds since 1970 UTC), ascending.
    public private(set) var transitions: [Int64]
    /// For each transition, the index into `types` in force from it on.
    public private(set) var transitionTypes: [Int]
    public private(set) var types: [LocalTimeType]
    /// Rule for instants after the last transition (from the v2+ footer).
    public private(set) var footer: PosixTZ?

    /// UTC itself.
    public static let utc = ZoneRules(fixedOffset: 0, name: "UTC")

    /// A zone that is always `seconds` east of UTC. The name defaults to `+HH:MM` (`UTC` for 0).
    public init(fixedOffset seconds: Int, name: String? = nil) {
        self.name = name ?? ZoneRules.offsetLabel(seconds)
        transitions = []
        transitionTypes = []
        types = [LocalTimeType(utcOffset: seconds, isDaylight: false, abbreviation: self.name)]
        footer = nil
    }

    /// A zone described by a POSIX TZ string alone (`$TZ` set to `CET-1CEST,M3.5.0,M10.5.0/3`).
    public init?(posix: String, name: String? = nil) {
        guard let rule = PosixTZ(posix) else { return nil }
        self.name = name ?? posix
        transitions = []
        transitionTypes = []
        types = [LocalTimeType(utcOffset: rule.standardOffset, isDaylight: false, abbreviation: rule.standardName)]
        footer = rule
    }

    /// Parses the bytes of a TZif file (v1, v2, v3 or v4). For v2+ the 64-bit section and the
    /// footer are used; a v1 file's 32-bit data covers 1901...2038.
    public init(tzif bytes: [UInt8], name: String = "") throws(ZoneRulesError) {
        self.name = name
        var r = Reader(bytes: bytes)
        let first = try r.header()
        guard first.version == 0 || first.version >= UInt8(ascii: "2") else {
            throw ZoneRulesError("unknown version byte \(first.version)")
        }
        if first.version == 0 {
            let block = try r.block(first, timeSize: 4)
            transitions = block.transitions; transitionTypes = block.indices; types = block.types
            footer = nil
            return
        }
        try r.skip(first.dataLength(timeSize: 4))
        let second = try r.header()
        let block = try r.block(second, timeSize: 8)
        transitions = block.transitions; transitionTypes = block.indices; types = block.types
        // Footer: "\n" TZ-string "\n". An empty string means "no rule".
        guard r.i < bytes.count, bytes[r.i] == 0x0A else { throw ZoneRulesError("missing footer") }
        guard let nl = bytes[(r.i + 1)...].firstIndex(of: 0x0A) else { throw ZoneRulesError("unterminated footer") }
        let text = String(decoding: bytes[(r.i + 1)..<nl], as: UTF8.self)
        if text.isEmpty {
            footer = nil
        } else {
            guard let rule = PosixTZ(text) else { throw ZoneRulesError("footer is not a POSIX TZ string: \(text)") }
            footer = rule
        }
    }

    /// The local time type index in force at an instant, or nil when the footer rule applies.
    func typeIndex(at t: Double) -> Int? {
        let n = transitions.count
        if n == 0 { return footer == nil ? 0 : nil }
        if t < Double(transitions[0]) { return 0 }
        if t >= Double(transitions[n - 1]) { return footer == nil ? transitionTypes[n - 1] : nil }
        // Last transition <= t.
        var lo = 0, hi = n - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if Double(transitions[mid]) <= t { lo = mid } else { hi = mid - 1 }
        }
        return transitionTypes[lo]
    }

    /// Instants are clamped to +-1e12 s (about +-31,000 years; NaN reads as 0) so that
    /// arithmetic on hostile input cannot trap.
    public static func clamp(_ t: Double) -> Double {
        t.isNaN ? 0 : min(max(t, -1e12), 1e12)
    }

    /// Seconds east of UTC in force at an instant (seconds since 1970 UTC).
    public func utcOffset(at t0: Double) -> Int {
        let t = ZoneRules.clamp(t0)
        if let k = typeIndex(at: t) { return types[k].utcOffset }
        return footer!.utcOffset(at: t)
    }

    /// True when daylight saving time is in force at an instant.
    public func isDaylightTime(at t0: Double) -> Bool {
        let t = ZoneRules.clamp(t0)
        if let k = typeIndex(at: t) { return types[k].isDaylight }
        return footer!.utcOffset(at: t) != footer!.standardOffset
    }

    /// The local civil time (wall clock) of an instant.
    public func civilTime(at t0: Double) -> CivilTime {
        let t = ZoneRules.clamp(t0)
        return CivilTime(utc: t + Double(utcOffset(at: t)))
    }

    /// Local wall-clock seconds since 1970-01-01T00:00 local (instant plus offset).
    public func localSeconds(at t0: Double) -> Double {
        let t = ZoneRules.clamp(t0)
        return t + Double(utcOffset(at: t))
    }

    /// `+HH:MM` / `-HH:MM` (`+05:45`), `UTC` for zero.
    public static func offsetLabel(_ seconds: Int) -> String {
        if seconds == 0 { return "UTC" }
        let a = abs(seconds)
        var s = (seconds < 0 ? "-" : "+") + ISO8601.pad(a / 3600, 2) + ":" + ISO8601.pad(a % 3600 / 60, 2)
        if a % 60 != 0 { s += ":" + ISO8601.pad(a % 60, 2) }
        return s
    }

    /// Big-endian reader over the TZif bytes.
    struct Reader {
        let bytes: [UInt8]
        var i = 0

        struct Header {
            var version: UInt8
            var isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt: Int
            func dataLength(timeSize: Int) -> Int {
                timecnt * timeSize + timecnt + typecnt * 6 + charcnt + leapcnt * (timeSize + 4) + isstdcnt + isutcnt
            }
        }

        mutating func skip(_ n: Int) throws(ZoneRulesError) {
            guard n >= 0, i + n <= bytes.count else { throw ZoneRulesError("truncated") }
            i += n
        }
        mutating func u32() throws(ZoneRulesError) -> UInt32 {
            guard i + 4 <= bytes.count else { throw ZoneRulesError("truncated") }
            var v: UInt32 = 0
            for k in 0..<4 { v = v << 8 | UInt32(bytes[i + k]) }
            i += 4
            return v
        }
        mutating func i64() throws(ZoneRulesError) -> Int64 {
            guard i + 8 <= bytes.count else { throw ZoneRulesError("truncated") }
            var v: UInt64 = 0
            for k in 0..<8 { v = v << 8 | UInt64(bytes[i + k]) }
            i += 8
            return Int64(bitPattern: v)
        }
        mutating func header() throws(ZoneRulesError) -> Header {
            guard i + 44 <= bytes.count else { throw ZoneRulesError("truncated header") }
            guard bytes[i] == 0x54, bytes[i + 1] == 0x5A, bytes[i + 2] == 0x69, bytes[i + 3] == 0x66 else {
                throw ZoneRulesError("no TZif magic")
            }
            let version = bytes[i + 4]
            i += 20
            var c = [Int]()
            for _ in 0..<6 { c.append(Int(try u32())) }
            // Sanity limits keep hostile input from asking for huge allocations.
            guard c.allSatisfy({ $0 <= 1_000_000 }), c[4] >= 1, c[4] <= 256 else { throw ZoneRulesError("implausible counts") }
            return Header(version: version, isutcnt: c[0], isstdcnt: c[1], leapcnt: c[2], timecnt: c[3], typecnt: c[4], charcnt: c[5])
        }

        mutating func block(_ h: Header, timeSize: Int) throws(ZoneRulesError) -> (transitions: [Int64], indices: [Int], types: [LocalTimeType]) {
            guard i + h.dataLength(timeSize: timeSize) <= bytes.count else { throw ZoneRulesError("truncated data block") }
            var times = [Int64]()
            times.reserveCapacity(h.timecnt)
            for _ in 0..<h.timecnt {
                let t = timeSize == 4 ? Int64(Int32(bitPattern: try u32())) : try i64()
                if let last = times.last, t <= last { throw ZoneRulesError("transitions not ascending") }
                times.append(t)
            }
            var idx = [Int]()
            for _ in 0..<h.timecnt {
                let k = Int(bytes[i]); i += 1
                guard k < h.typecnt else { throw ZoneRulesError("type index out of range") }
                idx.append(k)
            }
            var raw = [(off: Int, dst: Bool, abbr: Int)]()
            for _ in 0..<h.typecnt {
                let off = Int(Int32(bitPattern: try u32()))
                let dst = bytes[i] != 0
                let abbr = Int(bytes[i + 1])
                i += 2
                guard off > -89_999, off < 93_600, abbr < max(h.charcnt, 1) else { throw ZoneRulesError("bad local time type") }
                raw.append((off, dst, abbr))
            }
            let chars = Array(bytes[i..<(i + h.charcnt)])
            i += h.charcnt
            let types = raw.map { t -> LocalTimeType in
                let tail = chars.count > t.abbr ? chars[t.abbr...] : []
                let end = tail.firstIndex(of: 0) ?? chars.count
                return LocalTimeType(utcOffset: t.off, isDaylight: t.dst,
                                     abbreviation: String(decoding: chars[min(t.abbr, chars.count)..<end], as: UTF8.self))
            }
            try skip(h.leapcnt * (timeSize + 4) + h.isstdcnt + h.isutcnt)
            return (times, idx, types)
        }
    }
}
