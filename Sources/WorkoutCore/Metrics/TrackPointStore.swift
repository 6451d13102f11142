/// The points of a workout in progress, stored by column and compactly, without losing a bit:
/// reading a point back gives exactly the `TrackPoint` that was appended.
///
/// A `TrackPoint` in an array takes 160 bytes (a `Fix` of optionals plus the rejection and the
/// segment); a 24-hour 1 Hz workout is 86,400 of them. Here a point takes about 52 bytes:
/// - time, latitude and longitude: `Double` (8 bytes each, as they are);
/// - altitude, speed, course, HDOP and horizontal accuracy: `DecimalColumn`, 4 bytes while every
///   value is a decimal with at most 3 places (what receivers, gpsd and the feed send), else 8;
/// - satellites, heart rate, cadence, power, temperature: `SmallIntColumn`, 2 bytes while they fit, else 16;
/// - mode, quality and rejection reason packed in 2 bytes; the segment as runs.
public struct TrackPointStore: RandomAccessCollection, Sendable, Equatable {
    public typealias Index = Int
    public typealias Element = TrackPoint

    private var time: [Double] = []
    private var latitude: [Double] = []
    private var longitude: [Double] = []
    private var altitude = DecimalColumn()
    private var speed = DecimalColumn()
    private var course = DecimalColumn()
    private var hdop = DecimalColumn()
    private var accuracy = DecimalColumn()
    private var satellites = SmallIntColumn()
    private var heartRate = SmallIntColumn()
    private var cadence = SmallIntColumn()
    private var power = SmallIntColumn()
    private var temperature = SmallIntColumn()
    /// Bits 0-3: mode (raw value), 4-7: quality (index + 1, 0 = nil), 8-11: rejection (index + 1,
    /// 0 = nil). A mode outside 0...15 cannot exist (three cases).
    private var codes: [UInt16] = []
    /// The segment of every point as runs: run k covers points `runStart[k] ..< runStart[k + 1]`.
    private var runStart: [Int] = []
    private var runSegment: [Int] = []

    public init() {}

    public init<S: Sequence>(_ points: S) where S.Element == TrackPoint {
        for p in points { append(p) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { time.count }

    public subscript(i: Int) -> TrackPoint {
        precondition(i >= 0 && i < time.count, "TrackPointStore index out of range")
        var p = self[unchecked: i]
        p.segment = segment(at: i)
        return p
    }

    /// Time of point `i` (without building the point).
    public func time(at i: Int) -> Double { time[i] }

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
        }
    }

    public mutating func append(_ p: TrackPoint) {
        append(p.fix, rejection: p.rejection, segment: p.segment)
    }

    /// `append(TrackPoint(fix:rejection:segment:))` without building the point (the recorder's
    /// per-fix path).
    public mutating func append(_ f: Fix, rejection: RejectionReason?, segment: Int) {
        if runSegment.last != segment { runStart.append(time.count); runSegment.append(segment) }
        time.append(f.time)
        latitude.append(f.latitude)
        longitude.append(f.longitude)
        altitude.append(f.altitude)
        speed.append(f.speed)
        course.append(f.course)
        hdop.append(f.hdop)
        accuracy.append(f.horizontalAccuracy)
        satellites.append(f.satellites)
        heartRate.append(f.heartRate)
        cadence.append(f.cadence)
        power.append(f.power)
        temperature.append(f.temperature)
        codes.append(UInt16(truncatingIfNeeded: f.mode.rawValue) & 0xF | TrackPointStore.code(f.quality) << 4
                     | TrackPointStore.code(rejection) << 8)
    }

    /// Room for `n` points in all in every column (an import knows its count).
    public mutating func reserveCapacity(_ n: Int) {
        time.reserveCapacity(n); latitude.reserveCapacity(n); longitude.reserveCapacity(n)
        altitude.reserveCapacity(n); speed.reserveCapacity(n); course.reserveCapacity(n)
        hdop.reserveCapacity(n); accuracy.reserveCapacity(n)
        satellites.reserveCapacity(n); heartRate.reserveCapacity(n); cadence.reserveCapacity(n)
        power.reserveCapacity(n); temperature.reserveCapacity(n)
        codes.reserveCapacity(n)
    }

