/// Where a rendered line goes, which decides its prefix.
public enum LogStyle: String, Sendable, CaseIterable {
    /// stderr under systemd: `<6>` priority prefix, no timestamp (journald stamps each line).
    case journald
    /// A terminal or a file: `2026-11-21T09:30:00.123Z info ` prefix (UTC, milliseconds).
    case plain
}

/// The one renderer of `LogEvent`s into lines (docs/logging.md):
///
///     <6>Daily streak extended to 6 days event=streak.extended level=info kind=daily length=6
///     2026-11-21T09:30:00.123Z info Daily streak extended to 6 days event=streak.extended level=info ...
///
/// The message is written bare when it is plain words separated by single spaces, and as a
/// quoted string otherwise. Fields follow as `key=value`: `event=` first, `level=` second, then
/// the event's own fields in order. A value is quoted when it is empty or holds whitespace, `=`,
/// `"`, `\` or a control character; inside quotes `"` and `\` are backslash-escaped and control
/// characters written as `\n`, `\r`, `\t` or `\uXXXX`. A line never contains a raw newline.
public enum Logfmt {
    /// Keys the renderer writes itself; an event field with one of these names gets a `_` suffix.
    public static let reservedKeys: Set<String> = ["event", "level"]

    /// A whole line, without the trailing newline. `timestamp` (seconds since 1970 UTC) is used by
    /// the plain style only.
    public static func render(_ event: some LogEvent, style: LogStyle, timestamp: Double) -> String {
        var out = ""
        switch style {
        case .journald: out += "<\(event.level.rawValue)>"
        case .plain: out += ISO8601.format(timestamp, fractionDigits: 3) + " " + event.level.label + " "
        }
        out += body(event)
        return out
    }

    /// The line without its prefix: message and fields.
    public static func body(_ event: some LogEvent) -> String {
        var out = message(event.message)
        if !out.isEmpty { out += " " }
        out += "event=" + value(.string(event.name)) + " level=" + event.level.label
        for (k, v) in event.fields {
            var key = self.key(k)
            if reservedKeys.contains(key) { key += "_" }
            out += " " + key + "=" + value(v)
        }
        return out
    }

    /// The message as written: bare words, or a quoted string when bare would be ambiguous.
    public static func message(_ m: String) -> String {
        var bare = true
        var previousSpace = true  // no leading space
        for s in m.unicodeScalars {
            if s == " " {
                if previousSpace { bare = false; break }
                previousSpace = true
            } else {
                previousSpace = false
                if needsQuotes(s) { bare = false; break }
            }
        }
        if bare && previousSpace && !m.isEmpty { bare = false }  // trailing space
        if bare && m.unicodeScalars.first == "<" { bare = false }  // never mistaken for a prefix
        return bare ? m : quoted(m)
    }

    /// A key made safe: letters, digits, `_`, `.` and `-`; anything else becomes `_`.
    public static func key(_ k: String) -> String {
        if k.isEmpty { return "_" }
        var out = ""
        for s in k.unicodeScalars {
            let ok = s.isASCII && (isAlpha(UInt8(s.value)) || isDigit(UInt8(s.value)) || s == "_" || s == "." || s == "-")
            out.unicodeScalars.append(ok ? s : "_")
        }
        return out
    }

    /// A field value as written.
    public static func value(_ v: LogValue) -> String {
        switch v {
        case .int(let i): return String(i)
        case .bool(let b): return b ? "true" : "false"
        case .double(let d, let decimals):
            if d.isNaN { return "nan" }
            if d.isInfinite { return d < 0 ? "-inf" : "inf" }
            return formatFixed(d, decimals: max(0, decimals))
        case .string(let s):
            if s.isEmpty || s.unicodeScalars.contains(where: { $0 == " " || needsQuotes($0) }) { return quoted(s) }
            return s
        }
    }

    /// True for scalars that force quoting: `=`, `"`, `\`, whitespace and control characters.
    static func needsQuotes(_ s: Unicode.Scalar) -> Bool {
        s == "=" || s == "\"" || s == "\\" || s.properties.isWhitespace || needsEscape(s)
    }

    /// Control characters and line or paragraph separators, written as escapes.
    static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (s.value >= 0x7F && s.value <= 0x9F) || s.value == 0x2028 || s.value == 0x2029
    }

    /// `"..."` with `"` `\` and control characters escaped.
    public static func quoted(_ s: String) -> String {
        var out = ""
        QuotedText.append(s, to: &out, escaping: needsEscape)
        return out
    }
}
