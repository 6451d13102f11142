/// A calendar date and time of day with no zone attached (proleptic Gregorian).
/// Conversions use Howard Hinnant's days-from-civil algorithms: pure arithmetic, no clock, no tz.
public struct CivilTime: Sendable, Equatable, Hashable, Comparable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int = 0
    public var minute: Int = 0
    public var second: Int = 0
    /// Fraction of the second, [0, 1).
    public var fraction: Double = 0

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, fraction: Double = 0) {
        self.year = year; self.month = month; self.day = day
        self.hour = hour; self.minute = minute; self.second = second; self.fraction = fraction
    }

    public static func < (a: CivilTime, b: CivilTime) -> Bool { a.secondsSinceEpochAsUTC < b.secondsSinceEpochAsUTC }

    /// Days since 1970-01-01 of a civil date.
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The civil date of a day number (days since 1970-01-01).
    public static func civilFromDays(_ z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    /// 0 = Sunday ... 6 = Saturday, for a day number.
    public static func weekday(ofDay days: Int) -> Int {
        let w = (days + 4) % 7  // 1970-01-01 was a Thursday
        return w < 0 ? w + 7 : w
    }

    /// This civil time read as UTC, in seconds since 1970.
    public var secondsSinceEpochAsUTC: Double {
        let days = CivilTime.daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86400 + hour * 3600 + minute * 60 + second) + fraction
    }

    /// The UTC civil time of an instant.
    public init(utc seconds: Double) {
        let whole = seconds.rounded(.down)
        let total = Int(whole)
        var days = total / 86400
        var rem = total % 86400
        if rem < 0 { rem += 86400; days -= 1 }
        let (y, m, d) = CivilTime.civilFromDays(days)
        self.init(year: y, month: m, day: d, hour: rem / 3600, minute: rem % 3600 / 60, second: rem % 60, fraction: seconds - whole)
    }

    public func isValidDate() -> Bool {
        guard (1...12).contains(month), day >= 1, (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return false }
        return day <= CivilTime.daysInMonth(year: year, month: month)
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
