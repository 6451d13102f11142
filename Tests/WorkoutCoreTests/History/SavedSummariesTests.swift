import Testing
@testable import WorkoutCore

/// The duplicate check by start-second buckets finds what a scan of every saved workout finds.
struct SavedSummariesTests {
    static func summary(_ start: Double, accepted: Int, suffix: UInt16) -> WorkoutSummary {
        var s = WorkoutSummary(id: WorkoutID(start: start, suffix: suffix), activity: .running, startedAt: start)
        s.acceptedCount = accepted
        s.pointCount = accepted
        return s
    }

    @Test func bucketsFindWhatAScanFinds() {
        var rng = SplitMix64(seed: 99)
        var saved = SavedSummaries()
        var all: [WorkoutID: WorkoutSummary] = [:]
        for k in 0..<3000 {
            let start = 1_700_000_000 + Double(rng.next() % 2000) + Double(rng.next() % 1000) / 1000
            let s = Self.summary(start, accepted: Int(rng.next() % 4), suffix: UInt16(k))
            saved[s.id] = s; all[s.id] = s
            if k % 7 == 0, let victim = all.keys.first { saved[victim] = nil; all[victim] = nil }
        }
        expectEqual(saved.count, all.count)
        // 1,000 probes over the ~2,600 saved (before: 3,000, each scan copying every summary at
        // -Onone, 0.8 s of CPU); about half of them find a duplicate.
        var found = 0
        for _ in 0..<1000 {
            let probe = Self.summary(1_700_000_000 + Double(rng.next() % 2002) - 1 + Double(rng.next() % 1000) / 1000, accepted: Int(rng.next() % 4), suffix: 0)
            let scan = all.values.filter { Importer.isDuplicate(probe, of: $0) }
            let hit = saved.duplicate(of: probe)
            expectEqual((hit == nil), scan.isEmpty)
            if let hit { #expect(scan.contains { $0.id == hit.id }); found += 1 }
        }
        expectGreater(found, 100)
    }

    @Test func acrossASecondBoundaryAndAfterRemoval() {
        var saved = SavedSummaries()
        let a = Self.summary(99.9, accepted: 5, suffix: 1)
        saved[a.id] = a
        expectEqual(saved.duplicate(of: Self.summary(100.5, accepted: 5, suffix: 2))?.id, a.id)
        expectNil(saved.duplicate(of: Self.summary(100.95, accepted: 5, suffix: 2)))
        expectEqual(saved.duplicate(of: Self.summary(98.95, accepted: 5, suffix: 2))?.id, a.id)
        saved[a.id] = nil
        expectNil(saved.duplicate(of: Self.summary(99.9, accepted: 5, suffix: 2)))
        expectEqual(saved.count, 0)
    }
}
