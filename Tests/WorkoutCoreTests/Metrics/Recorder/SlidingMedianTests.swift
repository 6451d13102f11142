import Testing
@testable import WorkoutCore

@Suite struct SlidingMedianTests {
    /// A deterministic generator (SplitMix64), so a failure can be replayed.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    /// The sorted, sliding median answers what sorting the range's steps answers, bit for bit,
    /// as the range slides by one, jumps, restarts and has its first points dropped; with ties,
    /// steps of no time and missing speeds among the steps.
    @Test func slidingAnswersWhatSortingAnswers() {
        var rng = Random(state: 29)
        var steps: [SlidingMedian.Step] = [.none]  // what point k adds; point 0 adds nothing
        var dropped = 0  // points shifted out
        var m = SlidingMedian()
        var i = 0
        var compared = 0
        for round in 0..<20_000 {
            // A new point: speeds from few values (ties), some steps of no time, rarely a missing one.
            let r = rng.below(100)
            steps.append(r < 5 ? .none : r < 7 ? .missing
                         : .step(speed: Double(rng.below(40)) / 4, seconds: Double(1 + rng.below(20)) / 10))
            let j = steps.count - 1 - dropped
            // Mostly slide by one; sometimes jump forward, back, or restart at the newest point.
            let move = rng.below(50)
            if move == 0 { i = j } else if move == 1 { i = max(0, i - rng.below(5)) } else if j - i > 60 { i += 1 + rng.below(3) }
            i = min(i, j)
            m.move(from: i, to: j) { k in steps[k + dropped] }
            var inRange: [(speed: Double, seconds: Double)] = []
            var total = 0.0
            var anyMissing = false
            if j > i {
                for k in (i + 1)...j {
                    switch steps[k + dropped] {
                    case .step(let v, let s): inRange.append((v, s)); total += s
                    case .none: break
                    case .missing: anyMissing = true
                    }
                }
            }
            let expected = anyMissing ? nil : SlidingMedian.median(of: inRange, total: total)
            expectEqual(m.median(total: total), expected, "round \(round): points \(i + 1)...\(j)")
            #expect(anyMissing || m.fastest == inRange.map(\.speed).max(), "round \(round)")
            compared += 1
            // Now and then the oldest points go (as SpeedWindow drops them in bulk).
            if rng.below(500) == 0, i > 0 {
                let n = rng.below(i + 1)
                m.shift(by: n)
                dropped += n
                i -= n
            }
        }
        expectEqual(compared, 20_000)
    }

    /// Ranges of every size from empty to a few dozen steps, moved forward by several points
    /// at either end at once (steps leaving while others enter: replacements, then the rest
    /// removed or inserted), over speeds from three values (mostly ties) or any double: the
    /// median and the fastest step are the sorted reference's, bit for bit, at every move.
    @Test func rangesOfEverySizeMovedBySeveralPoints() {
        for seed in UInt64(1)...40 {
            var rng = Random(state: seed)
            let few = seed % 2 == 0  // ties everywhere, or speeds of any magnitude
            var steps: [SlidingMedian.Step] = [.none]
            var m = SlidingMedian()
            var i = 0, j = 0
            let widest = 1 + Int(seed % 25)
            for round in 0..<2_000 {
                let entering = rng.below(4)
                for _ in 0..<entering {
                    let r = rng.below(100)
                    let speed = few ? Double(rng.below(3)) : Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF) * (rng.below(2) == 0 ? 1 : -1)
                    steps.append(r < 4 ? .none : r < 6 ? .missing : .step(speed: speed, seconds: Double(1 + rng.below(30)) / 8))
                }
                j = steps.count - 1
                i = min(j, max(i + rng.below(4), j - widest))  // 0 ... widest steps held
                m.move(from: i, to: j) { steps[$0] }
                var inRange: [(speed: Double, seconds: Double)] = []
                var total = 0.0
                var anyMissing = false
                if j > i {
                    for k in (i + 1)...j {
                        switch steps[k] {
                        case .step(let v, let s): inRange.append((v, s)); total += s
                        case .none: break
                        case .missing: anyMissing = true
                        }
                    }
                }
                expectEqual(m.median(total: total), anyMissing ? nil : SlidingMedian.median(of: inRange, total: total),
                            "seed \(seed) round \(round): points \(i + 1)...\(j)")
                expectEqual(m.missing > 0, anyMissing, "seed \(seed) round \(round)")
                #expect(anyMissing || m.fastest == inRange.map(\.speed).max(), "seed \(seed) round \(round)")
            }
        }
    }

    @Test func aTimeWeightedMedian() {
        var m = SlidingMedian()
        let steps: [SlidingMedian.Step] = [.none, .step(speed: 3, seconds: 2), .step(speed: 10, seconds: 1), .step(speed: 3, seconds: 4), .none]
        m.move(from: 0, to: 4) { steps[$0] }
        expectEqual(m.median(total: 7), 3, "3 m/s for 6 of 7 s")
        m.move(from: 2, to: 4) { steps[$0] }
        expectEqual(m.median(total: 4), 3, "the 10 m/s second left: 3 m/s for 4 s")
        expectEqual(m.fastest, 3)
    }
}
