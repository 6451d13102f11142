import WorkoutCore

/// The one sanitiser between text that came from a file, a device or the network and the
/// terminal: control characters are made visible (`\e`, `\n`, `\u{7}`) so that a title, a
/// device's name or an error naming a file cannot clear the screen, retitle the window or
/// move the cursor. C0 controls, DEL, C1 controls (U+0080-U+009F, which some terminals read as
/// ESC sequences) and the bidirectional overrides (U+202A-U+202E, U+2066-U+2069: text that
/// reads backwards) are shown; everything else is printed as it is.
public enum TerminalText {
    public static func visible(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: isControl) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 8)
        for u in s.unicodeScalars {
            guard isControl(u) else { out.unicodeScalars.append(u); continue }
            switch u.value {
            case 0x1B: out += "\\e"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            default: out += "\\u{" + String(u.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }

    /// Every string in `json` (keys too) made visible: a reply as the renderer may print it.
    public static func visible(_ json: JSON) -> JSON {
        switch json {
        case .null, .bool, .number: return json
        case .string(let s): return .string(visible(s))
        case .array(let a): return .array(a.map(visible))
        case .object(let o): return .object(JSONObject(o.pairs.map { (visible($0.key), visible($0.value)) }))
        }
    }

    static func isControl(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
