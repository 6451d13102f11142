import Testing
@testable import WorkoutCore

/// Issue 18: `reload` (and SIGHUP) apply changed metrics settings to the workout in progress
/// from that moment. The lifecycle receives the new settings as an event and returns the actions.
struct WorkoutLifecycleSettingsTests {
    static let t0 = 1_800_000_000.0
    static let id = WorkoutID(start: t0, suffix: 9)

    /// A run at 3 m/s for `moving` s, then standing still for `still` s (1 Hz fixes), with the
    /// settings changed to `change` after `changeAt` s. Returns the lifecycle and every action.
    static func run(moving: Int, still: Int, hole: Int? = nil, change: MetricsSettings?, changeAt: Int) -> (WorkoutLifecycle, [LifecycleAction]) {
        let s = TrackSynth()
        var l = WorkoutLifecycle()
        var actions: [LifecycleAction] = []
        guard case .success(let a) = l.start(.running, id: id, at: t0, settings: MetricsSettings()) else { return (l, []) }
        actions += a
        var east = 0.0
        for k in 1...(moving + still) {
            let t = t0 + Double(k)
            if k == changeAt, let change { actions += l.settingsChanged(change, at: t - 0.5) }
            if k <= moving { east += 3 }
            if let hole, (hole..<(hole + 14)).contains(k) { continue }  // 14 s without fixes while running
            actions += l.fixReceived(s.fix(t: t, north: 0, east: east), at: t)
            actions += l.tick(at: t)
        }
        return (l, actions)
    }

    static func events(_ l: WorkoutLifecycle) -> [WorkoutEvent] {
        guard case .success(let a) = { var c = l; return c.stop(at: t0 + 10_000) }(), let saved = a.savedWorkout else { return [] }
        return saved.events
    }

    @Test func autoPauseTurnedOffReachesTheRunningWorkout() throws {
        var off = MetricsSettings()
        off.autoPauseDelay = nil
        let (control, _) = Self.run(moving: 120, still: 60, change: nil, changeAt: 100)
        #expect(Self.events(control).contains { $0.kind == .motionPaused }, "without the reload the stop auto-pauses")
        let (l, actions) = Self.run(moving: 120, still: 60, change: off, changeAt: 100)
        #expect(!Self.events(l).contains { $0.kind == .motionPaused })
        let moving = try #require(l.summary(now: Self.t0 + 180)).movingSeconds
        let controlMoving = try #require(control.summary(now: Self.t0 + 180)).movingSeconds
        expectGreater(moving, controlMoving + 45, "\(controlMoving) -> \(moving)")
        let logged = actions.compactMap { a -> [MetricsSettingsChange]? in
            if case .log(.settingsChanged(_, let c)) = a { return c }
            return nil
        }
        expectEqual(logged, [[MetricsSettingsChange(key: "metrics.autoPauseSeconds", from: "10", to: "0", applies: .now)]])
    }

    /// Turned off during an auto-pause: the pause ends at the reload.
    @Test func autoPauseTurnedOffEndsAnAutoPause() throws {
        var off = MetricsSettings()
        off.autoPauseDelay = nil
        let (l, actions) = Self.run(moving: 60, still: 60, change: off, changeAt: 100)
        let ev = Self.events(l)
        expectNotNil(ev.first { $0.kind == .motionPaused })
        let resumed = try #require(ev.first { $0.kind == .motionResumed })
        #expect(resumed.time == Self.t0 + 99.5 && resumed.text == "auto-pause turned off")
        #expect(actions.contains { if case .logRecorder = $0 { return true }; return false })
    }

    /// A shorter auto-pause delay set during the run applies to the next stop.
    @Test func shorterAutoPauseDelayTakesEffect() throws {
        var long = MetricsSettings()
        long.autoPauseDelay = 120
        var l = WorkoutLifecycle()
        _ = l.start(.running, id: Self.id, at: Self.t0, settings: long)
        let s = TrackSynth()
        for k in 1...90 {
            let t = Self.t0 + Double(k)
            if k == 40 { _ = l.settingsChanged(MetricsSettings(), at: t) }  // back to 10 s
            _ = l.fixReceived(s.fix(t: t, north: 0, east: Double(min(k, 30)) * 3), at: t)
        }
        #expect(Self.events(l).contains { $0.kind == .motionPaused }, "a 60 s stop with a 10 s delay auto-pauses")
    }

