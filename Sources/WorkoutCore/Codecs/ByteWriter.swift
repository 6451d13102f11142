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

    /// The scratch buffer of `batched`.
    static var batchBytes: Int { 1 << 16 }

    /// Runs `body` with a writer on a scratch buffer of `batchBytes` bytes, for output written
    /// in pieces (points): `body` calls `flush(before:to:)` before each piece, which appends the
    /// scratch buffer's contents to `out` when the piece might not fit; what is left at the end
    /// is appended too. So the array is appended to once per batch rather than once per piece.
    static func batched(to out: inout [UInt8], _ body: (inout ByteWriter, inout [UInt8]) -> Void) {
        let scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: batchBytes)
        defer { scratch.deallocate() }
        var w = ByteWriter(scratch)
        body(&w, &out)
        out.append(contentsOf: w.written)
    }

    /// Before a piece of at most `n` bytes: appends what was written to `out` and starts over
    /// when the piece might not fit.
    @inline(__always)
    mutating func flush(before n: Int, to out: inout [UInt8]) {
        if count &+ n > capacity {
            out.append(contentsOf: written)
            count = 0
        }
    }

    /// Runs `body` with a cursor on the next `n` bytes, whose room is checked once here; `body`
    /// writes at most `n` bytes (one piece whose largest size is known, such as a track point).
    @inline(__always)
    mutating func piece(_ n: Int, _ body: (inout ByteCursor) -> Void) {
        room(n)
        var c = ByteCursor(p: base + count)
        body(&c)
        count = c.p - base
        precondition(count <= capacity, "ByteWriter: a piece outgrew its room")
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

    /// 10^k for k in 0...19 (a table lookup once optimized; 0 outside).
    @inline(__always)
    static func powerOf10(_ k: Int) -> UInt64 {
        switch k {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1_000
        case 4: return 10_000
        case 5: return 100_000
        case 6: return 1_000_000
        case 7: return 10_000_000
        case 8: return 100_000_000
        case 9: return 1_000_000_000
        case 10: return 10_000_000_000
        case 11: return 100_000_000_000
        case 12: return 1_000_000_000_000
        case 13: return 10_000_000_000_000
        case 14: return 100_000_000_000_000
        case 15: return 1_000_000_000_000_000
        case 16: return 10_000_000_000_000_000
        case 17: return 100_000_000_000_000_000
        case 18: return 1_000_000_000_000_000_000
        case 19: return 10_000_000_000_000_000_000
        default: return 0
        }
    }

    /// How many decimal digits `v` has (1 for 0): log2 from the leading zeros, times log10(2)
    /// (1233/4096), is the count or one less; one comparison with a power of ten settles it.
    @inline(__always)
    static func digitCount(_ v: UInt64) -> Int {
        let v1 = v | 1
        let t = ((64 &- v1.leadingZeroBitCount) &* 1233) &>> 12
        return v1 >= powerOf10(t) ? t &+ 1 : t
    }

    /// ceil(2^57 / 10^m) for m in 0...8 (see `digits9`).
    @inline(__always)
    static func reciprocal(_ m: Int) -> UInt64 {
        switch m {
        case 0: return 144_115_188_075_855_872
        case 1: return 14_411_518_807_585_588
        case 2: return 1_441_151_880_758_559
        case 3: return 144_115_188_075_856
        case 4: return 14_411_518_807_586
        case 5: return 1_441_151_880_759
        case 6: return 144_115_188_076
        case 7: return 14_411_518_808
        default: return 1_441_151_881
        }
    }

    /// `v` (< 10^k, k in 1...9) in exactly `k` digits at `p` (leading zeros when it has fewer),
    /// without a division: t = v * ceil(2^57 / 10^m) is v / 10^m in fixed point with 57 fraction
    /// bits (m = k-1 or k-2, whichever is even). Its integer part is the leading digit or pair;
    /// each further pair is the integer part of the fraction times 100. t / 2^57 exceeds
    /// v / 10^m by less than v / 2^57 < 10^k / 2^57 <= 10^-m (2^57 > 10^17 >= 10^(m+k)), too
    /// little to change any digit; t < 100 * 2^57 + 10^9 < 2^64. (Checked for every v < 10^9
    /// by the tests' `digitsOfEveryChunk`... in part, and by its proof here.)
    @inline(__always)
    static func digits9(_ v: UInt64, _ k: Int, _ p: UnsafeMutablePointer<UInt8>) {
        let pairs = UnsafeRawPointer(digitPairs)
        let out = UnsafeMutableRawPointer(p)
        let mask: UInt64 = (1 << 57) &- 1
        var t: UInt64
        var i: Int
        if k & 1 != 0 {
            t = v &* reciprocal(k &- 1)
            p[0] = 48 &+ UInt8(truncatingIfNeeded: t &>> 57)
            i = 1
        } else {
            t = v &* reciprocal(k &- 2)
            out.storeBytes(of: pairs.loadUnaligned(fromByteOffset: Int(truncatingIfNeeded: t &>> 57) &* 2, as: UInt16.self),
                           as: UInt16.self)
            i = 2
        }
        while i < k {
            t = (t & mask) &* 100
            out.storeBytes(of: pairs.loadUnaligned(fromByteOffset: Int(truncatingIfNeeded: t &>> 57) &* 2, as: UInt16.self),
                           toByteOffset: i, as: UInt16.self)
            i &+= 2
        }
    }

    /// `v` in decimal at `p`; returns how many digits that is.
    @inline(__always)
    static func decimal(_ v: UInt64, _ p: UnsafeMutablePointer<UInt8>) -> Int {
        if v < 100 {
            if v < 10 { p[0] = 48 &+ UInt8(truncatingIfNeeded: v); return 1 }
            digits9(v, 2, p)
            return 2
        }
        if v < 1_000_000_000 {
            let k = digitCount(v)
            digits9(v, k, p)
            return k
        }
        if v < 10_000_000_000 {
            // Ten digits (a time in seconds since 1970, 2001 to 2286): one, then nine.
            let hi = v / 1_000_000_000
            p[0] = 48 &+ UInt8(truncatingIfNeeded: hi)
            digits9(v &- hi &* 1_000_000_000, 9, p + 1)
            return 10
        }
        if v < 1_000_000_000_000_000_000 {
            let hi = v / 1_000_000_000
            let k = digitCount(hi)
            digits9(hi, k, p)
            digits9(v &- hi &* 1_000_000_000, 9, p + k)
            return k &+ 9
        }
        let k = digitCount(v)
        digitsWide(v, k, p)
        return k
    }

    /// `v` in exactly `k` digits (1...20) at `p`; the caller knows `v < 10^k` (leading zeros
    /// are written when it has fewer).
    @inline(__always)
    static func digits(_ v: UInt64, width k: Int, _ p: UnsafeMutablePointer<UInt8>) {
        if k <= 9 { digits9(v, k, p) } else { digitsWide(v, k, p) }
    }

    /// `digits` of 10...20 digits.
    @inline(never)
    static func digitsWide(_ v: UInt64, _ k: Int, _ p: UnsafeMutablePointer<UInt8>) {
        if k <= 18 {
            let hi = v / 1_000_000_000
            digits9(hi, k &- 9, p)
            digits9(v &- hi &* 1_000_000_000, 9, p + (k &- 9))
        } else {
            let hi = v / 1_000_000_000_000_000_000
            let low = v &- hi &* 1_000_000_000_000_000_000
            let mid = low / 1_000_000_000
            digits9(hi, k &- 18, p)
            digits9(mid, 9, p + (k &- 18))
            digits9(low &- mid &* 1_000_000_000, 9, p + (k &- 9))
        }
    }

    /// `v` in decimal.
    @inline(__always)
    mutating func unsigned(_ v: UInt64) {
        room(20)
        count &+= ByteWriter.decimal(v, base + count)
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
        let k = max(ByteWriter.digitCount(v), min(width, 20))
        ByteWriter.digits(v, width: k, base + count)
        count &+= k
    }

    /// `String(v)`.
    @inline(__always)
    mutating func int(_ v: Int) {
        room(20)
        var c = ByteCursor(p: base + count)
        c.int(v)
        count = c.p - base
    }

    /// `String(v)` at `p` (at most 20 bytes); returns the end.
    @inline(never)
    static func anyInt(_ v: Int, _ p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var q = p
        if v < 0 { q[0] = UInt8(ascii: "-"); q += 1 }
        return q + decimal(UInt64(v.magnitude), q)
    }

    /// `formatFixed(value, decimals:)`: exactly `decimals` (0...19) digits after the point, the
    /// value rounded half away from zero, "0" for a value that is not finite, and
    /// `String(value)` when the scaled value reaches 9e18. At most 32 bytes.
    @inline(__always)
    mutating func fixed(_ value: Double, decimals d: Int) {
        room(ByteWriter.maxNumberBytes)
        count = ByteWriter.fixed(value, d, base + count) - base
    }

    /// `formatFixed(value, decimals: d)` at `p` (at most 32 bytes); returns the end.
    ///
    /// The decimals the writers use go to copies of `fixedCore` where they are constants (the
    /// divisions by 10^d become multiplications, the digit loops unroll); those copies are not
    /// inlined (a writer of 17 fields would outgrow the optimizer's limits and keep none inline).
    @inline(__always)
    static func fixed(_ value: Double, _ d: Int, _ p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        switch d {
        case 2: return fixed2(value, p)
        case 3: return fixed3(value, p)
        case 9: return fixed9(value, p)
        default: return fixedAny(value, d, p)
        }
    }

    @inline(never) static func fixed2(_ v: Double, _ p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> { fixedCore(v, 2, p) }
    @inline(never) static func fixed3(_ v: Double, _ p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> { fixedCore(v, 3, p) }
    @inline(never) static func fixed9(_ v: Double, _ p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> { fixedCore(v, 9, p) }
    @inline(never) static func fixedAny(_ v: Double, _ d: Int, _ p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        precondition(d >= 0 && d <= 19, "fixed: 0...19 decimals")
        return fixedCore(v, d, p)
    }

    /// The scaled magnitude below which `fixedCore` rounds by adding 2^52 (above 2^52 - 1 the
    /// sum would reach 2^53 and lose its last bit).
    @inline(__always) static var fastFixedLimit: Double { 4.5e15 }

    @inline(__always)
    private static func fixedCore(_ value: Double, _ d: Int, _ start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let unit = powerOf10(d)
        let x = Swift.abs(value) * Double(unit)
        // Large, not finite (NaN fails the comparison too): the general path.
        guard x < fastFixedLimit else { return fixedLarge(value, d, start) }
        // `x.rounded(.toNearestOrAwayFromZero)` without the call into libm or a checked
        // conversion: below 2^52 - 1, x + 2^52 holds x rounded to the nearest whole number (ties
        // to even) in its low 52 bits; x - r is then exact and in [-0.5, 0.5], and only a tie
        // rounded down (x - r = 0.5) must go up to round half away from zero.
        let r = (x + 0x1p52).bitPattern & ((1 << 52) &- 1)
        let n = x - Double(Int64(bitPattern: r)) >= 0.5 ? r &+ 1 : r
        return fixedDigits(value < 0 && n != 0, n, d, start)
    }

    /// The text of the rounded scaled value `n`: sign, whole part, point, `d` decimals.
    @inline(__always)
    private static func fixedDigits(_ negative: Bool, _ n: UInt64, _ d: Int, _ start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var p = start
        if negative { p[0] = UInt8(ascii: "-"); p += 1 }
        let unit = powerOf10(d)
        let whole = n / unit
        p += decimal(whole, p)
        if d > 0 {
            p[0] = UInt8(ascii: ".")
            digits(n &- whole &* unit, width: d, p + 1)
            p += d &+ 1
        }
        return p
    }

    /// `fixedCore` for a scaled magnitude from 4.5e15 on (rounded through `Int64`, exact:
    /// above 2^52 x is whole), and for values that are not finite ("0") or whose scaled
    /// magnitude reaches 9e18 (`String(value)`, as `formatFixed`).
    @inline(never)
    private static func fixedLarge(_ value: Double, _ d: Int, _ start: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        guard value.isFinite else { start[0] = UInt8(ascii: "0"); return start + 1 }
        let x = Swift.abs(value) * Double(powerOf10(d))
        if x >= 9.0e18 {
            var text = String(value)
            return text.withUTF8 { b in
                precondition(b.count <= 32, "fixed: text too long")
                start.update(from: b.baseAddress!, count: b.count)
                return start + b.count
            }
        }
        var i = Int64(x)
        if x - Double(i) >= 0.5 { i &+= 1 }
        let n = UInt64(bitPattern: i)
        return fixedDigits(value < 0 && n != 0, n, d, start)
    }
}

/// Writes through a raw pointer with no room checks, for a piece whose largest size its writer
/// knows and had checked once (`ByteWriter.piece(_:_:)`): one track point of the native file.
/// Each primitive documents its largest output; a point's fields at their longest stay far
/// below the room checked (`WorkoutFile.maxPointBytes`).
struct ByteCursor {
    var p: UnsafeMutablePointer<UInt8>

    /// 1 byte.
    @inline(__always)
    mutating func byte(_ b: UInt8) {
        p.pointee = b
        p += 1
    }

    /// The literal's length.
    @inline(__always)
    mutating func literal(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        p.update(from: s.utf8Start, count: n)
        p += n
    }

    /// `"s"`: at most 34 bytes (longer text traps; enum raw values, plain ASCII, no escaping).
    @inline(__always)
    mutating func quoted(_ s: String) {
        var s = s
        s.withUTF8 { b in
            precondition(b.count <= 32, "ByteCursor: text too long")
            p[0] = UInt8(ascii: "\"")
            if let q = b.baseAddress { (p + 1).update(from: q, count: b.count) }
            p[b.count &+ 1] = UInt8(ascii: "\"")
            p += b.count &+ 2
        }
    }

    /// `String(v)`: at most 20 bytes. Small values (a point's mode, satellites, heart rate,
    /// cadence, segment) take a short inline path.
    @inline(__always)
    mutating func int(_ v: Int) {
        let u = UInt64(bitPattern: Int64(v))
        if u < 10 {
            p[0] = 48 &+ UInt8(truncatingIfNeeded: u)
            p += 1
        } else if u < 100 {
            ByteWriter.digits9(u, 2, p)
            p += 2
        } else if u < 1000 {
            ByteWriter.digits9(u, 3, p)
            p += 3
        } else {
            p = ByteWriter.anyInt(v, p)
        }
    }

    /// `formatFixed(value, decimals: d)` (d in 0...19): at most 32 bytes (`ByteWriter.fixed`).
    @inline(__always)
    mutating func fixed(_ value: Double, decimals d: Int) {
        p = ByteWriter.fixed(value, d, p)
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
    /// `open`, the integer, `close`: one element of a number (`<sat>`, `<gpxtpx:hr>`).
    mutating func element(_ open: StaticString, int v: Int, _ close: StaticString) {
        literal(open)
        int(v)
        literal(close)
    }

    /// `open`, the number with `decimals` digits, `close`.
    mutating func element(_ open: StaticString, fixed v: Double, decimals: Int, _ close: StaticString) {
        literal(open)
        fixed(v, decimals: decimals)
        literal(close)
    }

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
