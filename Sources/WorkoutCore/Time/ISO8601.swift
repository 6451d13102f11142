/// ISO-8601 / RFC 3339 timestamps, the form every file and JSON key of workoutd uses
/// (`2026-11-21T09:30:00Z`, UTC with `Z`). Parsing accepts fractions and numeric offsets.
public enum ISO8601 {
    /// `2026-11-21T09:30:00Z`, or with `fractionDigits` decimals of the second (`...00.250Z`).
    public static func format(_ seconds: Double, fractionDigits: Int = 0) -> String {
        var t = seconds
        if fractionDigits == 0 { t = t.rounded(.toNearestOrAwayFromZero) }
        else {
            var scale: Double = 1
            for _ in 0..<fractionDigits { scale *= 10 }
            t = (t * scale).rounded(.toNearestOrAwayFromZero) / scale
        }
        let c = CivilTime(utc: t)
        var out = pad(c.year, 4) + "-" + pad(c.month, 2) + "-" + pad(c.day, 2)
        out += "T" + pad(c.hour, 2) + ":" + pad(c.minute, 2) + ":" + pad(c.second, 2)
        if fractionDigits > 0 {
            let frac = formatFixed(c.fraction, decimals: fractionDigits)
            // "0.250" -> ".250"; a fraction rounding up to 1 cannot happen after rounding t above.
            if let dot = frac.firstIndex(of: ".") { out += String(frac[dot...]) }
        }
        return out + "Z"
    }

    /// `format` appended as UTF-8 bytes (no intermediate strings): the same text.
    public static func append(_ seconds: Double, fractionDigits: Int = 0, to out: inout [UInt8]) {
        guard fractionDigits <= 15 else { out.append(contentsOf: format(seconds, fractionDigits: fractionDigits).utf8); return }
        var t = seconds
        var scale: Double = 1
        if fractionDigits == 0 { t = t.rounded(.toNearestOrAwayFromZero) }
        else {
            for _ in 0..<fractionDigits { scale *= 10 }
            t = (t * scale).rounded(.toNearestOrAwayFromZero) / scale
        }
        let c = CivilTime(utc: t)
        if c.year < 0 { out.append(contentsOf: pad(c.year, 4).utf8) }
        else { appendDigits(UInt64(c.year), minimumCount: 4, to: &out) }
        out.append(UInt8(ascii: "-"))
        appendDigits(UInt64(c.month), minimumCount: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(UInt64(c.day), minimumCount: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        appendDigits(UInt64(c.hour), minimumCount: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(UInt64(c.minute), minimumCount: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(UInt64(c.second), minimumCount: 2, to: &out)
        if fractionDigits > 0, c.fraction.isFinite {
            // `format` keeps what follows the point of `formatFixed(fraction)`: the digits of
            // the scaled fraction modulo 1 (a fraction rounding up to 1 cannot happen anyway).
            let scaled = (abs(c.fraction) * scale).rounded(.toNearestOrAwayFromZero)
            out.append(UInt8(ascii: "."))
            appendDigits(UInt64(scaled) % UInt64(scale), minimumCount: fractionDigits, to: &out)
        }
        out.append(UInt8(ascii: "Z"))
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff](Z|+HH:MM|-HH:MM)` (also a space for `T`, `+HHMM` and `+HH`,
    /// and a missing zone read as UTC). Returns seconds since 1970 UTC, or nil when it is not such
    /// a time: every field is range-checked (a leap second :60 reads as :59), offsets too.
    public static func parse(_ text: some StringProtocol) -> Double? {
        let b = Array(text.utf8)
        func num(_ from: Int, _ len: Int) -> Int? {
            guard from + len <= b.count else { return nil }
            var v = 0
            for k in from..<from + len {
                guard isDigit(b[k]) else { return nil }
                v = v * 10 + Int(b[k] - 48)
            }
            return v
        }
        guard b.count >= 19, let y = num(0, 4), b[4] == UInt8(ascii: "-"), let mo = num(5, 2), b[7] == UInt8(ascii: "-"),
              let d = num(8, 2), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") || b[10] == UInt8(ascii: " "),
              let h = num(11, 2), b[13] == UInt8(ascii: ":"), let mi = num(14, 2), b[16] == UInt8(ascii: ":"),
              let s = num(17, 2) else { return nil }
        var i = 19
        var fraction = 0.0
        if i < b.count, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
            i += 1
            var scale = 0.1
            let start = i
            while i < b.count, isDigit(b[i]) { fraction += Double(b[i] - 48) * scale; scale /= 10; i += 1 }
            if i == start { return nil }
        }
        var offset = 0
        if i < b.count {
            switch b[i] {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"): i += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
                // +HH, +HHMM or +HH:MM; a colon must be followed by the minutes. RFC 3339 offsets
                // stay within a day: hours 00-23, minutes 00-59.
                guard let oh = num(i + 1, 2), oh <= 23 else { return nil }
                var j = i + 3
                var om = 0
                if j < b.count, b[j] == UInt8(ascii: ":") {
                    guard let m = num(j + 1, 2) else { return nil }
                    om = m; j += 3
                } else if let m = num(j, 2) {
                    om = m; j += 2
                }
                guard om <= 59 else { return nil }
                offset = sign * (oh * 3600 + om * 60)
                i = j
            default: return nil
            }
        }
        guard i == b.count else { return nil }
        // Validate first (seconds 00-60, 60 being a leap second), then read a leap second as
        // the last second of its minute: clamping first let :61-:99 through as :59.
        var c = CivilTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s, fraction: fraction)
        guard c.isValidDate() else { return nil }
        c.second = min(s, 59)
        return c.secondsSinceEpochAsUTC - Double(offset)
    }

    static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
