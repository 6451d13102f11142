import Glibc
import WorkoutCore

/// Durations as people read them (h:mm:ss). Distances, paces and speeds in either unit system
/// are `UnitFormatter`'s (`UnitFormatter(reply:)`). Pure; every function accepts any Double
/// (NaN, negative, huge).
public enum Units {
    /// `h:mm:ss` (hours grow past 99 as needed); seconds are truncated like a stopwatch.
    /// Negative or non-finite values show as 0:00:00.
    public static func duration(_ seconds: Double) -> String {
        let t = seconds.isFinite && seconds > 0 ? Int64(min(seconds, 9.0e15)) : 0
        return "\(t / 3600):" + two(t / 60 % 60) + ":" + two(t % 60)
    }

    /// `m:ss` below an hour, `h:mm:ss` above (lap and split times).
    public static func shortDuration(_ seconds: Double) -> String {
        let t = seconds.isFinite && seconds > 0 ? Int64(min(seconds, 9.0e15)) : 0
        if t >= 3600 { return duration(seconds) }
        return "\(t / 60):" + two(t % 60)
    }

    static func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }

    /// Zero-padded decimal (`pad(7, 2)` = "07").
    public static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}

/// Local wall-clock time for display, via the C library (honours TZ; no Foundation).
public struct LocalClock: Sendable {
    /// Seconds east of UTC at a given UTC instant.
    public var offset: @Sendable (Double) -> Int

    public init(offset: @escaping @Sendable (Double) -> Int) { self.offset = offset }

    public static let utc = LocalClock { _ in 0 }

    /// The system's zone (TZ / /etc/localtime) through localtime_r.
    public static let system = LocalClock { t in
        var time = time_t(t.isFinite ? t : 0)
        var tm = tm()
        guard localtime_r(&time, &tm) != nil else { return 0 }
        return Int(tm.tm_gmtoff)
    }

    public func civil(_ t: Double) -> CivilTime { CivilTime(utc: t + Double(offset(t))) }

    /// `2026-11-21 09:30`
    public func dateTime(_ t: Double) -> String {
        let c = civil(t)
        return Units.pad(c.year, 4) + "-" + Units.pad(c.month, 2) + "-" + Units.pad(c.day, 2) + " "
            + Units.pad(c.hour, 2) + ":" + Units.pad(c.minute, 2)
    }

    /// `09:30:05`
    public func timeOfDay(_ t: Double) -> String {
        let c = civil(t)
        return Units.pad(c.hour, 2) + ":" + Units.pad(c.minute, 2) + ":" + Units.pad(c.second, 2)
    }
}

extension UnitFormatter {
    /// The unit system a daemon reply names in its `units` key (config `units`); metric when
    /// the key is absent (an older daemon) or unknown.
    public init(reply: JSON?) {
        self.init(reply?["units"]?.stringValue.flatMap { WorkoutCore.Units(rawValue: $0) } ?? .metric)
    }
}
