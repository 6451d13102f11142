/// A log event with its message and string values cut to a bound, so no line grows with its
/// input (a 30 KB marker text went into the log whole). A cut value keeps its first
/// `maxValueBytes` bytes of UTF-8 (whole characters) and says how much was cut:
/// `abc… [29500 bytes cut]`.
public struct BoundedLogEvent: LogEvent {
    public let name: String
    public let level: LogLevel
    public let message: String
    public let fields: [(String, LogValue)]

    public init(_ event: some LogEvent, maxValueBytes: Int) {
        name = event.name
        level = event.level
        message = Self.cut(event.message, maxBytes: maxValueBytes)
        fields = event.fields.map { key, value in
            switch value {
            case .string(let s): return (key, .string(Self.cut(s, maxBytes: maxValueBytes)))
            case .int, .double, .bool: return (key, value)
            }
        }
    }

    /// `s` itself when it has at most `maxBytes` bytes of UTF-8; otherwise its longest prefix of
    /// whole characters within `maxBytes`, then `… [N bytes cut]`.
    public static func cut(_ s: String, maxBytes: Int) -> String {
        guard s.utf8.count > maxBytes else { return s }
        let kept = s.prefix(utf8Bytes: maxBytes)
        return String(kept) + "… [\(s.utf8.count - kept.utf8.count) bytes cut]"
    }
}

extension Logfmt {
    /// `event` with its message and string values cut to `maxValueBytes` (`BoundedLogEvent`).
    public static func bounded(_ event: some LogEvent, maxValueBytes: Int) -> BoundedLogEvent {
        BoundedLogEvent(event, maxValueBytes: maxValueBytes)
    }
}
