/// A growing UTF-8 byte buffer for writing GPX and TCX quickly: literal markup, escaped text,
/// integers, fixed-decimal numbers and ISO-8601 UTC times are appended in place, without a
/// `String` per value. `appendFixed` gives exactly the text of `formatFixed(_:decimals:)`.
///
/// The bytes live in a buffer of our own, written through its pointer: each append checks its
/// room once (`reserve`) and writes in place; an `Array.append` per byte, as before, cost about
/// ten times as much (a 24-hour GPX export writes 11 MB, a TCX 32 MB). Copies of an output share
/// the buffer until one of them writes (copy on write, like an array).
public struct XMLOutput: Sendable {
    /// The bytes; only written while uniquely referenced (`reserve`), so sharing is safe.
    private final class Buffer: @unchecked Sendable {
        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int
        init(capacity: Int) {
            self.capacity = max(capacity, 64)
            base = .allocate(capacity: self.capacity)
        }
        deinit { base.deallocate() }
    }

    private var buffer: Buffer
    private var used = 0

    // The civil date of the last day written ("2026-11-21T"), to skip date arithmetic.
    private var cachedDay = Int.min
    private var cachedDate: (UInt64, UInt64) = (0, 0)
    private var cachedDateCount = 0
    /// The same for `appendPiece` writers (`ByteWriter.utcTime`).
    private var pieceDay = UTCDayText()

    public init(capacity: Int = 4096) {
        buffer = Buffer(capacity: capacity)
    }

    /// What has been written.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: buffer.base, count: used)) }

    /// What has been written; the output is empty afterwards.
    public mutating func takeBytes() -> [UInt8] {
        defer { buffer = Buffer(capacity: 64); used = 0 }
        return bytes
    }

