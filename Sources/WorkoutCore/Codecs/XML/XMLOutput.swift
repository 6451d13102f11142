/// A growing UTF-8 byte buffer for writing GPX and TCX quickly: literal markup, escaped text,
/// integers, fixed-decimal numbers and ISO-8601 UTC times are appended in place, without a
/// `String` per value. `appendFixed` gives exactly the text of `formatFixed(_:decimals:)`.
public struct XMLOutput: Sendable {
    public private(set) var bytes: [UInt8] = []

    // The civil date of the last day written ("2026-11-21T"), to skip date arithmetic.
    private var cachedDay = Int.min
    private var cachedDate: [UInt8] = []

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
        if v < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendDigits(v.magnitude, minimumWidth: 1)
        } else {
            appendDigits(UInt(v), minimumWidth: 1)
        }
    }

    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18]

    /// Appends `value` with exactly `decimals` digits after the point (0...18), never in
    /// exponent notation; the same text as `formatFixed(value, decimals:)`.
    public mutating func appendFixed(_ value: Double, decimals: Int) {
        guard value.isFinite else { bytes.append(UInt8(ascii: "0")); return }
        let d = min(max(decimals, 0), 18)
        let scale = XMLOutput.powersOfTen[d]
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        if scaled >= 9.0e18 {
            bytes.append(contentsOf: formatFixed(value, decimals: d).utf8)
            return
        }
        let n = UInt64(scaled)
        let unit = UInt64(scale)
        if value < 0 && n != 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(UInt(n / unit), minimumWidth: 1)
        if d > 0 {
            bytes.append(UInt8(ascii: "."))
            appendDigits(UInt(n % unit), minimumWidth: d)
        }
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
            let c = CivilTime.civilFromDays(Int(day))
            var tmp = XMLOutput(capacity: 16)
            tmp.appendDigits(UInt(max(c.year, 0)), minimumWidth: 4)
            tmp.bytes.append(UInt8(ascii: "-"))
            tmp.appendDigits(UInt(c.month), minimumWidth: 2)
            tmp.bytes.append(UInt8(ascii: "-"))
            tmp.appendDigits(UInt(c.day), minimumWidth: 2)
            tmp.bytes.append(UInt8(ascii: "T"))
            cachedDate = tmp.bytes
            cachedDay = Int(day)
        }
        bytes.append(contentsOf: cachedDate)
        appendDigits(UInt(sod / 3600), minimumWidth: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(UInt(sod % 3600 / 60), minimumWidth: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(UInt(sod % 60), minimumWidth: 2)
        if frac != 0 {
            bytes.append(UInt8(ascii: "."))
            appendDigits(UInt(frac), minimumWidth: 3)
        }
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Appends `v` in decimal, left-padded with zeros to `minimumWidth` digits (at most 24).
    private mutating func appendDigits(_ v: UInt, minimumWidth: Int) {
        // Digits are formed right to left in a stack buffer, then appended.
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { raw in
            var k = 24
            var rest = v
            repeat {
                k -= 1
                raw[k] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            while 24 - k < minimumWidth && k > 0 {
                k -= 1
                raw[k] = UInt8(ascii: "0")
            }
            // Byte by byte: for a few digits this beats `append(contentsOf:)` (memcpy).
            while k < 24 { bytes.append(raw[k]); k += 1 }
        }
    }
}
