/// A POSIX `TZ` rule string, as found in the footer of TZif v2+ files (RFC 8536 section 3.3)
/// and in `$TZ`: `CET-1CEST,M3.5.0,M10.5.0/3`, `<+0545>-5:45`, `<-02>2<-01>,M3.5.0/-1,M10.5.0/0`.
///
/// Offsets here are stored the ordinary way round (seconds EAST of UTC, `+3600` for CET), although
/// the string writes them west-positive (`CET-1`). Supports the TZif v3 extensions: transition
/// hours from -167 to 167 (`M3.4.4/26`) and all-year daylight time (`EST5EDT,0/0,J365/25`).
public struct PosixTZ: Sendable, Equatable {
    /// When, in a year, a transition happens (the date part of a rule).
    public enum DateRule: Sendable, Equatable {
        /// `Jn`: day 1...365 of the year, February 29 never counted.
        case julianNoLeap(Int)
        /// `n`: day 0...365 of the year, February 29 counted.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1...5, 5 = last) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    /// One transition rule: a date and a local time of day (seconds, may be negative or > 24 h).
    public struct Rule: Sendable, Equatable {
        public var date: DateRule
        public var time: Int
    }

    public var standardName: String
    /// Seconds east of UTC in standard time.
    public var standardOffset: Int
    public var daylightName: String?
    /// Seconds east of UTC in daylight time (standard + 1 h when the string omits it).
    public var daylightOffset: Int?
    /// Start of daylight time (given in standard local time).
    public var start: Rule?
    /// End of daylight time (given in daylight local time).
    public var end: Rule?

