/// The fast path of `WorkoutFile.decode`: the top-level object is parsed member by member and
/// the `points` array straight into `TrackPoint`s, without building a JSON value per point (an
/// export of a 24-hour workout reads 86,400 of them: the JSON tree cost ~5x the whole decode).
/// Anything this path does not expect (a point that is not a flat array of numbers, strings and
/// nulls, more than 17 fields, a damaged point, a repeated `points` key, invalid JSON) makes it
/// return nil, and the caller decodes the file the general way, so results and errors are the
/// same as before for every input (`WorkoutFileTests` compares both paths).
extension WorkoutFile {
    /// A point's fields as the general decoder sees them: a number, a string, or neither.
    private struct PointFields {
        static let capacity = 17
        var number = InlineArray<17, Double>(repeating: 0)
        /// 0: null (or another value), 1: number, 2: string.
        var kind = InlineArray<17, UInt8>(repeating: 0)
        var rejection: RejectionReason?
        var quality: FixQuality?
        var count = 0

        func double(_ k: Int) -> Double? { k < count && kind[k] == 1 ? number[k] : nil }
        /// `JSON.intValue`: integral and in range.
        func int(_ k: Int) -> Int? {
            guard let d = double(k), d.rounded() == d, Swift.abs(d) < 9.0e15 else { return nil }
            return Int(d)
        }
    }

    static func decodeFast(_ bytes: [UInt8]) -> (top: JSON, points: [TrackPoint])? {
        bytes.withUnsafeBufferPointer { decodeFast($0).map { ($0.top, $0.points) } }
    }

    /// `decodeFast` of bytes anywhere (a mapped file), keeping the points `thinning` says;
    /// `thinning` also hears how far the parser has read.
    static func decodeFast(_ buf: UnsafeBufferPointer<UInt8>, thinning: Thinning? = nil) -> (top: JSON, points: [TrackPoint], every: Int)? {
        var p = JSONParser(buf)
        do {
            p.skipSpace()
            guard p.i < buf.count, buf[p.i] == UInt8(ascii: "{") else { return nil }
            p.i += 1
            var obj = JSONObject()
            var points: [TrackPoint]?
            var every = 1
            p.skipSpace()
            if p.i < buf.count, buf[p.i] == UInt8(ascii: "}") { return nil }
            while true {
                p.skipSpace()
                guard p.i < buf.count, buf[p.i] == UInt8(ascii: "\"") else { return nil }
                let key = try p.string()
                p.skipSpace()
                guard p.i < buf.count, buf[p.i] == UInt8(ascii: ":") else { return nil }
                p.i += 1
                p.skipSpace()
                if key == "points" {
                    every = thinning?.every(pointCount: obj["summary"]?["pointCount"]?.intValue, bytes: buf.count) ?? 1
                    guard points == nil, let parsed = try decodePoints(&p, every: every, consumed: thinning?.consumed) else { return nil }
                    points = parsed
                } else {
                    obj[key] = try p.value(depth: 1)
                }
                p.skipSpace()
                guard p.i < buf.count else { return nil }
                if buf[p.i] == UInt8(ascii: ",") { p.i += 1; continue }
                if buf[p.i] == UInt8(ascii: "}") { p.i += 1; break }
                return nil
            }
            p.skipSpace()
            guard p.i == buf.count, let points else { return nil }
            return (.object(obj), points, every)
        } catch {
            return nil
        }
    }

    static let rejections: [([UInt8], RejectionReason)] = RejectionReason.allCases.map { (Array($0.rawValue.utf8), $0) }
    static let qualities: [([UInt8], FixQuality)] = FixQuality.allCases.map { (Array($0.rawValue.utf8), $0) }