    /// Every point as an array (what a finished `Workout` holds).
    public func toArray() -> [TrackPoint] { Array(self) }

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
            var p = store[unchecked: i]
            p.segment = segment
            i += 1
            return p
        }
    }

    public func makeIterator() -> Iterator { Iterator(store: self) }

    /// The point without its segment (callers set it): avoids the run search in `toArray`.
    private subscript(unchecked i: Int) -> TrackPoint {
        let c = codes[i]
        let q = Int((c >> 4) & 0xF), r = Int((c >> 8) & 0xF)
        let fix = Fix(time: time[i], latitude: latitude[i], longitude: longitude[i],
                      altitude: altitude[i], speed: speed[i], course: course[i],
                      mode: FixMode(rawValue: Int(c & 0xF)) ?? .noFix,
                      quality: q == 0 ? nil : TrackPointStore.qualities[q - 1],
                      satellites: satellites[i], hdop: hdop[i], horizontalAccuracy: accuracy[i],
                      heartRate: heartRate[i], cadence: cadence[i], power: power[i], temperature: temperature[i])
        return TrackPoint(fix: fix, rejection: r == 0 ? nil : TrackPointStore.reasons[r - 1], segment: 0)
    }

    public static func == (a: TrackPointStore, b: TrackPointStore) -> Bool { a.elementsEqual(b) }
}

/// A column of `Double?` that holds each value as thousandths in an `Int32` (4 bytes) while
/// every value is exactly `Double(k) / 1000` for an integer k (any decimal with at most three
/// places, written or parsed correctly rounded); the first value that is not makes the column
/// switch to full `Double`s (8 bytes; nil as one NaN bit pattern). Lossless either way.
struct DecimalColumn: Sendable {
    private var milli: [Int32] = []
    private var full: [UInt64]?
    private static let nilMilli = Int32.min
    /// A quiet NaN with a payload no arithmetic produces: marks nil in `full`.
    private static let nilBits: UInt64 = 0x7FF8_DEAD_BEEF_0001

    subscript(i: Int) -> Double? {
        if let full {
            let b = full[i]
            return b == DecimalColumn.nilBits ? nil : Double(bitPattern: b)
        }
        let k = milli[i]
        return k == DecimalColumn.nilMilli ? nil : Double(k) / 1000
    }

    /// Thousandths of `v` if they give `v` back exactly (and `v` is not -0.0), else nil.
    @inline(__always)
    static func thousandths(_ v: Double) -> Int32? {
        let s = v * 1000
        guard s.magnitude < 2_000_000_000 else { return nil }  // also false for NaN
        let k = s.rounded()
        guard k / 1000 == v, v != 0 || v.sign == .plus else { return nil }
        return Int32(k)
    }

    mutating func reserveCapacity(_ n: Int) {
        if full != nil { full!.reserveCapacity(n) } else { milli.reserveCapacity(n) }
    }

    mutating func append(_ v: Double?) {
        if full != nil {
            full!.append(v.map(\.bitPattern) ?? DecimalColumn.nilBits)
            return
        }
        guard let v else { milli.append(DecimalColumn.nilMilli); return }
        if let k = DecimalColumn.thousandths(v) { milli.append(k); return }
        var f = [UInt64]()
        f.reserveCapacity(Swift.max(16, milli.count * 2))
        for k in milli { f.append(k == DecimalColumn.nilMilli ? DecimalColumn.nilBits : (Double(k) / 1000).bitPattern) }
        f.append(v.bitPattern)
        milli = []
        full = f
    }
}

/// A column of `Int?` as `Int16` (Int16.min = nil) while every value fits, else `Int?`.
struct SmallIntColumn: Sendable {
    private var small: [Int16] = []
    private var full: [Int?]?

    subscript(i: Int) -> Int? {
        if let full { return full[i] }
        let k = small[i]
        return k == Int16.min ? nil : Int(k)
    }

    mutating func reserveCapacity(_ n: Int) {
        if full != nil { full!.reserveCapacity(n) } else { small.reserveCapacity(n) }
    }

    mutating func append(_ v: Int?) {
        if full != nil { full!.append(v); return }
        guard let v else { small.append(Int16.min); return }
        if v > Int(Int16.min), v <= Int(Int16.max) { small.append(Int16(v)); return }
        var f = small.map { $0 == Int16.min ? nil : Int($0) } as [Int?]
        f.append(v)
        small = []
        full = f
    }
}
