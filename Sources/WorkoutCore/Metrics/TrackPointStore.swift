/// The points of a workout in progress, stored compactly, one row per point, without losing a
/// bit: reading a point back gives exactly the `TrackPoint` that was appended.
///
/// A `TrackPoint` in an array takes 160 bytes (a `Fix` of optionals plus the rejection and the
/// segment); a 24-hour 1 Hz workout is 86,400 of them. Here a point is a 56-byte `Row`:
/// - time, latitude and longitude: `Double` (8 bytes each, as they are);
/// - altitude, speed, course, HDOP and horizontal accuracy: thousandths in an `Int32` while the
///   value is a decimal with at most 3 places (what receivers, gpsd and the feed send);
/// - satellites, heart rate, cadence, power, temperature: `Int16` while they fit;
/// - mode, quality and rejection reason packed in 2 bytes; the segment as runs.
/// The first value of a column that does not fit its slot moves that whole column aside, at full
/// width (`WideColumns`); appending checks one row array, not a capacity per column.
public struct TrackPointStore: RandomAccessCollection, Sendable, Equatable {
    public typealias Index = Int
    public typealias Element = TrackPoint

    private var rows: [Row] = []
    /// The segment of every point as runs: run k covers points `runStart[k] ..< runStart[k + 1]`.
    private var runStart: [Int] = []
    private var runSegment: [Int] = []
    private var wide = WideColumns()

    public init() {}

