/// HTML and SVG text written straight to UTF-8 bytes. Text from data (titles, notes, gear,
/// file names) goes through `text`, which escapes `& < > " '`, so it is safe in element content
/// and in quoted attribute values alike; `raw` is for the renderers' own markup only.
/// Numbers are written without building strings (`int`, `fixed`).
public struct HTMLWriter: Sendable {
    public var bytes: [UInt8]

    public init(capacity: Int = 16384) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Markup written by the renderers themselves.
    @inline(__always)
    public mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Markup built by the renderers (never text from data).
    public mutating func raw(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Text from data, escaped for element content and quoted attributes.
    public mutating func text(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            var clean = 0
            for k in 0..<utf8.count {
                let replacement: StaticString
                switch utf8[k] {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&#39;"
                case 0..<9, 11, 12, 14..<32: replacement = " "  // control characters are not allowed in HTML text
                default: continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean..<k]))
                replacement.withUTF8Buffer { bytes.append(contentsOf: $0) }
                clean = k + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean...]))
        }
    }

    public mutating func int(_ v: Int) { appendInt(v, to: &bytes) }

    /// A decimal rounded to `decimals` places (`formatFixed`); NaN and infinities as 0.
    public mutating func fixed(_ v: Double, decimals: Int) {
        appendFixed(v.isFinite ? v : 0, decimals: decimals, to: &bytes)
    }

    /// A coordinate with one decimal (SVG paths): the short form of `fixed(v, decimals: 1)`.
    @inline(__always)
    public mutating func coordinate(_ v: Double) {
        let tenths = Int((v.isFinite ? min(max(v, -1e9), 1e9) : 0) * 10 + (v < 0 ? -0.5 : 0.5))
        if tenths < 0 { bytes.append(UInt8(ascii: "-")) }
        let a = abs(tenths)
        appendInt(a / 10, to: &bytes)
        let d = a % 10
        if d != 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(48 + d))
        }
    }

    /// `name="value"` with a leading space; the value escaped.
    public mutating func attribute(_ name: StaticString, _ value: String) {
        raw(" ")
        raw(name)
        raw("=\"")
        text(value)
        raw("\"")
    }

    public var string: String { String(decoding: bytes, as: UTF8.self) }
}
