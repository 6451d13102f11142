/// The one string escaper for JSON and logfmt: `"..."` with `"` and `\` escaped, newline,
/// carriage return and tab as `\n` `\r` `\t`, and every other scalar `isControl` says as `\uXXXX`.
/// JSON escapes the C0 controls; logfmt also C1 controls and the Unicode line separators.
enum QuotedText {
    static func append(_ s: String, to out: inout String, escaping isControl: (Unicode.Scalar) -> Bool) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if isControl(scalar) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