    public init<S: Sequence>(_ points: S) where S.Element == TrackPoint {
        for p in points { append(p) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { rows.count }

    public subscript(i: Int) -> TrackPoint {
        precondition(i >= 0 && i < rows.count, "TrackPointStore index out of range")
        return point(rows[i], at: i, segment: segment(at: i))
    }

    /// Time of point `i` (without building the point).
    public func time(at i: Int) -> Double { rows[i].time }

    private func segment(at i: Int) -> Int {
        // Binary search for the last run starting at or before i (runs are few).
        var lo = 0, hi = runStart.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if runStart[mid] <= i { lo = mid } else { hi = mid - 1 }
        }
        return runSegment[lo]
    }

    private static let qualities = FixQuality.allCases
    private static let reasons = RejectionReason.allCases

    private static func code(_ q: FixQuality?) -> UInt16 {
        guard let q else { return 0 }
        switch q {
        case .invalid: return 1
        case .gps: return 2
        case .dgps: return 3
        case .pps: return 4
        case .rtkFixed: return 5
        case .rtkFloat: return 6
        case .estimated: return 7
        case .manual: return 8
        case .simulated: return 9
        }
    }

    private static func code(_ r: RejectionReason?) -> UInt16 {
        guard let r else { return 0 }
        switch r {
        case .noFix: return 1
        case .lowAccuracy: return 2
        case .nullIsland: return 3
        case .warmUp: return 4
        case .tooFast: return 5
        case .outOfOrder: return 6
        case .stationaryJitter: return 7
        case .invalidPosition: return 8
        case .late: return 9
        case .timeOutlier: return 10
        }
    }

    public mutating func append(_ p: TrackPoint) {
        append(p.fix, rejection: p.rejection, segment: p.segment)
    }

    /// `append(TrackPoint(fix:rejection:segment:))` without building the point (the recorder's
    /// per-fix path).
    public mutating func append(_ f: Fix, rejection: RejectionReason?, segment: Int) {
        if runSegment.last != segment { runStart.append(rows.count); runSegment.append(segment) }
        var misfits: UInt16 = 0
        let code = UInt16(truncatingIfNeeded: f.mode.rawValue) & 0xF | TrackPointStore.code(f.quality) << 4
            | TrackPointStore.code(rejection) << 8
        rows.append(Row(time: f.time, latitude: f.latitude, longitude: f.longitude,
                        altitude: Row.milli(f.altitude, .altitude, &misfits), speed: Row.milli(f.speed, .speed, &misfits),
                        course: Row.milli(f.course, .course, &misfits), hdop: Row.milli(f.hdop, .hdop, &misfits),
                        accuracy: Row.milli(f.horizontalAccuracy, .accuracy, &misfits),
                        satellites: Row.small(f.satellites, .satellites, &misfits),
                        heartRate: Row.small(f.heartRate, .heartRate, &misfits), cadence: Row.small(f.cadence, .cadence, &misfits),
                        power: Row.small(f.power, .power, &misfits), temperature: Row.small(f.temperature, .temperature, &misfits),
                        code: code))
        if misfits | wide.mask != 0 { wide.append(f, misfits: misfits, rows: rows) }
    }

    /// Room for `n` points in all (an import knows its count).
    public mutating func reserveCapacity(_ n: Int) {
        rows.reserveCapacity(n)
        wide.reserveCapacity(n)
    }

    /// Every point as an array (what a finished `Workout` holds), run by run.
    public func toArray() -> [TrackPoint] {
        let n = rows.count
        return rows.withUnsafeBufferPointer { rs in
            [TrackPoint](unsafeUninitializedCapacity: n) { out, initialized in
                for run in runStart.indices {
                    let end = run + 1 < runStart.count ? runStart[run + 1] : n
                    let segment = runSegment[run]
                    for i in runStart[run] ..< end {
                        (out.baseAddress! + i).initialize(to: point(rs[i], at: i, segment: segment))
                    }
                }
                initialized = n
            }
        }
    }

    /// Walks the segment runs alongside the points (no search per point).
    public struct Iterator: IteratorProtocol {
        let store: TrackPointStore
        var i = 0
        var run = 0
        var runEnd = 0
        var segment = 0

        public mutating func next() -> TrackPoint? {
            guard i < store.count else { return nil }
            while i >= runEnd {
                segment = store.runSegment[run]
                run += 1
                runEnd = run < store.runStart.count ? store.runStart[run] : store.count
            }
            let p = store.point(store.rows[i], at: i, segment: segment)
            i += 1
            return p
        }
    }

    public func makeIterator() -> Iterator { Iterator(store: self) }

    /// Point `i` from its row (and the wide columns, if any).
    @inline(__always)
    private func point(_ r: Row, at i: Int, segment: Int) -> TrackPoint {
        let q = Int((r.code >> 4) & 0xF), c = Int((r.code >> 8) & 0xF)
        var fix = Fix(time: r.time, latitude: r.latitude, longitude: r.longitude,
                      altitude: Row.decimal(r.altitude), speed: Row.decimal(r.speed), course: Row.decimal(r.course),
                      mode: FixMode(rawValue: Int(r.code & 0xF)) ?? .noFix,
                      quality: q == 0 ? nil : TrackPointStore.qualities[q - 1],
                      satellites: Row.int(r.satellites), hdop: Row.decimal(r.hdop), horizontalAccuracy: Row.decimal(r.accuracy),
                      heartRate: Row.int(r.heartRate), cadence: Row.int(r.cadence), power: Row.int(r.power),
                      temperature: Row.int(r.temperature))
        if wide.mask != 0 { wide.restore(&fix, at: i) }
        return TrackPoint(fix: fix, rejection: c == 0 ? nil : TrackPointStore.reasons[c - 1], segment: segment)
    }

    public static func == (a: TrackPointStore, b: TrackPointStore) -> Bool { a.elementsEqual(b) }
}

/// The optional columns of a point (their bit in `WideColumns.mask`: `1 << rawValue`).
enum PointColumn: Int, CaseIterable {
    case altitude, speed, course, hdop, accuracy, satellites, heartRate, cadence, power, temperature

    var bit: UInt16 { 1 << UInt16(rawValue) }

    /// The bits of the `Double?` columns (altitude ... accuracy) and of the `Int?` ones.
    static let decimalBits: UInt16 = 0b00000_11111
    static let intBits: UInt16 = 0b11111_00000

    func decimal(_ f: Fix) -> Double? {
        switch self {
        case .altitude: return f.altitude
        case .speed: return f.speed
        case .course: return f.course
        case .hdop: return f.hdop
        case .accuracy: return f.horizontalAccuracy
        case .satellites, .heartRate, .cadence, .power, .temperature: return nil
        }
    }

    func int(_ f: Fix) -> Int? {
        switch self {
        case .satellites: return f.satellites
        case .heartRate: return f.heartRate
        case .cadence: return f.cadence
        case .power: return f.power
        case .temperature: return f.temperature
        case .altitude, .speed, .course, .hdop, .accuracy: return nil
        }
    }

