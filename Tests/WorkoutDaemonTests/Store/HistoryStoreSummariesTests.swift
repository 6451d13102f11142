import Foundation
import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// `HistoryStore.summaries(_:)`: what start-up's streak check reads instead of whole summaries.
struct HistoryStoreSummariesTests {
    @Test func aProjectionIsOldestFirstAndLeavesOutWhatItRefuses() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wss.\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let paths = Paths(environment: ["HOME": dir, "XDG_DATA_HOME": dir + "/d", "XDG_STATE_HOME": dir + "/s", "XDG_RUNTIME_DIR": dir + "/r"])
        let store = try HistoryStore(paths: paths, machine: MachineTag(rawValue: "test")!)
        let starts: [Double] = [1_700_050_000, 1_700_000_000, 1_700_090_000, 1_700_020_000]
        var ids: [WorkoutID] = []
        for (k, t) in starts.enumerated() {
            var s = WorkoutSummary(id: WorkoutID(start: t, suffix: UInt16(k)), activity: .running, startedAt: t)
            s.elapsedSeconds = 1800 + Double(k)
            ids.append(s.id)
            try store.save(Workout(summary: s))
        }
        let left = ids[0]
        let projected = store.summaries { $0.id == left ? nil : StreakWorkout($0) }
        let expected = store.summaries().filter { $0.id != left }.map { StreakWorkout($0) }
        #expect(projected == expected)
        #expect(projected.map(\.startedAt) == [1_700_000_000, 1_700_020_000, 1_700_090_000])
    }
}
