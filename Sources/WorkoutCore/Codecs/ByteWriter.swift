/// Writes text bytes through a raw pointer into a caller's scratch buffer: the writers of saved
/// workouts, journal lines and GPX form one point in it and append it to their output at once
/// (`ByteWriter.append(to:)`), instead of appending byte by byte to an `Array` (a uniqueness
/// and capacity check per byte, ~5,000 instructions per point for the native file).
///
/// Every primitive first checks that its largest output fits (`room`), so writing past the
/// scratch buffer traps instead of corrupting memory; the callers size their scratch for the
/// largest point they can write (every field at its longest), so it never does.
///
/// Numbers: `fixed` is exactly the text of `formatFixed(_:decimals:)` (rounded half away from
/// zero, no exponent), `int` of `String(Int)`; digits are written two at a time.
struct ByteWriter {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    private(set) var count = 0

    /// The longest text of one primitive: a `Double`'s `description` (24 bytes), an `Int` (20),
    /// a fixed decimal (sign, 19 digits, point), with room to spare.
    static var maxNumberBytes: Int { 32 }

    @inline(__always)
    init(_ scratch: UnsafeMutableBufferPointer<UInt8>) {
        base = scratch.baseAddress!
        capacity = scratch.count
    }

    /// What was written so far.
    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Starts over at the beginning of the scratch buffer.
    @inline(__always) mutating func reset() { count = 0 }

    /// Traps when `n` more bytes would not fit (never, for a caller that sized its scratch).
    @inline(__always)
    mutating func room(_ n: Int) {
        precondition(count &+ n <= capacity, "ByteWriter: scratch buffer too small")
    }

    /// Runs `body` with a writer on a stack buffer of `capacity` bytes, then appends what it
    /// wrote to `out` in one copy.
    @inline(__always)
    static func append(to out: inout [UInt8], capacity: Int, _ body: (inout ByteWriter) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
            var w = ByteWriter(scratch)
            body(&w)
            out.append(contentsOf: w.written)
        }
    }

    @inline(__always)
    mutating func byte(_ b: UInt8) {
        room(1)
        base[count] = b
        count &+= 1
    }

    /// Markup or a literal (`null`), as is.
    @inline(__always)
    mutating func literal(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        room(n)
        (base + count).update(from: s.utf8Start, count: n)
        count &+= n
    }

    @inline(__always)
    mutating func bytes(_ b: UnsafeBufferPointer<UInt8>) {
        room(b.count)
        if let p = b.baseAddress { (base + count).update(from: p, count: b.count) }
        count &+= b.count
    }

    /// A string's UTF-8 bytes as they are (no escaping: enum raw values, plain ASCII).
    @inline(__always)
    mutating func utf8(_ s: String) {
        var s = s
        s.withUTF8 { bytes($0) }
    }

    /// "00" "01" ... "99": the two digits of every value below 100.
    @inline(__always)
    private static var digitPairs: UnsafePointer<UInt8> {
        let pairs: StaticString = """
            0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
            5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
            """
        return pairs.utf8Start
    }

    /// How many decimal digits `v` has (1 for 0).
    @inline(__always)
    static func digitCount(_ v: UInt64) -> Int {
        var n = 1
        var rest = v
        while rest >= 10_000 { rest /= 10_000; n &+= 4 }
        if rest >= 100 { rest /= 100; n &+= 2 }
        if rest >= 10 { n &+= 1 }
        return n
    }

    /// `v` in exactly `width` digits, written backwards from the end, two at a time; the caller
    /// knows `v < 10^width` (leading zeros are written when it has fewer digits).
    @inline(__always)
    private mutating func digits(_ v: UInt64, width: Int) {
        let pairs = ByteWriter.digitPairs
        var rest = v
        var k = count &+ width
        while k &- count >= 2 {
            let two = Int(truncatingIfNeeded: rest % 100)
            rest /= 100
            k &-= 2
            base[k] = pairs[2 &* two]
            base[k &+ 1] = pairs[2 &* two &+ 1]
        }
        if k > count { base[count] = UInt8(truncatingIfNeeded: 48 &+ rest % 10) }
        count &+= width
    }

    /// `v` in decimal.
    @inline(__always)
    mutating func unsigned(_ v: UInt64) {
        room(20)
        digits(v, width: ByteWriter.digitCount(v))
    }

    /// `v` in exactly two digits (`v` < 100).
    @inline(__always)
    mutating func twoDigits(_ v: Int) {
        room(2)
        let pairs = ByteWriter.digitPairs
        base[count] = pairs[2 &* v]
        base[count &+ 1] = pairs[2 &* v &+ 1]
        count &+= 2
    }

    /// `v` in decimal, left-padded with zeros to `width` digits when it has fewer (at most 20).
    @inline(__always)
    mutating func unsigned(_ v: UInt64, minimumWidth width: Int) {
        room(20)
        digits(v, width: max(ByteWriter.digitCount(v), min(width, 20)))
    }

    /// `String(v)`.
    @inline(__always)
    mutating func int(_ v: Int) {
        room(21)
        if v < 0 { base[count] = UInt8(ascii: "-"); count &+= 1 }
        let m = UInt64(v.magnitude)
        digits(m, width: ByteWriter.digitCount(m))
    }

    /// 10^d as a Double and an integer (d in 0...19); folds to constants when `d` is one.
    @inline(__always)
    static func scale(_ d: Int) -> (Double, UInt64) {
        var s: UInt64 = 1
        var k = 0
        while k < d { s &*= 10; k &+= 1 }
        return (Double(s), s)
    }

    /// `formatFixed(value, decimals:)`: exactly `decimals` (0...19) digits after the point, the
    /// value rounded half away from zero, "0" for a value that is not finite, and
    /// `String(value)` when the scaled value reaches 9e18.
    ///
    /// Not inlined (a writer of 17 fields would outgrow the optimizer's limits and keep none of
    /// them inline); the decimals the writers use are dispatched to copies of `fixedCore`
    /// where they are constants (the divisions by 10^d become multiplications).
    @inline(never)
    mutating func fixed(_ value: Double, decimals d: Int) {
        switch d {
        case 2: fixedCore(value, 2)
        case 3: fixedCore(value, 3)
        case 9: fixedCore(value, 9)
        default:
            precondition(d >= 0 && d <= 19, "fixed: 0...19 decimals")
            fixedCore(value, d)
        }
    }

    @inline(__always)
    private mutating func fixedCore(_ value: Double, _ d: Int) {
        room(ByteWriter.maxNumberBytes)
        guard value.isFinite else { base[count] = UInt8(ascii: "0"); count &+= 1; return }
        let (scale, unit) = ByteWriter.scale(d)
        let x = Swift.abs(value) * scale
        if x >= 9.0e18 { huge(value); return }
        // `x.rounded(.toNearestOrAwayFromZero)` without the call into libm: below 2^52 both
        // `Double(n)` and `x - Double(n)` are exact, so the fraction decides; from 2^52 on x is
        // a whole number and the fraction is 0.
        // (Through Int64: x < 9e18 < 2^63, and the signed conversions are single instructions.)
        var i = Int64(x)
        if x - Double(i) >= 0.5 { i &+= 1 }
        let n = UInt64(i)
        if value < 0 && n != 0 { base[count] = UInt8(ascii: "-"); count &+= 1 }
        let whole = n / unit
        digits(whole, width: ByteWriter.digitCount(whole))
        if d > 0 {
            base[count] = UInt8(ascii: ".")
            count &+= 1
            digits(n &- whole &* unit, width: d)
        }
    }

    /// `formatFixed`'s text for a value whose scaled magnitude reaches 9e18: `String(value)`.
    @inline(never)
    private mutating func huge(_ value: Double) {
        utf8(String(value))
    }
}

