/// A streak day: one local calendar date as the streak rules count it (after the day-start
/// offset), held as a day number (days since 1970-01-01) and shown as `YYYY-MM-DD`.
public struct StreakDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public var dayNumber: Int

    public init(dayNumber: Int) { self.dayNumber = dayNumber }

    public init(year: Int, month: Int, day: Int) {
        dayNumber = CivilTime.daysFromCivil(year: year, month: month, day: day)
    }

    /// Parses `YYYY-MM-DD`; nil for anything else (or an impossible date).
    public init?(iso text: some StringProtocol) {
        let b = Array(text.utf8)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") else { return nil }
        func num(_ r: Range<Int>) -> Int? {
            var v = 0
            for k in r { guard isDigit(b[k]) else { return nil }; v = v * 10 + Int(b[k] - 48) }
            return v
        }
        guard let y = num(0..<4), let m = num(5..<7), let d = num(8..<10),
              CivilTime(year: y, month: m, day: d).isValidDate() else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// `YYYY-MM-DD`.
    public var iso: String {
        let c = CivilTime.civilFromDays(dayNumber)
        return ISO8601.pad(c.year, 4) + "-" + ISO8601.pad(c.month, 2) + "-" + ISO8601.pad(c.day, 2)
    }

    public var description: String { iso }

    /// 0 = Sunday ... 6 = Saturday.
    public var weekday: Int { CivilTime.weekday(ofDay: dayNumber) }

    public func adding(days: Int) -> StreakDay { StreakDay(dayNumber: dayNumber + days) }

    public static func < (a: StreakDay, b: StreakDay) -> Bool { a.dayNumber < b.dayNumber }
}
