/// The power workouts' whole curves kept between runs of the daemon (`power-curves.bin` in the
/// state directory), so the first `power-curve` after a start does not read and replay every
/// power workout's file again. A cache, never the truth: each entry names the summary it was
/// measured for (`PowerCurveKey`) and is used only while the workout's summary still has those
/// figures; a file that is not this format, or damaged anywhere, is ignored whole. Pure.
///
/// Layout (little-endian): `WPC1`, the entry count (u32); per entry the ID (u8 length, bytes),
/// the key (ended at, f64, NaN for none; point count, i64; activity, u8 length and bytes; work
/// in kJ and average power, f64, NaN for none), the point count (u16) and per point the
/// duration (u32 s), the watts (f64) and the start (f64).
public enum PowerCurveFile {
    public struct Entry: Sendable, Equatable {
        public var id: WorkoutID
        public var key: PowerCurveKey
        public var curve: [PowerCurvePoint]

        public init(id: WorkoutID, key: PowerCurveKey, curve: [PowerCurvePoint]) { self.id = id; self.key = key; self.curve = curve }
    }

    static let magic: [UInt8] = Array("WPC1".utf8)
    /// Most entries and points per entry read back (a damaged count asks for no more).
    static let maxEntries = 1 << 22, maxPoints = 4096

    public static func encode(_ entries: [Entry]) -> [UInt8] {
        var out = magic
        out.reserveCapacity(8 + entries.count * (80 + 20 * 32))
        func u(_ v: UInt64, _ bytes: Int) { for k in 0..<bytes { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(k)))) } }
        func f(_ v: Double?) { u((v ?? .nan).bitPattern, 8) }
        func s(_ v: String) { let b = Array(v.utf8.prefix(255)); out.append(UInt8(b.count)); out += b }
        u(UInt64(entries.count), 4)
        for e in entries {
            s(e.id.rawValue)
            f(e.key.endedAt); u(UInt64(bitPattern: Int64(e.key.pointCount)), 8); s(e.key.activity.rawValue)
            f(e.key.workKilojoules); f(e.key.averagePower)
            let points = e.curve.prefix(maxPoints)
            u(UInt64(points.count), 2)
            for p in points { u(UInt64(UInt32(clamping: p.seconds)), 4); f(p.watts); f(p.startTime) }
        }
        return out
    }

    /// The entries, or nil when `bytes` are not a whole file of this format.
    public static func decode(_ bytes: [UInt8]) -> [Entry]? {
        var i = 0
        func u(_ n: Int) -> UInt64? {
            guard n <= bytes.count - i else { return nil }
            var v: UInt64 = 0
            for k in 0..<n { v |= UInt64(bytes[i + k]) << (8 * UInt64(k)) }
            i += n
            return v
        }
        func f() -> Double?? { u(8).map { let d = Double(bitPattern: $0); return d.isNaN ? nil : d } }
        func s() -> String? {
            guard let n = u(1).map(Int.init), n <= bytes.count - i else { return nil }
            defer { i += n }
            return String(validating: bytes[i..<(i + n)], as: UTF8.self)
        }
        guard bytes.count >= 8, Array(bytes[0..<4]) == magic else { return nil }
        i = 4
        guard let count = u(4).map(Int.init), count <= maxEntries else { return nil }
        var out: [Entry] = []
        out.reserveCapacity(min(count, bytes.count / 40))
        for _ in 0..<count {
            guard let idText = s(), let id = WorkoutID(rawValue: idText), let ended = f(), let points = u(8),
                  let activityText = s(), let activity = ActivityType(rawValue: activityText), let work = f(), let power = f(),
                  let n = u(2).map(Int.init), n <= maxPoints else { return nil }
            var curve: [PowerCurvePoint] = []
            curve.reserveCapacity(n)
            for _ in 0..<n {
                guard let seconds = u(4), let watts = f(), let start = f(), let w = watts, let t = start else { return nil }
                curve.append(PowerCurvePoint(seconds: Int(seconds), watts: w, startTime: t))
            }
            let key = PowerCurveKey(endedAt: ended, pointCount: Int(Int64(bitPattern: points)), activity: activity, workKilojoules: work, averagePower: power)
            out.append(Entry(id: id, key: key, curve: curve))
        }
        return i == bytes.count ? out : nil
    }
}

/// What a workout's measured power curve was computed for: a summary with other figures is
/// another version of the workout, measured again.
public struct PowerCurveKey: Sendable, Equatable {
    public var endedAt: Double?
    public var pointCount: Int
    public var activity: ActivityType
    public var workKilojoules: Double?
    public var averagePower: Double?

    public init(endedAt: Double?, pointCount: Int, activity: ActivityType, workKilojoules: Double?, averagePower: Double?) {
        self.endedAt = endedAt; self.pointCount = pointCount; self.activity = activity
        self.workKilojoules = workKilojoules; self.averagePower = averagePower
    }

    /// At the precision the summary is saved with (the end to the millisecond, work and power
    /// to a tenth), so a summary just measured and the same one read back from the index after
    /// a restart have the same key.
    public init(_ s: WorkoutSummary) {
        self.init(endedAt: s.endedAt.map { ($0 * 1000).rounded() / 1000 }, pointCount: s.pointCount, activity: s.activity,
                  workKilojoules: s.workKilojoules.map { rounded($0, 1) }, averagePower: s.averagePower.map { rounded($0, 1) })
    }
}