/// The `YYYY-MM-DDT` text of the day a UTC time was last written for: consecutive track points
/// share their day, and the civil date is worked out once per day.
struct UTCDayText: Sendable {
    var day = Int.min
    var length = 0
    /// Up to 16 bytes (a year of up to 7 digits for the times `utcTime` writes).
    var text: (UInt64, UInt64) = (0, 0)
}

extension ByteWriter {
    /// The longest `utcTime`: a 7-digit year, the rest of the date and time, `.mmm` and `Z`.
    static var maxTimeBytes: Int { 40 }

    /// `seconds` since 1970 as `YYYY-MM-DDTHH:MM:SSZ`, with `.mmm` when the time rounded to the
    /// millisecond is not a whole second (`1970-01-01T00:00:00Z` when not finite or |t| >= 1e14).
    @inline(__always)
    mutating func utcTime(_ seconds: Double, _ cache: inout UTCDayText) {
        room(ByteWriter.maxTimeBytes)
        guard seconds.isFinite, Swift.abs(seconds) < 1e14 else { literal("1970-01-01T00:00:00Z"); return }
        // Milliseconds rounded half away from zero (|x| < 1e17: `Double(m)` and the fraction are
        // exact below 2^52, and x is whole above it).
        let x = seconds * 1000
        let a = Swift.abs(x)
        var m = UInt64(a)
        if a - Double(m) >= 0.5 { m &+= 1 }
        let ms = x < 0 ? -Int64(m) : Int64(m)
        var whole = ms / 1000
        var frac = ms % 1000
        if frac < 0 { frac += 1000; whole -= 1 }
        var day = whole / 86400
        var sod = whole % 86400
        if sod < 0 { sod += 86400; day -= 1 }
        if Int(day) != cache.day {
            let c = CivilTime.civilFromDays(Int(day))
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { scratch in
                var t = ByteWriter(scratch)
                t.unsigned(UInt64(max(c.year, 0)), minimumWidth: 4)
                t.byte(UInt8(ascii: "-"))
                t.twoDigits(c.month)
                t.byte(UInt8(ascii: "-"))
                t.twoDigits(c.day)
                t.byte(UInt8(ascii: "T"))
                cache.length = t.count
                withUnsafeMutableBytes(of: &cache.text) { $0.copyMemory(from: UnsafeRawBufferPointer(t.written)) }
            }
            cache.day = Int(day)
        }
        let n = cache.length
        withUnsafeBytes(of: cache.text) { UnsafeMutableRawPointer(base + count).copyMemory(from: $0.baseAddress!, byteCount: n) }
        count &+= n
        let s = Int(sod)
        twoDigits(s / 3600)
        byte(UInt8(ascii: ":"))
        twoDigits(s % 3600 / 60)
        byte(UInt8(ascii: ":"))
        twoDigits(s % 60)
        if frac != 0 {
            byte(UInt8(ascii: "."))
            unsigned(UInt64(frac), minimumWidth: 3)
        }
        byte(UInt8(ascii: "Z"))
    }
}
