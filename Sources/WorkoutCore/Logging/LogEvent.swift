/// Severity of a log line; raw values are syslog / sd-daemon priorities (`<6>` = info).
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case error = 3
    case warning = 4
    case notice = 5
    case info = 6
    case debug = 7

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue > b.rawValue }

    public var label: String {
        switch self {
        case .error: return "error"
        case .warning: return "warning"
        case .notice: return "notice"
        case .info: return "info"
        case .debug: return "debug"
        }
    }
}

/// A value in a log line's `key=value` fields.
public enum LogValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    case double(Double, decimals: Int)
    case bool(Bool)
}

/// Something worth a log line. Each layer defines its own event types (lifecycle, GPS, store,
/// streaks ...) conforming to this protocol; one renderer turns them into lines, so no call site
/// assembles log text by hand.
public protocol LogEvent: Sendable {
    /// Stable event name, the `event=` field (`workout.started`, `gps.lost`).
    var name: String { get }
    var level: LogLevel { get }
    /// The short human sentence that starts the line.
    var message: String { get }
    /// Stable `key=value` fields, in order.
    var fields: [(String, LogValue)] { get }
}

extension LogEvent {
    public var level: LogLevel { .info }
}