    /// The jump threshold lowered during the run: the next 42 m hole starts a new segment.
    @Test func jumpThresholdReachesTheRunningWorkout() throws {
        var low = MetricsSettings()
        low.jumpThreshold = 10
        let (control, _) = Self.run(moving: 200, still: 0, hole: 150, change: nil, changeAt: 100)
        let (l, _) = Self.run(moving: 200, still: 0, hole: 150, change: low, changeAt: 100)
        #expect(!Self.events(control).contains { $0.kind == .segment })
        #expect(Self.events(l).contains { $0.kind == .segment && $0.time == Self.t0 + 164 })
        let lost = try #require(control.summary(now: Self.t0 + 200)).distanceMeters - (try #require(l.summary(now: Self.t0 + 200)).distanceMeters)
        expectLess(abs(lost - 45), 1, "the hole's 45 m (15 steps) are no longer counted: \(lost)")
    }

    /// Settings a workout never measures two ways (split unit, body) wait for the next workout;
    /// no workout or no change: nothing.
    @Test func splitUnitWaitsAndNothingWithoutAWorkout() throws {
        var imperial = MetricsSettings()
        imperial.splitUnit = .mile
        var idle = WorkoutLifecycle()
        #expect(idle.settingsChanged(imperial, at: Self.t0).isEmpty)
        var l = WorkoutLifecycle()
        _ = l.start(.running, id: Self.id, at: Self.t0, settings: MetricsSettings())
        #expect(l.settingsChanged(MetricsSettings(), at: Self.t0 + 1).isEmpty)
        let a = l.settingsChanged(imperial, at: Self.t0 + 2)
        guard case .log(.settingsChanged(_, let changes))? = a.first else { Issue.record("\(a)"); return }
        expectEqual(changes, [MetricsSettingsChange(key: "units", from: "metric", to: "imperial", applies: .nextWorkout)])
        expectEqual(l.workout?.recorder.settings.splitUnit, .kilometer)
        #expect(l.settingsChanged(imperial, at: Self.t0 + 3).isEmpty, "already known")
    }
}

extension WorkoutLifecycleSettingsTests {
    /// The change is journaled: a restore (crash, restart) replays it where it happened, so the
    /// restored workout has the numbers the live one had, though the configuration at the
    /// restore is the new one throughout.
    @Test func aRestoreReplaysTheChangeWhereItHappened() throws {
        var off = MetricsSettings()
        off.autoPauseDelay = nil
        var l = WorkoutLifecycle()
        var journal: [JournalRecord] = []
        func keep(_ a: [LifecycleAction]) { for case .journal(let r) in a { journal.append(r) } }
        if case .success(let a) = l.start(.running, id: Self.id, at: Self.t0, settings: MetricsSettings()) { keep(a) }
        let s = TrackSynth()
        // 60 s running, 60 s standing (auto-paused under the old rules), reload at 150 s (auto-pause
        // off), 60 s more standing (moving time under the new rules).
        for k in 1...210 {
            let t = Self.t0 + Double(k)
            if k == 150 { keep(l.settingsChanged(off, at: t - 0.5)) }
            keep(l.fixReceived(s.fix(t: t, north: 0, east: 3 * Double(min(k, 60))), at: t))
            keep(l.tick(at: t))
        }
        #expect(journal.contains { if case .settings(_, let from, let to) = $0 { return from.autoPauseDelay == 10 && to.autoPauseDelay == nil }; return false })
        let live = try #require(l.summary(now: Self.t0 + 210))
        let replay = try #require(JournalReplay(records: journal, settings: off))
        let restored = replay.recorder.summary(now: Self.t0 + 210)
        #expect(restored.movingSeconds == live.movingSeconds && restored.distanceMeters == live.distanceMeters,
                "live moving \(live.movingSeconds), restored \(restored.movingSeconds)")
        expectNil(replay.settings.autoPauseDelay)
        // Without the record, the whole run would be measured without auto-pause.
        let plain = try #require(JournalReplay(records: journal.filter { if case .settings = $0 { return false }; return true }, settings: off))
        expectGreater(plain.recorder.summary(now: Self.t0 + 210).movingSeconds, live.movingSeconds + 40)
        // The record round-trips through the journal's line format.
        for case .settings(let t, let from, let to) in journal {
            expectEqual(JournalRecord.decodeLine(JournalRecord.settings(time: t, from: from, to: to).encodeLine().dropLast()), .settings(time: t, from: from, to: to))
        }
    }
}

extension Array where Element == LifecycleAction {
    var savedWorkout: Workout? {
        for case .save(let w) in self { return w.workout }
        return nil
    }
}
