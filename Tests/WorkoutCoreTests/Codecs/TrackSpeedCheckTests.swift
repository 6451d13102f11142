import Testing
@testable import WorkoutCore

/// The importer's speed check, fed step by step beside the recorder (`TrackSpeedCheck.Steps`),
/// against the check over the whole track: the same warning whatever the shortcuts (a distance
/// reused from the fix filter, no sort when a count decides).
@Suite struct TrackSpeedCheckTests {
    /// A track moving at about `speed` m/s with some steps much faster or standing, in segments.
    static func track(seed: UInt64, speed: Double, count: Int) -> [(fix: Fix, segment: Int)] {
        var rng = SeededRandom(seed: seed)
        var out: [(fix: Fix, segment: Int)] = []
        var t = 1_700_000_000.0, north = 0.0, segment = 0
        for _ in 0..<count {
            let roll = Int.random(in: 0..<10, using: &rng)
            let v = roll == 0 ? 0 : roll == 1 ? speed * 4 : speed * Double.random(in: 0.7...1.3, using: &rng)
            t += Double(Int.random(in: 1...3, using: &rng))
            north += v * 2
            if Int.random(in: 0..<200, using: &rng) == 0 { segment += 1 }
            out.append((Fix(time: t, latitude: 48 + north / 111_200, longitude: 11), segment))
        }
        return out
    }

    @Test(arguments: [0.3, 1.4, 3.9, 4.0, 4.2, 8, 12.4, 12.6, 30] as [Double])
    func stepsGiveTheWholeTracksWarning(speed: Double) {
        for seed in 1...4 as ClosedRange<UInt64> {
            let track = Self.track(seed: seed &* 31 &+ UInt64(speed * 10), speed: speed, count: 300)
            let whole = TrackSpeedCheck(fixes: track.map(\.fix), segments: track.map(\.segment))
            var steps = TrackSpeedCheck.Steps()
            var previous: Fix?
            for (f, s) in track {
                // Every other step comes with its distance already measured, as the importer's do.
                let known = previous.map { MeasuredPair.measure(FixFilter.Position($0), FixFilter.Position(f)) } ?? .none
                steps.add(f, segment: s, known: Int(f.time) % 2 == 0 ? known : .none)
                previous = f
            }
            expectEqual(steps.check.medianMovingSpeed, whole.medianMovingSpeed)
            for activity in [ActivityType.walking, .hiking, .running, .cycling, .other] {
                expectEqual(steps.warning(activity: activity, distance: 1234), whole.warning(activity: activity, distance: 1234))
            }
        }
    }

    @Test func aKnownDistanceIsUsedOnlyForItsOwnPair() {
        let a = Fix(time: 0, latitude: 48, longitude: 11), b = Fix(time: 1, latitude: 48.001, longitude: 11)
        let c = Fix(time: 2, latitude: 48.002, longitude: 11)
        let ab = MeasuredPair.measure(FixFilter.Position(a), FixFilter.Position(b))
        expectEqual(ab.meters(from: FixFilter.Position(a), to: FixFilter.Position(b)), MeasuredDistance.geodesic(a, b))
        expectNil(ab.meters(from: FixFilter.Position(b), to: FixFilter.Position(a)))
        expectNil(ab.meters(from: FixFilter.Position(b), to: FixFilter.Position(c)))
        expectNil(MeasuredPair.none.meters(from: FixFilter.Position(a), to: FixFilter.Position(b)))
    }
}
