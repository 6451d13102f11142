/// Percent-decoding of request paths and queries, and `application/x-www-form-urlencoded`
/// bodies (the edit form). Total: any input gives a value or nil, never a crash.
public enum PercentEncoding {
    /// `%XX` escapes decoded; nil for a broken escape, `%00`, or bytes that are not UTF-8.
    /// With `plusIsSpace` (queries and forms) `+` is a space.
    public static func decode(_ text: some StringProtocol, plusIsSpace: Bool = false) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var it = text.utf8.makeIterator()
        while let b = it.next() {
            switch b {
            case UInt8(ascii: "%"):
                guard let h = it.next().flatMap(hexValue), let l = it.next().flatMap(hexValue) else { return nil }
                let v = h << 4 | l
                if v == 0 { return nil }
                out.append(v)
            case UInt8(ascii: "+") where plusIsSpace: out.append(32)
            default: out.append(b)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    /// `a=1&b=two+words` -> [("a", "1"), ("b", "two words")]; a pair that does not decode is
    /// left out, a name without `=` has an empty value.
    public static func form(_ text: some StringProtocol) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        for piece in text.split(separator: "&", omittingEmptySubsequences: true) {
            let eq = piece.firstIndex(of: "=")
            let rawName = eq.map { piece[..<$0] } ?? piece
            let rawValue = eq.map { piece[piece.index(after: $0)...] } ?? ""
            guard let name = decode(rawName, plusIsSpace: true), let value = decode(rawValue, plusIsSpace: true) else { continue }
            pairs.append((name, value))
        }
        return pairs
    }

    /// Escapes everything but unreserved characters (RFC 3986), for URLs the pages write.
    public static func encode(_ text: String) -> String {
        var out = ""
        for b in text.utf8 {
            switch b {
            case 48...57, 65...90, 97...122, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(UnicodeScalar(b))
            default:
                out += "%"
                out.unicodeScalars.append(UnicodeScalar(hexDigits[Int(b >> 4)]))
                out.unicodeScalars.append(UnicodeScalar(hexDigits[Int(b & 15)]))
            }
        }
        return out
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 48...57: return b - 48
        case 65...70: return b - 55
        case 97...102: return b - 87
        default: return nil
        }
    }
}