    /// Parses a POSIX TZ string; nil when it is not one (or uses a form not in RFC 8536).
    public init?(_ text: String) {
        var p = Scanner(Array(text.utf8))
        guard let std = p.name(), let stdOff = p.offset(maxHours: 24) else { return nil }
        standardName = std
        standardOffset = -stdOff
        if p.atEnd {
            daylightName = nil; daylightOffset = nil; start = nil; end = nil
            return
        }
        guard let dst = p.name() else { return nil }
        daylightName = dst
        if !p.atEnd, p.peek != UInt8(ascii: ",") {
            guard let off = p.offset(maxHours: 24) else { return nil }
            daylightOffset = -off
        } else {
            daylightOffset = -stdOff + 3600
        }
        if p.atEnd {
            // No rules: POSIX leaves them implementation-defined; glibc and tzcode use US rules.
            start = Rule(date: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
            end = Rule(date: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)
            return
        }
        guard p.eat(UInt8(ascii: ",")), let s = p.rule(), p.eat(UInt8(ascii: ",")), let e = p.rule(), p.atEnd else { return nil }
        start = s
        end = e
    }

    /// Seconds east of UTC at an instant (seconds since 1970 UTC).
    public func utcOffset(at t0: Double) -> Int {
        let t = ZoneRules.clamp(t0)
        guard let start, let end, let dstOff = daylightOffset else { return standardOffset }
        let year = CivilTime(utc: t + Double(standardOffset)).year
        // Transitions of the neighbouring years, in order; the last one at or before t decides.
        var best: (at: Int, dst: Bool)? = nil
        let tt = Int(t.rounded(.down))
        for y in (year - 1)...(year + 1) {
            let on = PosixTZ.day(of: start.date, year: y) * 86400 + start.time - standardOffset
            let off = PosixTZ.day(of: end.date, year: y) * 86400 + end.time - dstOff
            for (at, dst) in [(off, false), (on, true)] where at <= tt {
                // At equal instants the start wins over the end (all-year daylight time).
                if best == nil || at > best!.at || (at == best!.at && dst) { best = (at, dst) }
            }
        }
        return (best?.dst ?? false) ? dstOff : standardOffset
    }

    /// The day number (days since 1970-01-01) of a rule's date in a year.
    static func day(of rule: DateRule, year: Int) -> Int {
        let jan1 = CivilTime.daysFromCivil(year: year, month: 1, day: 1)
        switch rule {
        case .julianNoLeap(let n):
            let leap = CivilTime.daysInMonth(year: year, month: 2) == 29
            return jan1 + n - 1 + (leap && n >= 60 ? 1 : 0)
        case .zeroBased(let n):
            return jan1 + n
        case .monthWeekDay(let m, let w, let d):
            let first = CivilTime.daysFromCivil(year: year, month: m, day: 1)
            var day = first + (d - CivilTime.weekday(ofDay: first) + 7) % 7 + (w - 1) * 7
            let last = first + CivilTime.daysInMonth(year: year, month: m) - 1
            while day > last { day -= 7 }
            return day
        }
    }

    /// A tiny cursor over the string's bytes.
    struct Scanner {
        let b: [UInt8]
        var i = 0
        init(_ b: [UInt8]) { self.b = b }
        var atEnd: Bool { i >= b.count }
        var peek: UInt8? { i < b.count ? b[i] : nil }
        mutating func eat(_ c: UInt8) -> Bool {
            if peek == c { i += 1; return true }
            return false
        }
        /// `<...>` (letters, digits, + and -) or three or more letters.
        mutating func name() -> String? {
            if eat(UInt8(ascii: "<")) {
                let s = i
                while let c = peek, c != UInt8(ascii: ">") {
                    guard isAlpha(c) || isDigit(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") else { return nil }
                    i += 1
                }
                guard i - s >= 3, eat(UInt8(ascii: ">")) else { return nil }
                return String(decoding: b[s..<(i - 1)], as: UTF8.self)
            }
            let s = i
            while let c = peek, isAlpha(c) { i += 1 }
            return i - s >= 3 ? String(decoding: b[s..<i], as: UTF8.self) : nil
        }
        mutating func number(maxDigits: Int) -> Int? {
            let s = i
            var v = 0
            while let c = peek, isDigit(c), i - s < maxDigits { v = v * 10 + Int(c - 48); i += 1 }
            return i > s ? v : nil
        }
        /// `[+-]hh[:mm[:ss]]`, in seconds (sign as written).
        mutating func offset(maxHours: Int) -> Int? {
            var sign = 1
            if eat(UInt8(ascii: "-")) { sign = -1 } else { _ = eat(UInt8(ascii: "+")) }
            guard let h = number(maxDigits: 3), h <= maxHours else { return nil }
            var v = h * 3600
            if eat(UInt8(ascii: ":")) {
                guard let m = number(maxDigits: 2), m < 60 else { return nil }
                v += m * 60
                if eat(UInt8(ascii: ":")) {
                    guard let sec = number(maxDigits: 2), sec < 60 else { return nil }
                    v += sec
                }
            }
            return sign * v
        }
        mutating func rule() -> Rule? {
            let date: DateRule
            if eat(UInt8(ascii: "J")) {
                guard let n = number(maxDigits: 3), (1...365).contains(n) else { return nil }
                date = .julianNoLeap(n)
            } else if eat(UInt8(ascii: "M")) {
                guard let m = number(maxDigits: 2), (1...12).contains(m), eat(UInt8(ascii: ".")),
                      let w = number(maxDigits: 1), (1...5).contains(w), eat(UInt8(ascii: ".")),
                      let d = number(maxDigits: 1), d <= 6 else { return nil }
                date = .monthWeekDay(month: m, week: w, weekday: d)
            } else {
                guard let n = number(maxDigits: 3), n <= 365 else { return nil }
                date = .zeroBased(n)
            }
            var time = 7200
            if eat(UInt8(ascii: "/")) {
                guard let t = offset(maxHours: 167) else { return nil }
                time = t
            }
            return Rule(date: date, time: time)
        }
    }
}

@inline(__always) func isAlpha(_ c: UInt8) -> Bool { (c | 0x20) &- UInt8(ascii: "a") < 26 }
