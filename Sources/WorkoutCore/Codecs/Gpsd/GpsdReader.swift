/// Reads gpsd's JSON watcher stream (after `GpsdReader.watchRequest`) and turns it into fixes.
///
/// gpsd re-reports the whole epoch after nearly every sentence it decodes, so one receiver epoch
/// arrives as many TPVs with the same `time` (about 17 per epoch on a busy NMEA 2000 bridge).
/// Rule: consecutive TPVs with the same `time` are ONE epoch; they are merged field by field, the
/// later report winning and fields it lacks kept from the earlier ones (each report is gpsd's
/// accumulated state, so the last is normally the most complete; merging also keeps e.g. an
/// altitude that a late, partial report lacks). The epoch is emitted when a TPV with another time
/// arrives, or on `flush()`. A time that repeats later, after another time (a receiver whose clock
/// went backwards), is a new epoch.
///
/// TPVs with mode < 2 are ignored; TPVs without `time` or without lat/lon are skipped; all are
/// counted. SKY supplies satellites used and HDOP to the epoch being assembled (or, if none is, to
/// the next). Wrong-shaped JSON is counted by reason and never stops the stream.
public struct GpsdReader: Sendable {
    /// What a client sends to gpsd to receive this stream.
    public static let watchRequest = "?WATCH={\"enable\":true,\"json\":true};\n"

    public struct Stats: Sendable, Equatable {
        public var lines = 0
        public var fixes = 0
        public var tpv = 0
        public var sky = 0
        /// Lines that are not JSON (gpsd echoing NMEA in raw mode, line noise) or invalid JSON.
        public var invalidJSON = 0
        /// JSON that is not an object with a string `class`.
        public var notAnObject = 0
        /// A known class with a wrongly typed or out-of-range field.
        public var wrongType = 0
        public var tooLong = 0
        /// Classes we do not use (ATT, PPS, TOFF, GST, ...).
        public var otherClass = 0
        /// TPVs with mode 0 or 1.
        public var tpvNoFix = 0
        /// TPVs (mode >= 2) without `time`: gpsd sends these before it knows the date.
        public var tpvWithoutTime = 0
        /// TPVs (mode >= 2) without lat or lon.
        public var tpvWithoutPosition = 0
        /// Epochs rejected for a value outside `FixBounds`, by field.
        public var implausible: [String: Int] = [:]
        public init() {}

        /// Rejected input by reason, as `gps.rejectedInput` shows it (zero counts left out).
        public var rejectionCounts: [String: Int] {
            var out = ["gpsd_invalid_json": invalidJSON, "gpsd_not_object": notAnObject, "gpsd_wrong_type": wrongType,
                       "gpsd_too_long": tooLong]
            for (field, n) in implausible { out["gpsd_implausible_" + field] = n }
            return out.filter { $0.value > 0 }
        }
    }

    public let maxLineLength: Int
    public private(set) var stats = Stats()
    /// From the last VERSION message.
    public private(set) var release: String?
    /// From the last DEVICES message.
    public private(set) var devices: [String] = []
    /// The last ERROR message's text.
    public private(set) var lastError: String?

    private var lines: LineFramer
    private var pending: GpsdTPV?
    private var pendingSky: GpsdSKY?

    public init(maxLineLength: Int = 256 * 1024) {
        self.maxLineLength = max(64, maxLineLength)
        self.lines = LineFramer(maxLine: self.maxLineLength)
    }

    /// Feeds raw bytes from the gpsd socket, in chunks of any size.
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: (Fix) -> Void) {
        var framer = lines
        framer.feed(UnsafeRawBufferPointer(bytes)) { (item: LineFramer.Item) in
            switch item {
            case .line(let line): feedLine(line, emit)
            case .tooLong: stats.tooLong += 1
            }
        }
        lines = framer
    }

    public mutating func feed(_ bytes: [UInt8]) -> [Fix] {
        var out: [Fix] = []
        bytes.withUnsafeBufferPointer { feed($0) { out.append($0) } }
        return out
    }

    /// Feeds one complete line (without its newline; blank lines are ignored).
    public mutating func feedLine(_ line: UnsafeBufferPointer<UInt8>, _ emit: (Fix) -> Void) {
        var blank = true
        for c in line where c != 0x20 && c != 0x0D && c != 0x09 { blank = false; break }
        if blank { return }
        stats.lines += 1
        switch GpsdMessage.decode(line) {
        case .failure(.invalidJSON): stats.invalidJSON += 1
        case .failure(.notAnObject): stats.notAnObject += 1
        case .failure(.wrongType): stats.wrongType += 1
        case .success(let message): handle(message, emit)
        }
    }

    public mutating func feedLine(_ line: String, _ emit: (Fix) -> Void) {
        var copy = line
        copy.withUTF8 { feedLine($0, emit) }
    }

    /// End of stream: decodes a last unterminated line and emits the epoch being assembled.
    public mutating func flush(_ emit: (Fix) -> Void) {
        if let line = lines.takePartialLine() {
            line.withUnsafeBufferPointer { feedLine($0, emit) }
        }
        finish(emit)
    }

    public mutating func flush() -> [Fix] {
        var out: [Fix] = []
        flush { out.append($0) }
        return out
    }

    private mutating func handle(_ message: GpsdMessage, _ emit: (Fix) -> Void) {
        switch message {
        case .version(let r, _, _): release = r
        case .devices(let d): devices = d
        case .error(let m): lastError = m
        case .watch: break
        case .other: stats.otherClass += 1
        case .sky(let s):
            stats.sky += 1
            pendingSky = s
        case .tpv(let t):
            stats.tpv += 1
            guard t.mode >= 2 else { stats.tpvNoFix += 1; return }
            guard let time = t.time else { stats.tpvWithoutTime += 1; return }
            guard t.latitude != nil, t.longitude != nil else { stats.tpvWithoutPosition += 1; return }
            if let p = pending, p.time == time {
                pending = p.merged(with: t)
            } else {
                finish(emit)
                pending = t
            }
        }
    }

    private mutating func finish(_ emit: (Fix) -> Void) {
        guard let t = pending, let time = t.time, let lat = t.latitude, let lon = t.longitude else { return }
        pending = nil
        let sky = pendingSky
        pendingSky = nil
        let fix = Fix(time: time, latitude: lat, longitude: lon, altitude: t.altitude, speed: t.speed, course: t.track,
                      mode: FixMode(rawValue: min(t.mode, 3)) ?? .threeD, quality: t.quality,
                      satellites: sky?.satellitesUsed, hdop: sky?.hdop, horizontalAccuracy: t.horizontalAccuracy)
        if let field = FixBounds.violation(fix) { stats.implausible[field, default: 0] += 1; return }
        stats.fixes += 1
        emit(fix)
    }
}
