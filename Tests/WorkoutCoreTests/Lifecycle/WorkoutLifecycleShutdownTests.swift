import Testing
@testable import WorkoutCore

/// Issue 18: stopping the daemon (SIGTERM: restart, upgrade, system shutdown) keeps the workout
/// in progress in the journal, and the next start continues it as it was: active or paused, the
/// gap marked, its distance kept, more fixes adding to it.
struct WorkoutLifecycleShutdownTests {
    static let t0 = 1_800_000_000.0
    static let id = WorkoutID(start: t0, suffix: 7)
    static let s = TrackSynth()

    /// Starts a run, feeds `seconds` of fixes at 3 m/s (pausing at the end if asked), shuts
    /// down; returns the journal and the distance before the shutdown.
    static func recordAndShutDown(seconds: Int, pause: Bool = false) -> (journal: [JournalRecord], distance: Double, shutdown: [LifecycleAction]) {
        var l = WorkoutLifecycle()
        var journal: [JournalRecord] = []
        func keep(_ a: [LifecycleAction]) { for case .journal(let r) in a { journal.append(r) } }
        if case .success(let a) = l.start(.running, id: id, at: t0, settings: MetricsSettings()) { keep(a) }
        for k in 1...seconds {
            let t = t0 + Double(k)
            keep(l.fixReceived(s.fix(t: t, north: 0, east: 3 * Double(k)), at: t))
        }
        if pause, case .success(let a) = l.pause(at: t0 + Double(seconds) + 0.5) { keep(a) }
        let distance = l.summary(now: t0 + Double(seconds) + 1)?.distanceMeters ?? -1
        let actions = l.shutDown(at: t0 + Double(seconds) + 1, journalWritable: true)
        keep(actions)
        journal.append(.alive(time: t0 + Double(seconds) + 1))
        expectEqual(l.phase, (pause ? .paused : .active), "the shutdown changes nothing in the running process")
        return (journal, distance, actions)
    }

    @Test func shutdownKeepsTheWorkoutAndTheNextStartContinuesItActive() throws {
        let (journal, distance, actions) = Self.recordAndShutDown(seconds: 120)
        #expect(actions.contains { if case .journal(.shutdown) = $0 { return true }; return false })
        #expect(!actions.contains { if case .save = $0 { return true }; return false }, "not stopped, not saved")
        #expect(actions.contains { if case .log(.keptForRestart(Self.id, .running, paused: false)) = $0 { return true }; return false })

        // The next start, 30 s later: the same workout, active, its distance, the gap on its timeline.
        var l = WorkoutLifecycle()
        _ = l.beginRestore()
        let now = Self.t0 + 151
        let restored = l.restored(journal, at: now, autoResume: false, settings: MetricsSettings())
        expectEqual(l.phase, .active)
        expectEqual(l.currentWorkoutID, Self.id)
        #expect(restored.contains { if case .openGPS = $0 { return true }; return false })
        #expect(restored.contains { if case .inhibitSleep = $0 { return true }; return false })
        #expect(restored.contains { if case .journal(.recovered(time: now, gapFrom: Self.t0 + 121)) = $0 { return true }; return false })
        #expect(restored.contains { if case .log(.continued(Self.id, .running, gapSeconds: 30, points: 120, paused: false)) = $0 { return true }; return false })
        expectLess(abs((l.summary(now: now)?.distanceMeters ?? 0) - distance), 0.001)

        // More fixes add to it; stop saves one workout with all of them.
        for k in 152...211 {
            let t = Self.t0 + Double(k)
            _ = l.fixReceived(Self.s.fix(t: t, north: 0, east: 360 + 3 * Double(k - 151)), at: t)
            _ = l.tick(at: t)
        }
        guard case .success(let stopped) = l.stop(at: Self.t0 + 212), let saved = stopped.savedWorkout else { Issue.record("not stopped"); return }
        expectEqual(saved.summary.pointCount, 180)
        expectGreater(saved.summary.distanceMeters, distance + 150, "\(distance) -> \(saved.summary.distanceMeters)")
        #expect(saved.events.contains { $0.kind == .recovered && $0.text == "gap of 30 s while the daemon was down" })
        #expect(saved.events.contains { $0.kind == .signalLost }, "the 30 s without fixes is a signal loss, not movement")
        #expect(!saved.events.contains { $0.kind == .pause })
    }

    @Test func aPausedWorkoutContinuesPaused() throws {
        let (journal, _, actions) = Self.recordAndShutDown(seconds: 60, pause: true)
        #expect(actions.contains { if case .log(.keptForRestart(_, _, paused: true)) = $0 { return true }; return false })
        var l = WorkoutLifecycle()
        _ = l.beginRestore()
        let restored = l.restored(journal, at: Self.t0 + 100, autoResume: false, settings: MetricsSettings())
        #expect(l.phase == .paused && l.userPause?.cause == .manual, "paused by the user, as it was")
        #expect(!restored.contains { if case .openGPS = $0 { return true }; return false })
        #expect(restored.contains { if case .log(.continued(_, _, _, _, paused: true)) = $0 { return true }; return false })
    }

    /// A crash (no shutdown record) still restores paused, as before; a record after the
    /// shutdown record (the workout went on after an earlier restart) makes it history.
    @Test func aCrashStillRestoresPaused() throws {
        var (journal, _, _) = Self.recordAndShutDown(seconds: 60)
        journal.append(.recovered(time: Self.t0 + 70, gapFrom: Self.t0 + 61))
        journal.append(.fix(Self.s.fix(t: Self.t0 + 71, north: 0, east: 200)))
        var l = WorkoutLifecycle()
        _ = l.beginRestore()
        _ = l.restored(journal, at: Self.t0 + 100, autoResume: false, settings: MetricsSettings())
        #expect(l.phase == .paused && l.userPause?.cause == .recovered)
    }

    /// A journal that cannot be written cannot keep the workout: it is stopped and saved now.
    @Test func aFailingJournalStopsAndSaves() throws {
        var l = WorkoutLifecycle()
        _ = l.start(.walking, id: Self.id, at: Self.t0, settings: MetricsSettings())
        let actions = l.shutDown(at: Self.t0 + 10, journalWritable: false)
        expectNotNil(actions.savedWorkout)
        expectEqual(l.phase, .saving)
        var idle = WorkoutLifecycle()
        #expect(idle.shutDown(at: Self.t0, journalWritable: true).isEmpty)
    }

    @Test func shutdownRecordRoundTrips() {
        let line = JournalRecord.shutdown(time: 1_800_000_061.25).encodeLine()
        #expect(line.hasPrefix(#"{"r":"shutdown","t":1800000061.25}*"#))
        expectEqual(JournalRecord.decodeLine(line.dropLast()), .shutdown(time: 1_800_000_061.25))
    }
}