    func setDecimal(_ v: Double?, in f: inout Fix) {
        switch self {
        case .altitude: f.altitude = v
        case .speed: f.speed = v
        case .course: f.course = v
        case .hdop: f.hdop = v
        case .accuracy: f.horizontalAccuracy = v
        case .satellites, .heartRate, .cadence, .power, .temperature: break
        }
    }

    func setInt(_ v: Int?, in f: inout Fix) {
        switch self {
        case .satellites: f.satellites = v
        case .heartRate: f.heartRate = v
        case .cadence: f.cadence = v
        case .power: f.power = v
        case .temperature: f.temperature = v
        case .altitude, .speed, .course, .hdop, .accuracy: break
        }
    }

    /// The compact slot of the column in a row, widened back to its value.
    func compactDecimal(_ r: Row) -> Double? {
        switch self {
        case .altitude: return Row.decimal(r.altitude)
        case .speed: return Row.decimal(r.speed)
        case .course: return Row.decimal(r.course)
        case .hdop: return Row.decimal(r.hdop)
        case .accuracy: return Row.decimal(r.accuracy)
        case .satellites, .heartRate, .cadence, .power, .temperature: return nil
        }
    }

    func compactInt(_ r: Row) -> Int? {
        switch self {
        case .satellites: return Row.int(r.satellites)
        case .heartRate: return Row.int(r.heartRate)
        case .cadence: return Row.int(r.cadence)
        case .power: return Row.int(r.power)
        case .temperature: return Row.int(r.temperature)
        case .altitude, .speed, .course, .hdop, .accuracy: return nil
        }
    }
}

/// One point of a `TrackPointStore`: 56 bytes, nothing boxed.
struct Row: Sendable {
    var time: Double
    var latitude: Double
    var longitude: Double
    /// Thousandths (`nilMilli` = nil); meaningless once the column is wide.
    var altitude: Int32
    var speed: Int32
    var course: Int32
    var hdop: Int32
    var accuracy: Int32
    /// `Int16.min` = nil; meaningless once the column is wide.
    var satellites: Int16
    var heartRate: Int16
    var cadence: Int16
    var power: Int16
    var temperature: Int16
    /// Bits 0-3: mode (raw value), 4-7: quality (index + 1, 0 = nil), 8-11: rejection (index + 1,
    /// 0 = nil). A mode outside 0...15 cannot exist (three cases).
    var code: UInt16

    static let nilMilli = Int32.min

    /// Thousandths of `v` if they give `v` back exactly (and `v` is not -0.0), else nil.
    @inline(__always)
    static func thousandths(_ v: Double) -> Int32? {
        let s = v * 1000
        guard s.magnitude < 2_000_000_000 else { return nil }  // also false for NaN
        // Nearest by one truncating conversion, not a call to libm's `round`; a rounding slip
        // (ties, which no three-place decimal has) only fails the exactness check below.
        let k = Int32(s + (s < 0 ? -0.5 : 0.5))
        guard Double(k) / 1000 == v, v != 0 || v.sign == .plus else { return nil }
        return k
    }

    /// The slot for `v`, or 0 with the column's bit set in `misfits` when it does not fit.
    @inline(__always)
    static func milli(_ v: Double?, _ column: PointColumn, _ misfits: inout UInt16) -> Int32 {
        guard let v else { return nilMilli }
        if let k = thousandths(v) { return k }
        misfits |= column.bit
        return 0
    }

    @inline(__always)
    static func small(_ v: Int?, _ column: PointColumn, _ misfits: inout UInt16) -> Int16 {
        guard let v else { return Int16.min }
        if v > Int(Int16.min), v <= Int(Int16.max) { return Int16(truncatingIfNeeded: v) }
        misfits |= column.bit
        return 0
    }

    @inline(__always)
    static func decimal(_ k: Int32) -> Double? { k == nilMilli ? nil : Double(k) / 1000 }

