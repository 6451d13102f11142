/// A growing UTF-8 byte buffer for writing GPX and TCX quickly: literal markup, escaped text,
/// integers, fixed-decimal numbers and ISO-8601 UTC times are appended in place, without a
/// `String` per value. `appendFixed` gives exactly the text of `formatFixed(_:decimals:)`.
public struct XMLOutput: Sendable {
    public private(set) var bytes: [UInt8] = []

    /// The civil date of the last day written ("2026-11-21T"), to skip date arithmetic.
    private var day = UTCDayText()

    public init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends markup as is.
    public mutating func append(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
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
            case 0x09, 0x0A, 0x0D: bytes.append(u)
            case 0..<0x20: break
            default: bytes.append(u)
            }
        }
    }

    /// Appends a decimal integer.
    public mutating func appendInt(_ v: Int) {
        ByteWriter.append(to: &bytes, capacity: ByteWriter.maxNumberBytes) { $0.int(v) }
    }

    /// Appends `value` with exactly `decimals` digits after the point (0...18), never in
    /// exponent notation; the same text as `formatFixed(value, decimals:)`.
    public mutating func appendFixed(_ value: Double, decimals: Int) {
        let d = min(max(decimals, 0), 18)
        ByteWriter.append(to: &bytes, capacity: ByteWriter.maxNumberBytes) { $0.fixed(value, decimals: d) }
    }

    /// Appends `seconds` since 1970 as `YYYY-MM-DDTHH:MM:SSZ`, with `.mmm` when the time,
    /// rounded to the millisecond, is not a whole second.
    public mutating func appendTime(_ seconds: Double) {
        var day = self.day
        ByteWriter.append(to: &bytes, capacity: ByteWriter.maxTimeBytes) { $0.utcTime(seconds, &day) }
        self.day = day
    }

    /// Writes one piece (a track point) of at most `capacity` bytes through a `ByteWriter` and
    /// appends it at once: what the GPX and TCX writers do per point. The writer's `utcTime`
    /// takes the day cache passed along.
    mutating func appendPiece(capacity: Int, _ body: (inout ByteWriter, inout UTCDayText) -> Void) {
        var day = self.day
        ByteWriter.append(to: &bytes, capacity: capacity) { body(&$0, &day) }
        self.day = day
    }
}