    /// A string that names an enum case, matched on its bytes (no String is made): nil when it
    /// names none, as `init(rawValue:)` gives. A string with an escape goes the general way.
    private static func enumString<E>(_ p: inout JSONParser, _ table: [([UInt8], E)]) throws -> E? {
        let b = p.b
        let start = p.i + 1
        var e = start
        while e < b.count, b[e] != UInt8(ascii: "\""), b[e] != UInt8(ascii: "\\"), b[e] >= 0x20, b[e] < 0x80 { e += 1 }
        guard e < b.count, b[e] == UInt8(ascii: "\"") else {
            let s = try p.string()
            return table.first { String(decoding: $0.0, as: UTF8.self) == s }?.1
        }
        p.i = e + 1
        let n = e - start
        for (name, value) in table where name.count == n {
            var k = 0
            while k < n, name[k] == b[start + k] { k += 1 }
            if k == n { return value }
        }
        return nil
    }

    /// A plain decimal (`-12.345`) read in one pass, the same value as `JSONParser.number`
    /// (Clinger's fast path of `parseSimpleDecimal`); anything else (exponent, leading zero,
    /// more than 16 digits) is read by `JSONParser.number` from the start.
    @inline(__always)
    private static func number(_ p: inout JSONParser) throws -> Double {
        let b = p.b
        let start = p.i
        var i = start
        let negative = b[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fraction = 0
        let intStart = i
        while i < b.count, isDigit(b[i]) { mantissa = mantissa &* 10 &+ UInt64(b[i] &- 48); digits += 1; i += 1 }
        var simple = digits > 0 && !(b[intStart] == UInt8(ascii: "0") && digits > 1)
        if simple, i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            let f0 = i
            while i < b.count, isDigit(b[i]) { mantissa = mantissa &* 10 &+ UInt64(b[i] &- 48); i += 1 }
            fraction = i - f0
            digits += fraction
            if fraction == 0 { simple = false }
        }
        if simple, i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") { simple = false }
        guard simple, digits <= 16, mantissa <= 1 << 53, fraction <= 22 else { return try p.number() }
        p.i = i
        let value = Double(mantissa) / fastPowersOfTen[fraction]
        return negative ? -value : value
    }

    private static let fastPowersOfTen: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                                    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]

    /// The `points` array at the parser's position, or nil when a point is not of the plain shape.
    /// Every `every`-th point is kept (the first and the last always); `consumed` hears the
    /// parser's offset every 65,536 points.
    private static func decodePoints(_ p: inout JSONParser, every: Int = 1, consumed: ((Int) -> Void)? = nil) throws -> [TrackPoint]? {
        let b = p.b
        guard p.i < b.count, b[p.i] == UInt8(ascii: "[") else { return nil }
        p.i += 1
        var out: [TrackPoint] = []
        out.reserveCapacity(b.count / 96 / every + 1)
        var index = 0
        var skipped: TrackPoint?
        p.skipSpace()
        if p.i < b.count, b[p.i] == UInt8(ascii: "]") { p.i += 1; return out }
        var f = PointFields()
        while true {
            p.skipSpace()
            guard p.i < b.count, b[p.i] == UInt8(ascii: "[") else { return nil }
            p.i += 1
            f.count = 0
            f.rejection = nil
            f.quality = nil
            p.skipSpace()
            if p.i < b.count, b[p.i] == UInt8(ascii: "]") { return nil }
            while true {
                guard f.count < PointFields.capacity else { return nil }
                p.skipSpace()
                guard p.i < b.count else { return nil }
                let c = b[p.i]
                let k = f.count
                if c == UInt8(ascii: "n") {
                    try p.literal("null")
                    f.kind[k] = 0
                } else if c == UInt8(ascii: "\"") {
                    f.kind[k] = 2
                    if k == 13 { f.rejection = try enumString(&p, WorkoutFile.rejections) }
                    else if k == 14 { f.quality = try enumString(&p, WorkoutFile.qualities) }
                    else { _ = try p.string() }
                } else if c == UInt8(ascii: "-") || isDigit(c) {
                    f.number[k] = try number(&p)
                    f.kind[k] = 1
                } else {
                    return nil
                }
                f.count += 1
                p.skipSpace()
                guard p.i < b.count else { return nil }
                if b[p.i] == UInt8(ascii: ",") { p.i += 1; continue }
                if b[p.i] == UInt8(ascii: "]") { p.i += 1; break }
                return nil
            }
            guard f.count >= 14, let t = f.double(0), let lat = f.double(1), let lon = f.double(2),
                  let m = f.int(6), let mode = FixMode(rawValue: m), let seg = f.int(12) else { return nil }
            let fix = Fix(time: t, latitude: lat, longitude: lon, altitude: f.double(3), speed: f.double(4),
                          course: f.double(5), mode: mode, quality: f.count > 14 ? f.quality : nil,
                          satellites: f.int(8), hdop: f.double(9), horizontalAccuracy: f.double(7),
                          heartRate: f.int(10), cadence: f.int(11),
                          power: f.count > 15 ? f.int(15) : nil, temperature: f.count > 16 ? f.int(16) : nil)
            let point = TrackPoint(fix: fix, rejection: f.rejection, segment: seg)
            if every == 1 || index % every == 0 { out.append(point); skipped = nil } else { skipped = point }
            index += 1
            if index & 0xFFFF == 0 { consumed?(p.i) }
            p.skipSpace()
            guard p.i < b.count else { return nil }
            if b[p.i] == UInt8(ascii: ",") { p.i += 1; continue }
            if b[p.i] == UInt8(ascii: "]") {
                p.i += 1
                if let skipped { out.append(skipped) }
                return out
            }
            return nil
        }
    }
}

