import Testing
@testable import WorkoutCore

/// The workout in progress owns its time (docs/time.md): its time base (the wall time at its
/// start advanced by CLOCK_BOOTTIME), its receiver's clock and the moves of its dates. The shell
/// only reads the clocks and hands fixes over with the receiver's own times.
@Suite struct WorkoutLifecycleTimeTests {
    static let wall = 1_795_000_000.0
    static let id = WorkoutID(start: 1_795_000_000, suffix: 3)

    /// The clocks `t` seconds after the start, the wall clock `step` seconds off since then.
    static func reading(_ t: Double, step: Double = 0, suspended: Double = 0) -> ClockReading {
        ClockReading(realtime: wall + t + step, boottime: 700 + t, monotonic: 700 + t - suspended)
    }

    static func fix(_ time: Double, _ k: Int) -> Fix {
        Fix(time: time, latitude: 48, longitude: 11.5 + Double(k) * 2 / 74_000, altitude: 500, mode: .threeD, horizontalAccuracy: 3)
    }

    static func started(_ activity: ActivityType = .running) -> WorkoutLifecycle {
        var l = WorkoutLifecycle()
        _ = l.start(activity, id: id, clock: reading(0), settings: MetricsSettings())
        return l
    }

    @Test func betweenWorkoutsTheDaemonsTimeIsTheWallClock() {
        var l = WorkoutLifecycle()
        expectEqual(l.now(Self.reading(5, step: 3600)), Self.wall + 5 + 3600)
        _ = l.start(.running, id: Self.id, clock: Self.reading(0), settings: MetricsSettings())
        _ = l.stop(at: l.now(Self.reading(10)))
        expectEqual(l.now(Self.reading(20, step: -60)), Self.wall + 20 - 60, "saving: the wall clock again, stepped as it is")
    }

    @Test func aWallClockStepChangesNoDuration() throws {
        var l = Self.started()
        expectEqual(l.now(Self.reading(10, step: 3600)), Self.wall + 10, "the step is not in the workout's time")
        guard case .success(let a) = l.stop(at: l.now(Self.reading(30, step: -7200))) else { Issue.record("stop refused"); return }
        let s = try #require(a.compactMap(\.savedWorkout).first).summary
        #expect(s.elapsedSeconds == 30 && s.startedAt == Self.wall)
    }

    @Test func aSuspendCounts() {
        let l = Self.started()
        expectEqual(l.now(Self.reading(3600, suspended: 3590)), Self.wall + 3600, "BOOTTIME runs through a suspend")
    }

    @Test func theCorePlacesAReceiversFixesByItsOwnIntervals() throws {
        var l = Self.started()
        let behind = 8 * 365.2425 * 86_400
        var logged: [ReceiverClockEvent] = []
        for k in 0..<20 {
            let arrival = l.now(Self.reading(Double(k) + 0.4))
            for case .logReceiverClock(let e) in l.fixReceived(Self.fix(Self.wall + Double(k) - behind, k), at: arrival) { logged.append(e) }
        }
        guard case .offsetLearned(let measured, let applied)? = logged.first else { Issue.record("\(logged)"); return }
        #expect(abs(measured + behind + 0.4) < 1e-6 && measured == applied)
        expectEqual(l.receiverClockProblem?.contains("8 years behind"), true, "\(l.receiverClockProblem ?? "nil")")
        expectLess(abs((l.receiverClockOffset ?? 0) + behind + 0.4), 1e-6)
        guard case .success(let a) = l.stop(at: l.now(Self.reading(20))) else { Issue.record("stop refused"); return }
        let points = try #require(a.compactMap(\.savedWorkout).first).points
        expectEqual(points.count, 20)
        let expected = (0..<20).map { Self.wall + Double($0) + 0.4 }
        #expect(zip(points.map(\.fix.time), expected).allSatisfy { abs($0 - $1) < 1e-6 }, "placed where they arrived, one receiver second apart")
    }

    @Test func theReceiversClockIsLearnedAfreshAtResume() {
        var l = Self.started()
        for k in 0..<3 { _ = l.fixReceived(Self.fix(Self.wall + Double(k) - 86_400, k), at: l.now(Self.reading(Double(k)))) }
        expectEqual(l.receiverClockProblem?.contains("1 day behind"), true)
        _ = l.pause(at: l.now(Self.reading(5)))
        expectNotNil(l.receiverClockProblem, "paused: the last receiver's clock is still shown")
        _ = l.resume(at: l.now(Self.reading(60)))
        #expect(l.receiverClockProblem == nil && l.receiverClockOffset == nil, "a resume learns the receiver again")
        _ = l.fixReceived(Self.fix(Self.wall + 61, 61), at: l.now(Self.reading(61)))
        #expect(l.receiverClockProblem == nil && l.receiverClockOffset == 0)
    }

    @Test func aSimulationsFixTimesAreKeptAndItsOffsetShown() throws {
        var l = Self.started(.cycling)
        _ = l.feedSourceChanged(replay: FeedReplay(speed: 1, origin: .receiver), at: l.now(Self.reading(0)))
        let first = Self.wall - 1000
        for k in 0..<5 { _ = l.fixReceived(Self.fix(first + Double(k), k), at: l.now(Self.reading(Double(k)))) }
        #expect(l.receiverClockOffset == -1000 && l.receiverClockProblem == nil)
        guard case .success(let a) = l.stop(at: l.now(Self.reading(5))) else { Issue.record("stop refused"); return }
        let w = try #require(a.compactMap(\.savedWorkout).first)
        #expect(w.points.first?.fix.time == first && w.summary.startedAt == first, "the feed's own times")
    }

    @Test func aRestoredWorkoutsClockNeverRunsBehindItsJournal() {
        var l = WorkoutLifecycle()
        _ = l.beginRestore()
        let records: [JournalRecord] = [.started(id: Self.id, activity: .running, time: Self.wall), .alive(time: Self.wall + 500)]
        // The wall clock was stepped back an hour while the daemon was down.
        _ = l.restored(records, clock: Self.reading(100, step: -3600), autoResume: true, settings: MetricsSettings())
        expectEqual(l.now(Self.reading(100, step: -3600)), Self.wall + 500)
        expectEqual(l.now(Self.reading(110, step: -3600)), Self.wall + 510, "then it runs on BOOTTIME")
    }
}
