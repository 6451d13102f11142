/// Allocation-free readers for NMEA 0183 field text (ASCII digits, '.', sign). Every function
/// takes the whole line and a half-open byte range; an empty range means "field absent".
/// Numbers are built from integer mantissas so that `4134.49795459` is exact to the last digit
/// before the single final division.
enum NMEAFieldScanner {
    /// Powers of ten that are exact in a Double (up to 1e22).
    static let pow10: [Double] = (0...22).map { k in
        var v = 1.0
        for _ in 0..<k { v *= 10 }
        return v
    }

    /// 10^k for the scales a mantissa has (0...18), exact: a switch of constants, not a read of
    /// the lazily made global `pow10` (a `swift_once` check and a bounds check per number).
    @inline(__always)
    static func power10(_ k: Int) -> Double {
        switch k {
        case 0: return 1
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        case 15: return 1e15
        case 16: return 1e16
        case 17: return 1e17
        default: return pow10[k]
        }
    }

    /// A decimal number: optional sign, digits, optional '.' and digits. nil if empty or not a number.
    @inline(__always)
    static func decimal(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        guard let (mantissa, scale) = mantissa(b, start, end) else { return nil }
        return scale == 0 ? Double(mantissa) : Double(mantissa) / power10(scale)
    }

    /// The digits as one integer and the count of digits after the point (at most 18 digits
    /// total: further decimals are ignored, further integer digits are not a GPS value). Two
    /// loops, the integer digits then the decimals, instead of one asking at every byte
    /// whether the point was seen.
    @inline(__always)
    static func mantissa(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (Int64, Int)? {
        var i = start
        guard i < end else { return nil }
        var negative = false
        if b[i] == UInt8(ascii: "-") { negative = true; i += 1 } else if b[i] == UInt8(ascii: "+") { i += 1 }
        var m: Int64 = 0
        var digits = 0
        while i < end {
            let d = b[i] &- UInt8(ascii: "0")
            guard d < 10 else { break }
            guard digits < 18 else { return nil }  // too many integer digits to be a GPS value
            m = m &* 10 &+ Int64(d)
            digits += 1
            i += 1
        }
        var scale = 0
        if i < end {
            guard b[i] == UInt8(ascii: ".") else { return nil }
            i += 1
            while i < end {
                let d = b[i] &- UInt8(ascii: "0")
                guard d < 10 else { return nil }
                if digits < 18 {
                    m = m &* 10 &+ Int64(d)
                    digits += 1
                    scale += 1
                }
                i += 1
            }
        }
        guard digits > 0 else { return nil }
        return (negative ? -m : m, scale)
    }

    /// A non-negative integer field (no sign, no point).
    @inline(__always)
    static func integer(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        guard start < end, end - start <= 9 else { return nil }
        var v = 0
        for i in start..<end {
            let d = b[i] &- UInt8(ascii: "0")
            guard d < 10 else { return nil }
            v = v * 10 + Int(d)
        }
        return v
    }

    /// `hhmmss[.s...]` as microseconds since midnight. nil if absent or out of range.
    static func timeOfDay(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int64? {
        guard end - start >= 6 else { return nil }
        guard let h = integer(b, start, start + 2), let m = integer(b, start + 2, start + 4),
              let s = integer(b, start + 4, start + 6), h < 24, m < 60, s <= 60 else { return nil }
        var micros: Int64 = 0
        if end > start + 6 {
            guard b[start + 6] == UInt8(ascii: ".") else { return nil }
            var scale: Int64 = 100_000
            var i = start + 7
            while i < end {
                let d = b[i] &- UInt8(ascii: "0")
                guard d < 10 else { return nil }
                micros += Int64(d) * scale
                scale /= 10
                i += 1
            }
        }
        return Int64(h * 3600 + m * 60 + s) * 1_000_000 + micros
    }

    /// An NMEA `(d)ddmm.mmmm` angle and its hemisphere letter as signed degrees.
    /// `positive`/`negative` are the hemisphere letters (N/S or E/W); `maxDegrees` 90 or 180.
    static func angle(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, hemisphere h: Int, _ hEnd: Int,
                      positive: UInt8, negative: UInt8, maxDegrees: Int64) -> Double? {
        guard hEnd - h == 1, let (m, scale) = mantissa(b, start, end), m >= 0, scale <= 12 else { return nil }
        let unit = Int64(power10(scale))
        let whole = m / unit           // dddmm
        let degrees = whole / 100
        let minutesScaled = m - degrees * 100 * unit  // mm.mmmm * unit
        guard degrees <= maxDegrees, minutesScaled < 60 * unit else { return nil }
        let value = Double(degrees) + Double(minutesScaled) / (Double(unit) * 60)
        guard value <= Double(maxDegrees) else { return nil }
        switch b[h] {
        case positive: return value
        case negative: return -value
        default: return nil
        }
    }
}
