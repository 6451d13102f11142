/// A growing UTF-8 byte buffer for writing GPX and TCX quickly: literal markup, escaped text,
/// integers, fixed-decimal numbers and ISO-8601 UTC times are appended in place, without a
/// `String` per value; numbers and times are formed by `ByteWriter` (as in saved workouts), so
/// `appendFixed` gives exactly the text of `formatFixed(_:decimals:)`.
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

    /// The civil date of the last day written ("2026-11-21T"), for `ByteWriter.utcTime`.
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

    /// Bytes written and not yet drained.
    public var count: Int { used }

    /// Hands the bytes written so far to `body` and empties the output, keeping its buffer: a
    /// writer that drains every megabyte or so (`GPXWriter.write(_:options:chunk:drain:)`) never
    /// holds the whole document.
    public mutating func drain(_ body: (UnsafeRawBufferPointer) -> Void) {
        guard used > 0 else { return }
        body(UnsafeRawBufferPointer(start: buffer.base, count: used))
        used = 0
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

    /// `open`, the integer, `close`: one element of a number (`<HeartRateBpm>`, `<Watts>`), as
    /// `ByteWriter.element` writes it.
    mutating func element(_ open: StaticString, int v: Int, _ close: StaticString) {
        appendPiece(capacity: open.utf8CodeUnitCount + ByteWriter.maxNumberBytes + close.utf8CodeUnitCount) { w, _ in w.element(open, int: v, close) }
    }

    /// `open`, the number with `decimals` digits (0...18), `close`.
    mutating func element(_ open: StaticString, fixed v: Double, decimals: Int, _ close: StaticString) {
        let d = min(max(decimals, 0), 18)
        appendPiece(capacity: open.utf8CodeUnitCount + ByteWriter.maxNumberBytes + close.utf8CodeUnitCount) { w, _ in
            w.element(open, fixed: v, decimals: d, close)
        }
    }

    /// Appends a decimal integer.
    public mutating func appendInt(_ v: Int) {
        appendPiece(capacity: ByteWriter.maxNumberBytes) { w, _ in w.int(v) }
    }

    /// Appends `value` with exactly `decimals` digits after the point (0...18), never in
    /// exponent notation; the same text as `formatFixed(value, decimals:)`.
    public mutating func appendFixed(_ value: Double, decimals: Int) {
        let d = min(max(decimals, 0), 18)
        appendPiece(capacity: ByteWriter.maxNumberBytes) { w, _ in w.fixed(value, decimals: d) }
    }

    /// Appends `seconds` since 1970 as `YYYY-MM-DDTHH:MM:SSZ`, with `.mmm` when the time,
    /// rounded to the millisecond, is not a whole second.
    public mutating func appendTime(_ seconds: Double) {
        appendPiece(capacity: ByteWriter.maxTimeBytes) { w, day in w.utcTime(seconds, &day) }
    }
}
