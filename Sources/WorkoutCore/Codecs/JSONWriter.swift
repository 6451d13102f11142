/// Compact JSON written straight to UTF-8 bytes: the same text as `JSON.serialized()`, without
/// building a `JSON` tree or intermediate strings first. Replies that are sent often and are
/// large (`status` of a long workout) are written with it; the caller places the commas and
/// colons, so keys stay in the order of the matching `json()`.
public struct JSONWriter: Sendable {
    public var bytes: [UInt8]

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Literal JSON text (punctuation, `"key":`, `null`) copied as it is.
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Bytes that are already JSON text (an encoded fragment kept from earlier).
    public mutating func raw(_ text: [UInt8]) { bytes.append(contentsOf: text) }

    public mutating func null() { raw("null") }

    /// A quoted string, escaped as `JSON.writeString` escapes it.
    public mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            var clean = 0
            // An index loop, not `enumerated()`: unoptimized (debug) builds spent ~800 ns a byte
            // in the enumerated iterator's generic metadata lookups (activities: 250 replies/s).
            var k = -1
            while true {
                k += 1
                guard k < utf8.count else { break }
                let u = utf8[k]
                guard u < 0x20 || u == 0x22 || u == 0x5C else { continue }
                // Escapes are ASCII; bytes of multi-byte characters are >= 0x80 and pass unchanged.
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean..<k]))
                switch u {
                case 0x22: raw("\\\"")
                case 0x5C: raw("\\\\")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                default:
                    raw("\\u00")
                    bytes.append(JSONWriter.hexDigit(u >> 4))
                    bytes.append(JSONWriter.hexDigit(u & 0xF))
                }
                clean = k + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func string(_ s: String?) {
        if let s { string(s) } else { null() }
    }

    /// A number as `JSON.format` writes it; nil, NaN and infinities are `null`.
    public mutating func number(_ d: Double?) {
        guard let d, d.isFinite else { null(); return }
        if d == d.rounded(), abs(d) < 1e15 {
            appendInt(Int(d), to: &bytes)
        } else {
            bytes.append(contentsOf: JSON.format(d).utf8)
        }
    }

    public mutating func int(_ i: Int?) { number(i.map(Double.init)) }

    /// A quoted ISO 8601 time, as `ISO8601.format` writes it.
    public mutating func time(_ seconds: Double, fractionDigits: Int) {
        bytes.append(UInt8(ascii: "\""))
        ISO8601.append(seconds, fractionDigits: fractionDigits, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Any JSON value, exactly as `serialized()` writes it.
    public mutating func value(_ v: JSON) {
        switch v {
        case .null: null()
        case .bool(let b): if b { raw("true") } else { raw("false") }
        case .number(let d): number(d)
        case .string(let s): string(s)
        case .array(let a):
            bytes.append(UInt8(ascii: "["))
            // Comma flags, not `enumerated()` (slow in debug builds: see `string`).
            var first = true
            for e in a {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                value(e)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let o):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for p in o.pairs {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                member(p.key, p.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// `"key":value` (no comma).
    public mutating func member(_ key: String, _ v: JSON) {
        string(key)
        bytes.append(UInt8(ascii: ":"))
        value(v)
    }

    @inline(__always)
    static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 48 + v : 87 + v }
}