    @inline(__always)
    static func int(_ k: Int16) -> Int? { k == Int16.min ? nil : Int(k) }
}

/// The columns of a `TrackPointStore` that stopped fitting their compact slot, at full width for
/// every point (`mask` says which). Rare for most columns, but some are wide from their first
/// value: a FIT altitude (`x / 5 - 500`), an accuracy computed from HDOP. The wide decimal
/// columns of point i are the words `words[i * stride ..< (i + 1) * stride]`, in column order
/// (bit patterns, nil as one NaN pattern no arithmetic produces): one append per column, no
/// array per column. Wide integer columns (a value beyond `Int16`) are `Int?` arrays.
struct WideColumns: Sendable {
    private(set) var mask: UInt16 = 0
    private var words: [UInt64] = []
    /// Wide decimal columns (words per point).
    private var stride = 0
    /// Indexed by `PointColumn.rawValue`; empty until the first integer column goes wide.
    private var ints: [[Int?]] = []
    private var reserved = 0
    private static let nilBits: UInt64 = 0x7FF8_DEAD_BEEF_0001

    mutating func reserveCapacity(_ n: Int) {
        reserved = n
        words.reserveCapacity(n * stride)
        for c in PointColumn.allCases where mask & PointColumn.intBits & c.bit != 0 { ints[c.rawValue].reserveCapacity(n) }
    }

    /// Appends the wide columns of the point just appended as the last of `rows`, first moving
    /// aside every column in `misfits` that was still compact.
    mutating func append(_ f: Fix, misfits: UInt16, rows: [Row]) {
        let fresh = misfits & ~mask
        if fresh != 0 { widen(fresh, rows: rows.dropLast()) }
        var todo = mask & PointColumn.decimalBits
        while todo != 0 {
            let c = PointColumn(rawValue: todo.trailingZeroBitCount)!
            todo &= todo - 1
            words.append(c.decimal(f).map(\.bitPattern) ?? WideColumns.nilBits)
        }
        todo = mask & PointColumn.intBits
        while todo != 0 {
            let c = PointColumn(rawValue: todo.trailingZeroBitCount)!
            todo &= todo - 1
            ints[c.rawValue].append(c.int(f))
        }
    }

    /// Adds the columns in `fresh` to the wide ones, with the values `rows` hold compactly.
    private mutating func widen(_ fresh: UInt16, rows: ArraySlice<Row>) {
        let old = mask
        mask |= fresh
        let decimals = mask & PointColumn.decimalBits
        if fresh & PointColumn.decimalBits != 0 {
            let newStride = decimals.nonzeroBitCount
            var w: [UInt64] = []
            w.reserveCapacity(Swift.max(reserved, 16, rows.count * 2) * newStride)
            for (i, r) in rows.enumerated() {
                var k = i * stride
                var todo = decimals
                while todo != 0 {
                    let c = PointColumn(rawValue: todo.trailingZeroBitCount)!
                    todo &= todo - 1
                    if old & c.bit != 0 {
                        w.append(words[k])
                        k += 1
                    } else {
                        w.append(c.compactDecimal(r).map(\.bitPattern) ?? WideColumns.nilBits)
                    }
                }
            }
            words = w
            stride = newStride
        }
        var todo = fresh & PointColumn.intBits
        while todo != 0 {
            let c = PointColumn(rawValue: todo.trailingZeroBitCount)!
            todo &= todo - 1
            if ints.isEmpty { ints = Array(repeating: [], count: PointColumn.allCases.count) }
            var d: [Int?] = []
            d.reserveCapacity(Swift.max(reserved, 16, rows.count * 2))
            for r in rows { d.append(c.compactInt(r)) }
            ints[c.rawValue] = d
        }
    }

    /// Sets the wide columns of point `i` in `f`.
    func restore(_ f: inout Fix, at i: Int) {
        var k = i * stride
        var todo = mask & PointColumn.decimalBits
        while todo != 0 {
            let c = PointColumn(rawValue: todo.trailingZeroBitCount)!
            todo &= todo - 1
            let b = words[k]
            k += 1
            c.setDecimal(b == WideColumns.nilBits ? nil : Double(bitPattern: b), in: &f)
        }
        todo = mask & PointColumn.intBits
        while todo != 0 {
            let c = PointColumn(rawValue: todo.trailingZeroBitCount)!
            todo &= todo - 1
            c.setInt(ints[c.rawValue][i], in: &f)
        }
    }
}
