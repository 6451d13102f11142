/// Offsets between a receiver's clock and the system's, in words a person can read
/// ("receiver clock 8 years behind the system clock; fixes are placed by arrival"), with gpsd's
/// 1024-week rollover cases named.
public enum ClockOffsetText {
    /// Offsets smaller than this are not a problem worth showing (seconds).
    public static let threshold = 2.0

    /// "16 s", "5 min", "1 h", "1 day", "3 days", "8 years".
    public static func amount(_ seconds: Double) -> String {
        let a = abs(seconds)
        func n(_ v: Double, _ unit: String, _ units: String) -> String {
            let k = Int(v.rounded())
            return "\(k) \(k == 1 ? unit : units)"
        }
        if a < 90 { return "\(Int(a.rounded())) s" }
        if a < 3570 { return "\(Int((a / 60).rounded())) min" }
        if a < 84600 { return "\(Int((a / 3600).rounded())) h" }
        if a < 730 * 86400 { return n(a / 86400, "day", "days") }
        return n(a / (365.2425 * 86400), "year", "years")
    }

    /// The problem for `status` (`gps.problem`), or nil when the clocks agree within `threshold`.
    /// `offset` is receiver time minus system time; `receiverTime` the receiver's date.
    public static func problem(offset: Double, receiverTime: Double) -> String? {
        guard offset.isFinite, abs(offset) >= threshold else { return nil }
        let era = GPSWeekRollover.era
        let placed = "fixes are placed by arrival"
        for k in 1...3 where abs(offset + Double(k) * era) < 7 * 86400 {
            return "receiver clock \(1024 * k) GPS weeks (\(amount(offset))) behind the system clock: a week-rollover bug; \(placed)"
        }
        if offset > 86400, receiverTime < GPSWeekRollover.gpsd322.pivot + era, receiverTime - era < GPSWeekRollover.gpsd322.pivot {
            let date = ISO8601.format(receiverTime).prefix(10)
            let original = ISO8601.format(receiverTime - era).prefix(10)
            return "receiver clock \(amount(offset)) ahead of the system clock: dated \(date), likely gpsd's week-rollover rule moving a \(original) date forward 1024 weeks (a replayed old log); \(placed)"
        }
        return "receiver clock \(amount(offset)) \(offset > 0 ? "ahead of" : "behind") the system clock; \(placed)"
    }
}
