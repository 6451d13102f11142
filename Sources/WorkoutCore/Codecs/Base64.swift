/// RFC 4648 base64 with padding: binary exports (FIT) inside the control socket's JSON.
public enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            for s in [18, 12, 6, 0] { out.append(alphabet[Int((v >> UInt32(s)) & 63)]) }
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let v = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(alphabet[Int((v >> 18) & 63)])
            out.append(alphabet[Int((v >> 12) & 63)])
            out.append(rest == 2 ? alphabet[Int((v >> 6) & 63)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes padded base64 (whitespace not allowed); nil on anything else.
    public static func decode(_ text: String) -> [UInt8]? {
        let s = Array(text.utf8)
        guard s.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(s.count / 4 * 3)
        func value(_ c: UInt8) -> UInt32? {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): return UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): return UInt32(c - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "+"): return 62
            case UInt8(ascii: "/"): return 63
            default: return nil
            }
        }
        var i = 0
        while i < s.count {
            let last = i + 4 == s.count
            let pad = last ? (s[i + 3] == UInt8(ascii: "=") ? (s[i + 2] == UInt8(ascii: "=") ? 2 : 1) : 0) : 0
            var v: UInt32 = 0
            for k in 0..<4 {
                if k >= 4 - pad { v <<= 6; continue }
                guard let d = value(s[i + k]) else { return nil }
                v = v << 6 | d
            }
            out.append(UInt8(v >> 16))
            if pad < 2 { out.append(UInt8((v >> 8) & 0xFF)) }
            if pad < 1 { out.append(UInt8(v & 0xFF)) }
            i += 4
        }
        return out
    }
}