extension WorkoutFile {
    /// How a page reads a workout of millions of points: every `every`-th point (the first and
    /// the last always), at most `maxPoints` of them, so its memory stays bounded whatever the
    /// file's size; `consumed` hears how far the decoder has read (the shell lets go of a
    /// mapped file's pages behind it).
    public struct Thinning: Sendable {
        public var maxPoints: Int
        public var consumed: (@Sendable (Int) -> Void)?

        public init(maxPoints: Int, consumed: (@Sendable (Int) -> Void)? = nil) {
            self.maxPoints = maxPoints; self.consumed = consumed
        }

        /// The stride for a file of `pointCount` points (its summary's), or, without it, of
        /// `bytes` bytes at the smallest a point takes (~64 bytes).
        public func every(pointCount: Int?, bytes: Int) -> Int {
            let n = pointCount ?? bytes / 64
            return max(1, (n + maxPoints - 1) / max(1, maxPoints))
        }
    }

    /// A workout read for drawing (`Thinning`): the summary, events and series whole, the
    /// points thinned; `every` is the stride taken (1: every point). Nil when the fast path
    /// cannot read the file (a hand-made or damaged file): the caller decodes it whole (its
    /// bytes behind the decoder may be gone) and thins it with `thinned`.
    public static func decodeThinned(_ buf: UnsafeBufferPointer<UInt8>, thinning: Thinning) throws(DecodeError) -> (workout: Workout, every: Int)? {
        guard let (j, points, every) = decodeFast(buf, thinning: thinning) else { return nil }
        guard let f = j["format"]?.stringValue else { throw .wrongFormat("none") }
        guard f == format else { throw .wrongFormat(f) }
        guard let s = j["summary"], let summary = WorkoutSummary(json: s) else { throw .badSummary }
        return (workout(j, summary: summary, points: points), every)
    }

    /// `w` with every `every`-th point (and the last), at most `maxPoints`.
    public static func thinned(_ w: Workout, maxPoints: Int) -> (workout: Workout, every: Int) {
        let every = Thinning(maxPoints: maxPoints).every(pointCount: w.points.count, bytes: 0)
        guard every > 1 else { return (w, 1) }
        var out = w
        let last = w.points.count - 1
        out.points = w.points.indices.filter { $0 % every == 0 || $0 == last }.map { w.points[$0] }
        return (out, every)
    }
}