    /// Room for `n` more bytes: where to write them.
    @inline(__always)
    private mutating func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if used + n > buffer.capacity || !isKnownUniquelyReferenced(&buffer) { grow(n) }
        return buffer.base + used
    }

    @inline(never)
    private mutating func grow(_ n: Int) {
        let bigger = Buffer(capacity: max(buffer.capacity * 2, used + n))
        bigger.base.update(from: buffer.base, count: used)
        buffer = bigger
    }

    /// Appends markup as is.
    public mutating func append(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        reserve(n).update(from: s.utf8Start, count: n)
        used += n
    }

    private mutating func appendByte(_ b: UInt8) {
        reserve(1).pointee = b
        used += 1
    }

    private mutating func appendUTF8(_ s: String) {
        var s = s
        s.withUTF8 { u in
            reserve(u.count).update(from: u.baseAddress!, count: u.count)
            used += u.count
        }
    }

    /// Writes one piece (a track point) of at most `capacity` bytes straight into the buffer
    /// through a `ByteWriter` (room checked once for the piece): what the GPX writer does per
    /// point. The writer's `utcTime` takes the day cache passed along.
    mutating func appendPiece(capacity: Int, _ body: (inout ByteWriter, inout UTCDayText) -> Void) {
        let p = reserve(capacity)
        var w = ByteWriter(UnsafeMutableBufferPointer(start: p, count: capacity))
        body(&w, &pieceDay)
        used += w.count
    }

    /// Appends text escaped for element content or a double-quoted attribute value
    /// (`& < > "` and `'`; other control characters that XML forbids are dropped).
    public mutating func appendEscaped(_ s: String) {
        for u in s.utf8 {
            switch u {
            case UInt8(ascii: "&"): append("&amp;")
            case UInt8(ascii: "<"): append("&lt;")
            case UInt8(ascii: ">"): append("&gt;")
            case UInt8(ascii: "\""): append("&quot;")
            case UInt8(ascii: "'"): append("&apos;")
            case 0x09, 0x0A, 0x0D: appendByte(u)
            case 0..<0x20: break
            default: appendByte(u)
            }
        }
    }

    /// Appends a decimal integer.
    public mutating func appendInt(_ v: Int) {
        let p = reserve(21)
        if v < 0 {
            p.pointee = UInt8(ascii: "-")
            used += 1 + XMLOutput.writeDigits(UInt(v.magnitude), minimumWidth: 1, to: p + 1)
        } else {
            used += XMLOutput.writeDigits(UInt(v), minimumWidth: 1, to: p)
        }
    }

    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18]

    /// Appends `value` with exactly `decimals` digits after the point (0...18), never in
    /// exponent notation; the same text as `formatFixed(value, decimals:)`.
    public mutating func appendFixed(_ value: Double, decimals: Int) {
        guard value.isFinite else { appendByte(UInt8(ascii: "0")); return }
        let d = min(max(decimals, 0), 18)
        let scale = XMLOutput.powersOfTen[d]
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        if scaled >= 9.0e18 {
            appendUTF8(formatFixed(value, decimals: d))
            return
        }
        let n = UInt64(scaled)
        let unit = UInt64(scale)
        let p = reserve(42)
        var k = 0
        if value < 0 && n != 0 { p.pointee = UInt8(ascii: "-"); k = 1 }
        k += XMLOutput.writeDigits(UInt(n / unit), minimumWidth: 1, to: p + k)
        if d > 0 {
            p[k] = UInt8(ascii: ".")
            k += 1 + XMLOutput.writeDigits(UInt(n % unit), minimumWidth: d, to: p + k + 1)
        }
        used += k
    }

    /// Appends `seconds` since 1970 as `YYYY-MM-DDTHH:MM:SSZ`, with `.mmm` when the time,
    /// rounded to the millisecond, is not a whole second.
    public mutating func appendTime(_ seconds: Double) {
        guard seconds.isFinite, abs(seconds) < 1e14 else { append("1970-01-01T00:00:00Z"); return }
        let ms = Int64((seconds * 1000).rounded(.toNearestOrAwayFromZero))
        var whole = ms / 1000
        var frac = ms % 1000
        if frac < 0 { frac += 1000; whole -= 1 }
        var day = whole / 86400
        var sod = whole % 86400
        if sod < 0 { sod += 86400; day -= 1 }
        if Int(day) != cachedDay {
            // "YYYY-MM-DDT": at most 14 bytes (the year has at most 7 digits below 1e14 s).
            let c = CivilTime.civilFromDays(Int(day))
            var date: (UInt64, UInt64) = (0, 0)
            cachedDateCount = withUnsafeMutableBytes(of: &date) { raw in
                let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                var k = XMLOutput.writeDigits(UInt(max(c.year, 0)), minimumWidth: 4, to: p)
                p[k] = UInt8(ascii: "-"); k += 1
                k += XMLOutput.writeDigits(UInt(c.month), minimumWidth: 2, to: p + k)
                p[k] = UInt8(ascii: "-"); k += 1
                k += XMLOutput.writeDigits(UInt(c.day), minimumWidth: 2, to: p + k)
                p[k] = UInt8(ascii: "T")
                return k + 1
            }
            cachedDate = date
            cachedDay = Int(day)
        }
        let date = cachedDate, count = cachedDateCount
        let p = reserve(16)
        withUnsafeBytes(of: date) { raw in p.update(from: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count) }
        used += count
        appendClock(sod, frac)
    }

    /// "HH:MM:SS" (seconds of the day), ".mmm" when `frac` is not 0, then "Z".
    private mutating func appendClock(_ sod: Int64, _ frac: Int64) {
        let p = reserve(13)
        _ = XMLOutput.writeDigits(UInt(sod / 3600), minimumWidth: 2, to: p)
        p[2] = UInt8(ascii: ":")
        _ = XMLOutput.writeDigits(UInt(sod % 3600 / 60), minimumWidth: 2, to: p + 3)
        p[5] = UInt8(ascii: ":")
        _ = XMLOutput.writeDigits(UInt(sod % 60), minimumWidth: 2, to: p + 6)
        var k = 8
        if frac != 0 {
            p[8] = UInt8(ascii: ".")
            k = 9 + XMLOutput.writeDigits(UInt(frac), minimumWidth: 3, to: p + 9)
        }
        p[k] = UInt8(ascii: "Z")
        used += k + 1
    }

    /// Writes `v` in decimal at `p`, left-padded with zeros to `minimumWidth` digits (at most
    /// 20 digits in all); returns how many bytes it wrote.
    @inline(__always)
    private static func writeDigits(_ v: UInt, minimumWidth: Int, to p: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 1
        var rest = v / 10
        while rest > 0 { count += 1; rest /= 10 }
        let width = max(count, min(minimumWidth, 20))
        var k = width
        rest = v
        while k > 0 {
            k -= 1
            p[k] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        return width
    }
}
