#if canImport(Glibc)
import Glibc
#endif

/// One assembled epoch: the `Fix` plus the two altitude parts an NMEA GGA reports separately,
/// so a consumer (or the gpsd oracle test) can tell HAE from MSL.
public struct NMEAFix: Sendable, Equatable {
    /// `fix.altitude` is height above the ellipsoid (MSL + geoid separation) when the GGA carried
    /// a geoid separation, otherwise the MSL altitude.
    public var fix: Fix
    /// GGA field 9: altitude above mean sea level, metres.
    public var altitudeMSL: Double?
    /// GGA field 11: geoid separation (ellipsoid - MSL), metres, when the receiver sent one.
    public var geoidSeparation: Double?

    public init(fix: Fix, altitudeMSL: Double? = nil, geoidSeparation: Double? = nil) {
        self.fix = fix
        self.altitudeMSL = altitudeMSL
        self.geoidSeparation = geoidSeparation
    }
}

/// Streaming NMEA 0183 decoder: feed it raw bytes in chunks of any size, it calls back with one
/// `NMEAFix` per epoch (all sentences carrying the same UTC time of day, plus the untimed
/// sentences — VTG, GSA, GSV — that follow them).
///
/// Design for throughput: lines are parsed in place in the caller's buffer (only a line split
/// across two chunks is copied, into one reused buffer), fields are byte ranges on the stack,
/// numbers are parsed from bytes; nothing is allocated per sentence.
///
/// Policies (see docs/gps-decoding.md):
/// - A sentence without `*hh` is rejected (`missingChecksum`) unless
///   `Options.acceptMissingChecksum`: a line cut short by a dropped read would otherwise decode
///   as a plausible shorter sentence.
/// - An epoch is emitted when a sentence with a different time of day arrives, or on `flush()`.
///   Time going backwards is a new epoch like any other (no reordering, no dropping).
/// - A fix needs a date: from RMC/ZDA in the epoch, else the last date seen. When the time of day
///   falls more than 12 h below the time the date was last confirmed, the date is advanced one day
///   (midnight crossing in a GGA-only stream). Epochs before any date are counted as `undated`.
/// - Dates are the receiver's own: no GPS week rollover correction (see `GPSWeekRollover`).
public struct NMEADecoder: Sendable {
    public struct Options: Sendable, Equatable {
        /// Accept sentences that end without a `*hh` checksum (default false: reject and count).
        public var acceptMissingChecksum: Bool
        /// Lines longer than this many bytes are dropped whole (`tooLong`); at most this much of a
        /// line is ever buffered.
        public var maxLineLength: Int

        public init(acceptMissingChecksum: Bool = false, maxLineLength: Int = 100 * 1024) {
            self.acceptMissingChecksum = acceptMissingChecksum
            self.maxLineLength = max(16, maxLineLength)
        }
    }

    /// Counters for everything fed. Every non-blank line lands in exactly one of `sentences`,
    /// `comments`, `notNMEA`, `badChecksum`, `missingChecksum`, `tooLong`, `malformed` (a line with
    /// junk before a `$` adds one `noise` as well; a glued `$...$...` line counts each part).
    public struct Stats: Sendable, Equatable {
        /// Well-formed sentences with a valid checksum (including unsupported and proprietary ones).
        public var sentences = 0
        /// Sentences of a supported type (GGA RMC GLL VTG GSA GSV ZDA) that were decoded.
        public var decoded = 0
        /// Fixes emitted.
        public var fixes = 0
        public var badChecksum = 0
        public var missingChecksum = 0
        public var tooLong = 0
        /// Bad structure: bytes outside printable ASCII, a broken `*hh`, too few fields, or a
        /// required field that does not parse (e.g. a time of `25xxxx`).
        public var malformed = 0
        /// Valid sentences of a type this decoder does not use (DPT, HDG, TXT, GSV-less AIS `!`...).
        public var unsupported = 0
        /// Valid `$P...` proprietary sentences (skipped).
        public var proprietary = 0
        /// `#` comment lines (skipped).
        public var comments = 0
        /// Non-blank lines with no `$` at all.
        public var notNMEA = 0
        /// Lines where bytes before a `$` were skipped to resynchronise.
        public var noise = 0
        /// Epochs that ended without a usable fix (no valid position, or mode below 2D).
        public var noFixEpochs = 0
        /// Epochs with a fix but no date known yet (no RMC/ZDA so far): not emitted.
        public var undatedEpochs = 0

