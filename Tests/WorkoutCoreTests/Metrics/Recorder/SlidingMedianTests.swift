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
