import Testing
@testable import WorkoutCore

/// The recorder's compact point store gives back exactly what was appended.
@Suite struct TrackPointStoreTests {
    static func point(_ k: Int, decimals: Bool, rng: inout SeededRandom) -> TrackPoint {
        func value(_ range: ClosedRange<Double>) -> Double? {
            if Int.random(in: 0..<5, using: &rng) == 0 { return nil }
            let v = Double.random(in: range, using: &rng)
            // Decimals as receivers send them (parsed text), or any Double.
            return decimals ? Double(Int((v * 1000).rounded())) / 1000 : v
        }
        func int(_ range: ClosedRange<Int>) -> Int? { Int.random(in: 0..<5, using: &rng) == 0 ? nil : Int.random(in: range, using: &rng) }
        let fix = Fix(time: 1_700_000_000 + Double(k) * 0.1, latitude: Double.random(in: -90...90, using: &rng),
                      longitude: Double.random(in: -180...180, using: &rng), altitude: value(-400...9000),
                      speed: value(0...80), course: value(0...360), mode: FixMode.allCases.randomElement(using: &rng)!,
                      quality: Bool.random(using: &rng) ? nil : FixQuality.allCases.randomElement(using: &rng),
                      satellites: int(0...40), hdop: value(0...50), horizontalAccuracy: value(0...500),
                      heartRate: int(30...230), cadence: int(0...200))
        return TrackPoint(fix: fix, rejection: Bool.random(using: &rng) ? nil : RejectionReason.allCases.randomElement(using: &rng),
                          segment: k / 100)
    }

    @Test(arguments: [true, false]) func roundTripIsExact(decimals: Bool) {
        var rng = SeededRandom(seed: decimals ? 1 : 2)
        let points = (0..<2000).map { Self.point($0, decimals: decimals, rng: &rng) }
        let store = TrackPointStore(points)
        expectEqual(store.count, points.count)
        expectEqual(Array(store), points)
        expectEqual(store.toArray(), points)
        for i in stride(from: 0, to: points.count, by: 37) { expectEqual(store[i], points[i]) }
    }

    @Test func columnsSwitchToFullWidthWithoutLoss() {
        var points: [TrackPoint] = []
        // Decimals first, then values that are not (1/3, huge, -0.0, huge integers).
        for (k, alt) in [545.4, 0.001, nil, 1.0 / 3, 3e12, -0.0, 7].enumerated() {
            points.append(TrackPoint(fix: Fix(time: Double(k), latitude: 1, longitude: 2, altitude: alt, satellites: k == 4 ? 1 << 40 : k,
                                              heartRate: k == 2 ? -70_000 : nil), segment: k % 3 == 0 ? 5 : -1))
        }
        let back = Array(TrackPointStore(points))
        expectEqual(back, points)
        expectEqual(back[5].fix.altitude?.sign, .minus)
    }

    /// Columns go wide at different points, in any order, with nils between: each keeps its
    /// values, and the columns still compact keep theirs.
    @Test func columnsWidenOneByOneInAnyOrder() {
        var points: [TrackPoint] = []
        for k in 0..<40 {
            func v(_ from: Int, _ base: Double) -> Double? {
                k % 7 == 3 ? nil : (k >= from ? base + Double(k) / 3 : base + Double(k) / 8)
            }
            let fix = Fix(time: Double(k), latitude: 1, longitude: 2, altitude: v(9, 100), speed: v(2, 5), course: v(20, 90),
                          satellites: k, hdop: v(0, 1), horizontalAccuracy: v(41, 4),
                          heartRate: k >= 15 ? 40_000 + k : 120, power: k == 30 ? -1 << 40 : k)
            points.append(TrackPoint(fix: fix, rejection: k % 5 == 0 ? .tooFast : nil, segment: k / 10))
        }
        let store = TrackPointStore(points)
        expectEqual(Array(store), points)
        expectEqual(store.toArray(), points)
        for i in points.indices { expectEqual(store[i], points[i]) }
    }
}
