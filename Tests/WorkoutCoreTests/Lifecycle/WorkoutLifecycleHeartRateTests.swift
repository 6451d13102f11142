import Testing
@testable import WorkoutCore

/// Heart rate through the lifecycle: readings and gaps journaled, ignored while paused, a yoga
/// workout (no GPS) opens the sensors, and the journal replays to the same figures.
@Suite struct WorkoutLifecycleHeartRateTests {
    @Test func yogaRecordsHeartRateWithGapsAndRestoresFromItsJournal() {
        var settings = MetricsSettings()
        settings.heartRateZones = HeartRateZones(lowerBounds: [100, 120, 140, 160, 180])
        settings.bodyWeightKilograms = 60; settings.age = 35; settings.sex = .female
        var l = WorkoutLifecycle()
        let id = WorkoutID(start: 1000, suffix: 7)
        guard case .success(let started) = l.start(.yoga, id: id, at: 1000, settings: settings) else { Issue.record("refused"); return }
        #expect(started.contains(.openSensors) && !started.contains(.openGPS))
        var journal: [JournalRecord] = []
        func keep(_ a: [LifecycleAction]) { for case .journal(let r) in a { journal.append(r) } }
        for case .journal(let r) in started { journal.append(r) }
        // a strap: readings dated at `now`; a feed line: its own time
        let r1 = l.heartRateReceived(time: nil, bpm: 110, rr: [558], at: 1002)
        expectEqual(r1, [.journal(.heartRate(time: 1002, bpm: 110, rr: [558]))])
        keep(r1)
        keep(l.heartRateReceived(time: 1003, bpm: 125, at: 1003.4))
        keep(l.heartRateReceived(time: 1004, bpm: 130, at: 1004.1))
        let gap = l.heartRateStopped(at: 1004.5)
        expectEqual(gap, [.journal(.heartRateGap(time: 1004.5))])
        keep(gap)
        expectEqual(l.heartRateStopped(at: 1005), [])  // already in a gap
        keep(l.heartRateReceived(time: nil, bpm: 150, at: 1010))
        keep(l.heartRateReceived(time: nil, bpm: 152, at: 1011))
        expectEqual(l.heartRateReceived(time: 1011, bpm: 99, at: 1011.5), [])  // out of order
        guard case .success(let paused) = l.pause(at: 1012) else { Issue.record("refused"); return }
        #expect(paused.contains(.closeSensors))
        keep(paused)
        expectEqual(l.heartRateReceived(time: nil, bpm: 170, at: 1013), [])  // paused: not recorded
        let s = l.summary(now: 1013)!
        expectEqual(s.averageHeartRate, Double(110 + 125 + 130 + 150 + 152) / 5)
        expectEqual(s.maxHeartRate, 152)
        expectNil(s.heartRate)
        // zones: 110 for 1 s (z1), 125 1 s (z2), 130 0.5 s (z2, to the gap), 150 1 s (z3), 152 1 s (z3, to the pause)
        expectEqual(s.heartRateZoneSeconds, [0, 1, 1.5, 2, 0, 0])
        expectEqual(s.caloriesMethod, .heartRate)
        // The journal replays to the same workout (crash restore).
        guard let replay = JournalReplay(records: journal, settings: settings) else { Issue.record("no replay"); return }
        expectEqual(replay.recorder.summary(now: 1013), s)
        expectEqual(replay.recorder.heartRate.samples, [
            HeartRateSample(time: 1002, bpm: 110), HeartRateSample(time: 1003, bpm: 125), HeartRateSample(time: 1004, bpm: 130),
            HeartRateSample(time: 1004.5, bpm: nil), HeartRateSample(time: 1010, bpm: 150), HeartRateSample(time: 1011, bpm: 152),
            HeartRateSample(time: 1012, bpm: nil)])
        // Journal lines round-trip.
        for r in journal { expectEqual(JournalRecord.decodeLine(Substring(r.encodeLine().dropLast())), r) }
        // Resume, one more reading, stop: the saved workout keeps the series and rebuilds equal.
        guard case .success(let resumed) = l.resume(at: 1020) else { Issue.record("refused"); return }
        #expect(resumed.contains(.openSensors))
        _ = l.heartRateReceived(time: nil, bpm: 140, at: 1021)
        _ = l.lap(at: 1022)
        _ = l.heartRateReceived(time: nil, bpm: 141, at: 1023)
        guard case .success(let stopped) = l.stop(at: 1024), let saved = stopped.compactMap(\.savedWorkout).first else { Issue.record("refused"); return }
        #expect(stopped.contains(.closeSensors))
        expectEqual(saved.summary.laps.count, 2)
        expectEqual(saved.summary.laps[0].averageHeartRate, Int((Double(110 + 125 + 130 + 150 + 152 + 140) / 6).rounded()))
        #expect(saved.summary.laps[1].averageHeartRate == 141 && saved.summary.laps[1].heartRateZoneSeconds == [0, 0, 0, 2, 0, 0])
        let w = saved.workout
        let rebuilt = WorkoutRecorder.recompute(id: w.id, activity: .yoga, startedAt: 1000, endedAt: 1024, settings: settings,
                                                points: w.points, events: w.events, heartRate: w.heartRate)
        expectEqual(rebuilt.summary, w.summary)
        let file = try? WorkoutFile.decode(WorkoutFile.encode(w))
        expectEqual(file?.heartRate, w.heartRate)
    }
}
