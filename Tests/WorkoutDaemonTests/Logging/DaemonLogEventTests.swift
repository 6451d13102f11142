import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// The periodic status line a person tails reads in the configured units; its fields stay SI.
@Suite struct DaemonLogEventTests {
    static let run: WorkoutSummary = {
        var s = WorkoutSummary(id: WorkoutID(start: 1_800_000_000, suffix: 1), activity: .running, startedAt: 1_800_000_000,
                               elapsedSeconds: 754, movingSeconds: 721, distanceMeters: 2134.6, movingAverageSpeed: 2.9586, currentSpeed: 3.125)
        s.heartRate = 142
        return s
    }()

    @Test func statusMessageFollowsTheUnits() {
        let metric = DaemonLogEvent.status(Self.run, state: "active", fix: "3D", units: .metric)
        #expect(metric.message == "Running 0:12:34, 2.13 km, 5:20 /km now, 5:38 /km avg, 142 bpm", "each pace says which it is")
        let imperial = DaemonLogEvent.status(Self.run, state: "active", fix: "3D", units: .imperial)
        #expect(imperial.message == "Running 0:12:34, 1.33 mi, 8:35 /mi now, 9:04 /mi avg, 142 bpm")
        var stopped = Self.run
        stopped.currentSpeed = nil
        #expect(DaemonLogEvent.status(stopped, state: "active", fix: "3D", units: .metric).message == "Running 0:12:34, 2.13 km, 5:38 /km avg, 142 bpm")
        #expect(imperial.fields.contains { $0.0 == "distance_km" }, "fields stay SI for scripts")
        var yoga = Self.run
        yoga.activity = .yoga; yoga.distanceMeters = 0
        #expect(DaemonLogEvent.status(yoga, state: "active", fix: "none", units: .imperial).message == "Yoga 0:12:34, 142 bpm")
    }
}