        public init() {}

        /// Epochs rejected for a value outside `FixBounds`, by field.
        public var implausible: [String: Int] = [:]

        /// Lines refused for a fault in the data itself.
        public var rejected: Int { badChecksum + missingChecksum + tooLong + malformed + notNMEA }

        /// Rejected input by reason, as `gps.rejectedInput` shows it (zero counts left out): the
        /// one set of NMEA keys, for a raw NMEA source and NMEA lines on the feed socket alike.
        public var rejectionCounts: [String: Int] {
            var out = ["nmea_bad_checksum": badChecksum, "nmea_missing_checksum": missingChecksum, "nmea_too_long": tooLong,
                       "nmea_malformed": malformed, "nmea_not_nmea": notNMEA]
            for (field, n) in implausible { out["nmea_implausible_" + field] = n }
            return out.filter { $0.value > 0 }
        }
    }

    public let options: Options
    public private(set) var stats = Stats()

    private var lines: LineFramer
    private var epoch = Epoch()
    private var date = DateState()
    private var lastMode: FixMode?

    public init(options: Options = Options()) {
        self.options = options
        self.lines = LineFramer(maxLine: options.maxLineLength)
    }

    // MARK: - Feeding

    /// Decodes `bytes` (any chunk of the stream) and calls `emit` for every completed epoch.
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: (NMEAFix) -> Void) {
        var framer = lines
        framer.feed(UnsafeRawBufferPointer(bytes)) { (item: LineFramer.Item) in
            switch item {
            case .line(let line): processLine(line, 0, line.count, emit)
            case .tooLong: stats.tooLong += 1
            }
        }
        lines = framer
    }

    /// Convenience: decodes `bytes` and returns the fixes completed by them.
    public mutating func feed(_ bytes: [UInt8]) -> [Fix] {
        var out: [Fix] = []
        bytes.withUnsafeBufferPointer { feed($0) { out.append($0.fix) } }
        return out
    }

    /// End of input: decodes a last line without newline and emits the pending epoch.
    public mutating func flush(_ emit: (NMEAFix) -> Void) {
        if let line = lines.takePartialLine() {
            line.withUnsafeBufferPointer { processLine($0, 0, $0.count, emit) }
        }
        finishEpoch(emit)
    }

    public mutating func flush() -> [Fix] {
        var out: [Fix] = []
        flush { out.append($0.fix) }
        return out
    }

    /// Decodes a whole buffer (for benchmarks): sentences with a valid checksum, and fixes.
    public static func decodeAll(_ bytes: UnsafeBufferPointer<UInt8>, options: Options = Options()) -> (sentences: Int, fixes: Int) {
        var d = NMEADecoder(options: options)
        var fixes = 0
        d.feed(bytes) { _ in fixes += 1 }
        d.flush { _ in fixes += 1 }
        return (d.stats.sentences, fixes)
    }

    public static func decodeAll(_ bytes: [UInt8], options: Options = Options()) -> (sentences: Int, fixes: Int) {
        bytes.withUnsafeBufferPointer { decodeAll($0, options: options) }
    }

    // MARK: - Lines

    /// Field boundaries of the sentence being decoded: field k spans `start[k]..<end[k]`
    /// (k = 1 is the first field after the address).
    fileprivate struct Fields {
        let b: UnsafeBufferPointer<UInt8>
        let start: UnsafeMutablePointer<Int>
        let end: UnsafeMutablePointer<Int>
        var count: Int

        @inline(__always) func isEmpty(_ k: Int) -> Bool { k >= count || start[k] == end[k] }
        @inline(__always) func decimal(_ k: Int) -> Double? {
            k < count ? NMEAFieldScanner.decimal(b, start[k], end[k]) : nil
        }
        @inline(__always) func integer(_ k: Int) -> Int? {
            k < count ? NMEAFieldScanner.integer(b, start[k], end[k]) : nil
        }
        @inline(__always) func char(_ k: Int) -> UInt8? {
            k < count && end[k] > start[k] ? b[start[k]] : nil
        }
        func time(_ k: Int) -> Int64? {
            k < count ? NMEAFieldScanner.timeOfDay(b, start[k], end[k]) : nil
        }
        /// Latitude at k, k+1 and longitude at k+2, k+3.
        func position(_ k: Int) -> (Double, Double)? {
            guard k + 3 < count,
                  let lat = NMEAFieldScanner.angle(b, start[k], end[k], hemisphere: start[k + 1], end[k + 1],
                                                   positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"), maxDegrees: 90),
                  let lon = NMEAFieldScanner.angle(b, start[k + 2], end[k + 2], hemisphere: start[k + 3], end[k + 3],
                                                   positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"), maxDegrees: 180)
            else { return nil }
            return (lat, lon)
        }
    }

    static let maxFields = 40

    private mutating func processLine(_ b: UnsafeBufferPointer<UInt8>, _ lineStart: Int, _ lineEnd: Int,
                                      _ emit: (NMEAFix) -> Void) {
        var end = lineEnd
        while end > lineStart, b[end - 1] == 0x0D || b[end - 1] == 0x20 || b[end - 1] == 0x09 || b[end - 1] == 0 { end -= 1 }
        var s = lineStart
        while s < end, b[s] == 0x20 || b[s] == 0x09 { s += 1 }
        guard s < end else { return }  // blank line
        if b[s] == UInt8(ascii: "#") { stats.comments += 1; return }
        if b[s] != UInt8(ascii: "$") && b[s] != UInt8(ascii: "!") {
            // Resynchronise on the first '$' (a stream opened mid-sentence, line noise).
            var k = s + 1
            while k < end, b[k] != UInt8(ascii: "$") { k += 1 }
            guard k < end else { stats.notNMEA += 1; return }
            stats.noise += 1
            s = k
        }
        // A '$' inside the line means a sentence was cut and the next one glued on: the fragment
        // before it is malformed, the rest is decoded on its own.
        if s + 1 < end, let base = b.baseAddress {
            var from = s + 1
            while from < end, let hit = memchr(base + from, Int32(UInt8(ascii: "$")), end - from) {
                let k = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                stats.malformed += 1
                s = k
                from = k + 1
            }
        }
        processSentence(b, s, end, emit)
    }

    private mutating func processSentence(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ end: Int,
                                          _ emit: (NMEAFix) -> Void) {
        // Checksum: '*hh' must close the sentence.
        var bodyEnd = end
        var expected: UInt8?
        if end - s >= 4, b[end - 3] == UInt8(ascii: "*") {
            guard let hi = NMEADecoder.hex(b[end - 2]), let lo = NMEADecoder.hex(b[end - 1]) else {
                stats.malformed += 1
                return
            }
            expected = hi << 4 | lo
            bodyEnd = end - 3
        }
        // One pass over the body: the XOR checksum, the characters (printable ASCII, no '*'),
        // and where the commas are (the first NMEADecoder.maxFields of them).
        let ok = withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * NMEADecoder.maxFields) { tmp -> Bool? in
            let starts = tmp.baseAddress!
            let ends = starts + NMEADecoder.maxFields
            let commas = ends + NMEADecoder.maxFields
            let (x, bad, commaCount) = NMEADecoder.scanBody(b.baseAddress!, from: s + 1, to: bodyEnd, commas: commas)
            if bad { stats.malformed += 1; return nil }
            if let expected {
                guard expected == x else { stats.badChecksum += 1; return nil }
            } else if !options.acceptMissingChecksum {
                stats.missingChecksum += 1
                return nil
            }
            // Address field.
            let comma = commaCount > 0 ? commas[0] : bodyEnd
            let addrLen = comma - (s + 1)
            guard addrLen >= 2 else { stats.malformed += 1; return nil }
            stats.sentences += 1
            if b[s] == UInt8(ascii: "!") { stats.unsupported += 1; return nil }
            if b[s + 1] == UInt8(ascii: "P") { stats.proprietary += 1; return nil }
            guard addrLen == 5 || addrLen == 6, comma < bodyEnd else { stats.unsupported += 1; return nil }
            let t0 = UInt32(b[comma - 3]), t1 = UInt32(b[comma - 2]), t2 = UInt32(b[comma - 1])
            let type = t0 << 16 | t1 << 8 | t2
            let kind: SentenceKind
            switch type {
            case NMEADecoder.code("GGA"): kind = .gga
            case NMEADecoder.code("RMC"): kind = .rmc
            case NMEADecoder.code("GLL"): kind = .gll
            case NMEADecoder.code("VTG"): kind = .vtg
            case NMEADecoder.code("GSA"): kind = .gsa
            case NMEADecoder.code("GSV"): kind = .gsv
            case NMEADecoder.code("ZDA"): kind = .zda
            default: stats.unsupported += 1; return nil
            }
            // Field k (k >= 1) runs from the comma before it to the next one, or the end of the
            // body; at most NMEADecoder.maxFields fields (the address is field 0).
            let count = min(commaCount + 1, NMEADecoder.maxFields)
            starts[0] = s + 1
            ends[0] = comma
            var f = 1
            while f < count {
                starts[f] = commas[f - 1] + 1
                ends[f] = f < commaCount ? commas[f] : bodyEnd
                f += 1
            }
            return decode(kind, Fields(b: b, start: starts, end: ends, count: count), emit)
        }
        guard let ok else { return }
        if ok { stats.decoded += 1 } else { stats.malformed += 1 }
    }

    /// One pass over a sentence's body `p[from..<to]`: its XOR checksum, whether a byte is
    /// outside printable ASCII or is a `*` (`bad`), and where its first `maxFields` commas are
    /// (into `commas`). Eight bytes at a time (SWAR: a sentence is ~70 bytes, and a byte at a time
    /// was a fifth of a 24 h log's decode), the tail byte by byte; the same answers as a byte
    /// loop for every input (`NMEADecoderTests`).
    @inline(__always)
    static func scanBody(_ p: UnsafePointer<UInt8>, from: Int, to end: Int,
                         commas: UnsafeMutablePointer<Int>) -> (checksum: UInt8, bad: Bool, commas: Int) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        var x64: UInt64 = 0
        var badBits: UInt64 = 0
        var count = 0
        var k = from
        let raw = UnsafeRawPointer(p)
        while k + 8 <= end {
            let w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: k, as: UInt64.self))
            x64 ^= w
            // A high bit set (> 0x7E includes 0x80...), a byte of 0x7F, a byte below 0x20 or a '*':
            // each test exact per byte (no borrow between bytes: every byte's high bit is masked first).
            let w7 = w & low7
            let below20 = ~(w7 &+ (0x80 - 0x20) &* ones) & high           // bytes (low 7 bits) < 0x20
            let is7F = (w7 &+ ones) & high                                  // low 7 bits == 0x7F
            let star = w ^ (0x2A &* ones)
            let isStar = ~(((star & low7) &+ low7) | star | low7)           // bytes == '*'
            badBits |= w | below20 | is7F | isStar
            let comma = w ^ (0x2C &* ones)
            var isComma = ~(((comma & low7) &+ low7) | comma | low7)        // bytes == ','
            while isComma != 0, count < NMEADecoder.maxFields {
                commas[count] = k + isComma.trailingZeroBitCount >> 3
                count += 1
                isComma &= isComma &- 1
            }
            k += 8
        }
        var bad = badBits & high != 0
        var x = UInt8(truncatingIfNeeded: x64) ^ UInt8(truncatingIfNeeded: x64 >> 8) ^ UInt8(truncatingIfNeeded: x64 >> 16)
            ^ UInt8(truncatingIfNeeded: x64 >> 24) ^ UInt8(truncatingIfNeeded: x64 >> 32) ^ UInt8(truncatingIfNeeded: x64 >> 40)
            ^ UInt8(truncatingIfNeeded: x64 >> 48) ^ UInt8(truncatingIfNeeded: x64 >> 56)
        while k < end {
            let c = p[k]
            bad = bad || c < 0x20 || c > 0x7E || c == UInt8(ascii: "*")
            x ^= c
            if c == UInt8(ascii: ","), count < NMEADecoder.maxFields {
                commas[count] = k
                count += 1
            }
            k += 1
        }
        return (x, bad, count)
    }

    @inline(__always) private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    private static func code(_ s: StaticString) -> UInt32 {
        let p = s.utf8Start
        return UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
    }

    private enum SentenceKind { case gga, rmc, gll, vtg, gsa, gsv, zda }

    // MARK: - Sentences

    /// Returns false when the sentence is malformed (too few fields, unparseable required field).
    private mutating func decode(_ kind: SentenceKind, _ f: Fields, _ emit: (NMEAFix) -> Void) -> Bool {
        switch kind {
        case .gga:
            // 1 time, 2-5 lat/lon, 6 quality, 7 sats, 8 hdop, 9 alt, 10 M, 11 geoid sep, 12 M, 13 age, 14 station
            guard f.count >= 10 else { return false }
            guard let quality = f.integer(6) ?? (f.isEmpty(6) ? 0 : nil) else { return false }
            if !beginSentence(f, timeField: 1, emit) { return false }
            epoch.ggaQuality = quality
            if let n = f.integer(7) { epoch.ggaSatellites = n }
            if let h = f.decimal(8) { epoch.ggaHDOP = h }
            if quality > 0 {
                if let (lat, lon) = f.position(2) { epoch.latitude = lat; epoch.longitude = lon }
                epoch.altitudeMSL = f.decimal(9)
                epoch.geoidSeparation = f.decimal(11)
            }
        case .rmc:
            // 1 time, 2 status, 3-6 lat/lon, 7 knots, 8 course, 9 ddmmyy, 10-11 magvar, 12 mode, 13 nav status
            guard f.count >= 10 else { return false }
            if !beginSentence(f, timeField: 1, emit) { return false }
            if !f.isEmpty(9) {
                guard f.end[9] - f.start[9] == 6, let dmy = f.integer(9) else { return false }
                let year = dmy % 100
                guard let day = NMEADecoder.dayNumber(year: year < 80 ? 2000 + year : 1900 + year,
                                                      month: dmy / 100 % 100, day: dmy / 10000) else { return false }
                epoch.day = day
            }
            let valid = f.char(2) == UInt8(ascii: "A") && f.char(12) != UInt8(ascii: "N")
            epoch.statusValid = valid
            if let m = f.char(12) { epoch.modeIndicator = m }
            if valid {
                if let (lat, lon) = f.position(3) { epoch.latitude = lat; epoch.longitude = lon }
                if let kn = f.decimal(7) { epoch.speed = kn * NMEADecoder.knot }
                if let c = f.decimal(8) { epoch.course = c }
            }
        case .gll:
            // 1-4 lat/lon, 5 time, 6 status, 7 mode
            guard f.count >= 7 else { return false }
            if !beginSentence(f, timeField: 5, emit) { return false }
            let valid = f.char(6) == UInt8(ascii: "A") && f.char(7) != UInt8(ascii: "N")
            epoch.statusValid = valid
            if let m = f.char(7) { epoch.modeIndicator = m }
            if valid, let (lat, lon) = f.position(1) { epoch.latitude = lat; epoch.longitude = lon }
        case .vtg:
            // 1 course T, 2 'T', 3 course M, 4 'M', 5 knots, 6 'N', 7 km/h, 8 'K', 9 mode
            guard f.count >= 9 else { return false }
            touchEpoch()
            if f.char(9) == UInt8(ascii: "N") || f.char(9) == UInt8(ascii: "E") { break }
            if let kn = f.decimal(5) {
                epoch.speed = kn * NMEADecoder.knot
            } else if let kmh = f.decimal(7) {
                epoch.speed = kmh / 3.6
            } else {
                break  // all-empty VTG: no data
            }
            if let c = f.decimal(1) { epoch.course = c }
        case .gsa:
            // 1 A/M, 2 fix type, 3-14 PRNs, 15 PDOP, 16 HDOP, 17 VDOP, (18 system id)
            guard f.count >= 18 else { return false }
            touchEpoch()
            if let m = f.integer(2), (1...3).contains(m) { epoch.gsaMode = max(epoch.gsaMode ?? 0, m) }
            var used = 0
            for k in 3...14 where !f.isEmpty(k) { used += 1 }
            epoch.gsaSatellites = (epoch.gsaSatellites ?? 0) + used
            if let h = f.decimal(16) { epoch.gsaHDOP = h }
        case .gsv:
            // Satellites in view: validated, not needed for a Fix.
            guard f.count >= 4, f.integer(1) != nil, f.integer(2) != nil else { return false }
            touchEpoch()
        case .zda:
            // 1 time, 2 day, 3 month, 4 year, 5-6 zone
            guard f.count >= 5 else { return false }
            if !beginSentence(f, timeField: 1, emit) { return false }
            if let d = f.integer(2), let m = f.integer(3), let y = f.integer(4) {
                guard let day = NMEADecoder.dayNumber(year: y, month: m, day: d) else { return false }
                epoch.day = day
            } else if !(f.isEmpty(2) && f.isEmpty(3) && f.isEmpty(4)) {
                return false
            }
        }
        epoch.sentences += 1
        return true
    }

    static let knot = 1852.0 / 3600.0

    static func dayNumber(year: Int, month: Int, day: Int) -> Int? {
        guard (1...12).contains(month), day >= 1, day <= CivilTime.daysInMonth(year: year, month: month),
              (1980...2200).contains(year) else { return nil }
        return CivilTime.daysFromCivil(year: year, month: month, day: day)
    }

    /// A timed sentence: closes the current epoch if its time differs. False if the time field
    /// holds something that is not a time (an empty time field is fine: the sentence joins the
    /// current epoch).
    private mutating func beginSentence(_ f: Fields, timeField k: Int, _ emit: (NMEAFix) -> Void) -> Bool {
        if f.isEmpty(k) { touchEpoch(); return true }
        guard let tod = f.time(k) else { return false }
        // A different time closes the epoch. So does any time after untimed sentences: those
        // (e.g. the all-empty RMC/GGA of a receiver without a fix) belong to no epoch of ours.
        if epoch.active, epoch.timeOfDay != tod {
            finishEpoch(emit)
        }
        epoch.active = true
        epoch.timeOfDay = tod
        return true
    }

    @inline(__always) private mutating func touchEpoch() { epoch.active = true }

    // MARK: - Epochs

    /// What the sentences of one epoch said so far.
    private struct Epoch {
        var active = false
        var sentences = 0
        /// Microseconds since midnight UTC.
        var timeOfDay: Int64?
        /// Days since 1970 from an RMC or ZDA of this epoch.
        var day: Int?
        var latitude: Double?
        var longitude: Double?
        var altitudeMSL: Double?
        var geoidSeparation: Double?
        var speed: Double?
        var course: Double?
        var ggaQuality: Int?
        var ggaSatellites: Int?
        var ggaHDOP: Double?
        var gsaMode: Int?
        var gsaSatellites: Int?
        var gsaHDOP: Double?
        /// RMC/GLL status A (true) or V (false), last one seen.
        var statusValid: Bool?
        /// RMC/GLL FAA mode indicator (NMEA 2.3+).
        var modeIndicator: UInt8?
    }

    /// The date the stream is on and the time of day at which it was last confirmed.
    private struct DateState {
        var day: Int?
        var timeOfDay: Int64 = 0
    }

    private static let halfDay: Int64 = 12 * 3600 * 1_000_000

    private mutating func finishEpoch(_ emit: (NMEAFix) -> Void) {
        let e = epoch
        epoch = Epoch()
        guard e.active, let tod = e.timeOfDay else {
            if e.active { stats.noFixEpochs += 1 }
            return
        }
        // Date: the epoch's own, else the running date (advanced across midnight).
        let day: Int?
        if let d = e.day {
            day = d
            date = DateState(day: d, timeOfDay: tod)
        } else if let d = date.day {
            if tod < date.timeOfDay - NMEADecoder.halfDay {
                day = d + 1
                date = DateState(day: d + 1, timeOfDay: tod)
            } else if tod > date.timeOfDay + NMEADecoder.halfDay {
                day = d - 1  // a late sentence from before midnight; keep the running date
            } else {
                day = d
                date.timeOfDay = tod
            }
        } else {
            day = nil
        }

        // Mode: GSA's, else GGA's quality (3D when it has an altitude), else RMC/GLL status.
        let mode: FixMode?
        if let g = e.gsaMode {
            mode = FixMode(rawValue: g)
        } else if let q = e.ggaQuality {
            mode = q == 0 ? .noFix : (e.altitudeMSL != nil ? .threeD : .twoD)
        } else if let valid = e.statusValid {
            mode = valid ? max(.twoD, lastMode ?? .twoD) : .noFix
        } else {
            mode = nil
        }
        if let mode { lastMode = mode }

        guard let mode, mode >= .twoD, let lat = e.latitude, let lon = e.longitude else {
            stats.noFixEpochs += 1
            return
        }
        guard let day else {
            stats.undatedEpochs += 1
            return
        }
        var altitude = e.altitudeMSL
        if let msl = e.altitudeMSL, let sep = e.geoidSeparation { altitude = msl + sep }
        let quality: FixQuality?
        if let q = e.ggaQuality {
            quality = NMEADecoder.ggaQuality(q)
        } else if let m = e.modeIndicator {
            quality = NMEADecoder.faaQuality(m)
        } else {
            quality = nil
        }
        let fix = Fix(time: Double(day * 86400) + Double(tod) / 1_000_000,
                      latitude: lat, longitude: lon, altitude: altitude,
                      speed: e.speed, course: e.course, mode: mode, quality: quality,
                      satellites: e.ggaSatellites ?? e.gsaSatellites, hdop: e.ggaHDOP ?? e.gsaHDOP)
        if let field = FixBounds.violation(fix) { stats.implausible[field, default: 0] += 1; return }
        stats.fixes += 1
        emit(NMEAFix(fix: fix, altitudeMSL: e.altitudeMSL, geoidSeparation: e.geoidSeparation))
    }

    /// GGA field 6.
    static func ggaQuality(_ q: Int) -> FixQuality? {
        switch q {
        case 0: return .invalid
        case 1: return .gps
        case 2: return .dgps
        case 3: return .pps
        case 4: return .rtkFixed
        case 5: return .rtkFloat
        case 6: return .estimated
        case 7: return .manual
        case 8: return .simulated
        default: return nil
        }
    }

    /// RMC/GLL/VTG FAA mode indicator.
    static func faaQuality(_ m: UInt8) -> FixQuality? {
        switch m {
        case UInt8(ascii: "A"): return .gps
        case UInt8(ascii: "D"), UInt8(ascii: "P"): return .dgps
        case UInt8(ascii: "R"): return .rtkFixed
        case UInt8(ascii: "F"): return .rtkFloat
        case UInt8(ascii: "E"): return .estimated
        case UInt8(ascii: "M"): return .manual
        case UInt8(ascii: "S"): return .simulated
        case UInt8(ascii: "N"): return .invalid
        default: return nil
        }
    }
}
