/// A log line read back: its prefix, message and fields (values as written, unquoted).
public struct LogfmtLine: Sendable, Equatable {
    /// The `<N>` priority of a journald-style line.
    public var priority: Int?
    /// The seconds of a plain line's timestamp.
    public var timestamp: Double?
    /// The level word of a plain line.
    public var levelWord: String?
    public var message: String
    public var fields: [Field]

    public struct Field: Sendable, Equatable {
        public var key: String
        public var value: String
        public init(_ key: String, _ value: String) { self.key = key; self.value = value }
    }

    /// The first value of a key.
    public subscript(key: String) -> String? { fields.first(where: { $0.key == key })?.value }
}

/// Parses lines written by `Logfmt` (for `workoutctl logs`, tests and tools). Lenient about the
/// prefix (journald, plain, or none), strict about quoting: nil when a quote is unterminated,
/// an escape unknown, or a field has no `=`.
public enum LogfmtParser {
    public static func parse(_ line: String) -> LogfmtLine? {
        let s = Array(line.unicodeScalars)
        var i = 0
        var out = LogfmtLine(priority: nil, timestamp: nil, levelWord: nil, message: "", fields: [])
        // Prefix.
        if s.first == "<", let close = s.firstIndex(of: ">"), close > 1, close <= 4,
           s[1..<close].allSatisfy({ $0.properties.numericType != nil && $0.isASCII }) {
            out.priority = Int(String(String.UnicodeScalarView(s[1..<close])))
            i = close + 1
        } else if let sp = s.firstIndex(of: " "), let t = ISO8601.parse(String(String.UnicodeScalarView(s[0..<sp]))) {
            out.timestamp = t
            guard let sp2 = s[(sp + 1)...].firstIndex(of: " ") else { return nil }
            out.levelWord = String(String.UnicodeScalarView(s[(sp + 1)..<sp2]))
            i = sp2 + 1
        }
        // Message: quoted, or the words before the first token holding '='.
        if i < s.count, s[i] == "\"" {
            guard let (m, next) = quoted(s, from: i) else { return nil }
            out.message = m
            i = next
            if i < s.count { guard s[i] == " " else { return nil }; i += 1 }
        } else {
            var words: [String] = []
            while i < s.count {
                var j = i
                var hasEquals = false
                while j < s.count, s[j] != " " { if s[j] == "=" { hasEquals = true }; j += 1 }
                if hasEquals { break }
                words.append(String(String.UnicodeScalarView(s[i..<j])))
                i = min(j + 1, s.count)
            }
            out.message = words.joined(separator: " ")
        }
        // Fields.
        while i < s.count {
            var j = i
            while j < s.count, s[j] != "=", s[j] != " " { j += 1 }
            guard j < s.count, s[j] == "=", j > i else { return nil }
            let key = String(String.UnicodeScalarView(s[i..<j]))
            j += 1
            let value: String
            if j < s.count, s[j] == "\"" {
                guard let (v, next) = quoted(s, from: j) else { return nil }
                value = v
                j = next
            } else {
                let start = j
                while j < s.count, s[j] != " " { guard s[j] != "\"" else { return nil }; j += 1 }
                value = String(String.UnicodeScalarView(s[start..<j]))
            }
            out.fields.append(.init(key, value))
            if j < s.count { guard s[j] == " ", j + 1 < s.count else { return nil }; j += 1 }
            i = j
        }
        return out
    }

    /// A quoted string starting at `from` (the opening quote); the text and the index after it.
    static func quoted(_ s: [Unicode.Scalar], from: Int) -> (String, Int)? {
        var out = String.UnicodeScalarView()
        var i = from + 1
        while i < s.count {
            let c = s[i]
            if c == "\"" { return (String(out), i + 1) }
            if c == "\\" {
                guard i + 1 < s.count else { return nil }
                switch s[i + 1] {
                case "\"": out.append("\"")
                case "\\": out.append("\\")
                case "n": out.append("\n")
                case "r": out.append("\r")
                case "t": out.append("\t")
                case "u":
                    guard i + 5 < s.count, let v = UInt32(String(String.UnicodeScalarView(s[(i + 2)...(i + 5)])), radix: 16),
                          let u = Unicode.Scalar(v) else { return nil }
                    out.append(u)
                    i += 4
                default: return nil
                }
                i += 2
            } else {
                out.append(c)
                i += 1
            }
        }
        return nil
    }
}
