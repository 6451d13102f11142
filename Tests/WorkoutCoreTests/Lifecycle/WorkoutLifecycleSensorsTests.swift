import Testing
@testable import WorkoutCore

/// Power, cadence, speed and distance through the lifecycle: an indoor ride measures its distance
/// (and splits) from the wheel, readings and gaps are journaled, ignored while paused, and the
/// journal replays to the same workout (a restore after a kill); the saved workout rebuilds equal.
@Suite struct WorkoutLifecycleSensorsTests {
    static func reading(_ i: Int) -> SensorReading {
        SensorReading(power: 150 + (i * 13) % 150, cadence: 90, speed: 8.42, distance: 8.42)
    }

    @Test func indoorRideRecordsSensorsWithGapsAndRestoresFromItsJournal() throws {
        var settings = MetricsSettings()
        settings.ftpWatts = 250
        var l = WorkoutLifecycle()
        let id = WorkoutID(start: 1000, suffix: 3)
        guard case .success(let started) = l.start(.indoorCycling, id: id, at: 1000, settings: settings) else { Issue.record("refused"); return }
        #expect(started.contains(.openSensors) && !started.contains(.openGPS))
        var journal: [JournalRecord] = []
        func keep(_ a: [LifecycleAction]) { for case .journal(let r) in a { journal.append(r) } }
        keep(started)
        // 130 s at 1 Hz: 8.42 m a second passes the first kilometre (a split, logged).
        var splitLogged = false
        for i in 0..<130 {
            let a = l.sensorReceived(Self.reading(i), from: .csc, at: 1001 + Double(i))
            if i == 0 { expectEqual(a, [.journal(.sensor(SensorSample(time: 1001, source: .csc, reading: Self.reading(0))))]) }
            if a.contains(where: { if case .logRecorder = $0 { return true } else { return false } }) { splitLogged = true }
            keep(a)
        }
        #expect(splitLogged)
        let live = try #require(l.summary(now: 1130.5))
        expectEqual(live.distanceSource, .sensor)
        expectLess(abs(live.distanceMeters - 130 * 8.42), 1e-6, "\(live.distanceMeters)")
        #expect(live.power != nil && live.cadence == 90 && live.currentSpeed == 8.42)
        #expect(live.splits.count == 1 && live.normalizedPower != nil)
        // The sensor drops out: a gap, once.
        let gap = l.sensorStopped(.csc, at: 1131)
        expectEqual(gap, [.journal(.sensor(SensorSample(time: 1131, source: .csc, reading: nil)))])
        keep(gap)
        expectEqual(l.sensorStopped(.csc, at: 1132), [])
        expectNil(l.summary(now: 1132)?.power)
        keep(l.sensorReceived(Self.reading(200), from: .csc, at: 1140))
        guard case .success(let paused) = l.pause(at: 1141) else { Issue.record("refused"); return }
        #expect(paused.contains(.closeSensors))
        keep(paused)
        expectEqual(l.sensorReceived(Self.reading(201), from: .csc, at: 1142), [])  // paused: not recorded
        let s = try #require(l.summary(now: 1143))
        // Journal lines round-trip, and the journal replays to the same workout.
        for r in journal { expectEqual(JournalRecord.decodeLine(Substring(r.encodeLine().dropLast())), r) }
        let decoded = journal.compactMap { JournalRecord.decodeLine(Substring($0.encodeLine().dropLast())) }
        let replay = try #require(JournalReplay(records: decoded, settings: settings))
        expectEqual(replay.recorder.summary(now: 1143), s)
        expectEqual(replay.recorder.sensors.samples.last, SensorSample(time: 1141, source: .csc, reading: nil))
        // Stop: the saved workout keeps every sample and rebuilds to the same summary.
        guard case .success(let resumed) = l.resume(at: 1150) else { Issue.record("refused"); return }
        #expect(resumed.contains(.openSensors))
        _ = l.sensorReceived(Self.reading(300), from: .csc, at: 1151)
        guard case .success(let stopped) = l.stop(at: 1152), let saved = stopped.compactMap(\.savedWorkout).first else { Issue.record("refused"); return }
        let w = saved.workout
        expectEqual(w.sensors.count, 130 + 1 + 1 + 1 + 1)
        expectLess(abs(w.summary.distanceMeters - 132 * 8.42), 1e-6, "\(w.summary.distanceMeters)")
        #expect(w.summary.trainingStress != nil && w.summary.powerZoneSeconds.count == 7)
        let rebuilt = WorkoutRecorder.recompute(id: w.id, activity: .indoorCycling, startedAt: 1000, endedAt: 1152, settings: settings,
                                                points: w.points, events: w.events, heartRate: w.heartRate, sensors: w.sensors)
        expectEqual(rebuilt.summary, w.summary)
        // recompute with another FTP: the zones and IF follow it
        var other = settings
        other.ftpWatts = 200
        let harder = WorkoutRecorder.recompute(id: w.id, activity: .indoorCycling, startedAt: 1000, endedAt: 1152, settings: other,
                                               points: w.points, events: w.events, sensors: w.sensors)
        #expect(harder.summary.intensityFactor! > w.summary.intensityFactor! && harder.summary.normalizedPower == w.summary.normalizedPower)
    }

    /// What the daemon records from `dbus-peers --sensors power --rate 10` for `seconds`, the
    /// stand-in's notifications sent as they stand (its ramp 150 ... 300 ... 155 W, crank data at
    /// 90 rpm: the same bytes) and decoded and dated as `BluetoothSensor` does (`SensorService.parse`,
    /// `SensorConnection`), 10 a second, into the lifecycle; FTP 250 W. Returns the saved workout
    /// and the watts sent. (BluetoothPowerTests proves the bytes' way through BlueZ in real time.)
    struct Refused: Error {}

    static func standInPowerRide(seconds: Int) throws -> (workout: Workout, sent: [Int]) {
        var settings = MetricsSettings()
        settings.ftpWatts = 250
        var l = WorkoutLifecycle()
        guard case .success = l.start(.indoorCycling, id: WorkoutID(start: 1000, suffix: 5), at: 1000, settings: settings) else {
            throw Refused()
        }
        var c = SensorConnection()
        _ = c.open(now: 1000)
        _ = c.connected(SensorInfo(name: "Power", services: [.cyclingPower]), now: 1000.5)
        let ramp = Array(stride(from: 150, through: 300, by: 5)) + Array(stride(from: 295, to: 150, by: -5))
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        var sent: [Int] = []
        for n in 0..<(seconds * 10) {
            let t = Double(n + 1) / 10, watts = ramp[n % ramp.count]
            let revolutions = Int(t * 1.5)  // 90 rpm; the event time is the last revolution's (1/1024 s)
            let bytes: [UInt8] = [0x20, 0x00] + u16(watts) + u16(revolutions) + u16(Int((Double(revolutions) / 1.5 * 1024).rounded()))
            let m = try #require(SensorService.cyclingPower.parse(bytes))
            for case .reading(let time, let source, let r) in c.measured(m, now: 1001 + t) { _ = l.sensorReceived(r, from: source, at: time) }
            sent.append(watts)
        }
        guard case .success(let stopped) = l.stop(at: 1001 + Double(seconds) + 0.05),
              let saved = stopped.compactMap(\.savedWorkout).first else { throw Refused() }
        return (saved.workout, sent)
    }

    /// Normalized power needs 30 s of power (`PowerAnalysis`): a 34 s ride of the stand-in's power
    /// meter has it, about its mean (30 s rolling means of a 6 s ramp), with the intensity factor
    /// against the FTP, in the summary the stop reply encodes; 25 s have none.
    @Test func thirtySecondsOfTheStandInsPowerHaveANormalizedPower() throws {
        let (w, sent) = try Self.standInPowerRide(seconds: 34)
        let mean = Double(sent.reduce(0, +)) / Double(sent.count)
        let s = w.summary
        expectLess(abs((s.averagePower ?? 0) - mean), 2, "average \(s.averagePower ?? 0) W, sent \(mean) W")
        #expect(abs((s.averageCadence ?? 0) - 90) <= 1 && s.maxPower == sent.max(), "\(s.averageCadence ?? 0) rpm, max \(s.maxPower ?? 0) W")
        let np = try #require(s.normalizedPower, "no normalized power after 34 s")
        expectLess(abs(np - mean), 5, "normalized power \(np) W, mean sent \(mean) W")
        expectLess(abs((s.intensityFactor ?? 0) - np / 250), 0.002, "\(s.intensityFactor ?? 0)")
        expectLess(abs((s.json()["normalizedPower"]?.doubleValue ?? 0) - np), 0.051, "the reply's normalizedPower")
        expectNil(try Self.standInPowerRide(seconds: 25).workout.summary.normalizedPower, "normalized power before 30 s")
    }

    @Test func outdoorsTheGPSKeepsTheDistanceAndTheWheelGivesTheSpeed() throws {
        var l = WorkoutLifecycle()
        guard case .success = l.start(.cycling, id: WorkoutID(start: 1000, suffix: 1), at: 1000, settings: MetricsSettings()) else { return }
        for i in 0..<20 {
            _ = l.fixReceived(Fix(time: 1001 + Double(i), latitude: 48.1 + Double(i) * 8e-5, longitude: 11.5, mode: .threeD, horizontalAccuracy: 3), at: 1001 + Double(i))
            _ = l.sensorReceived(SensorReading(power: 200, cadence: 85, speed: 9.5, distance: 9.5), from: .csc, at: 1001.5 + Double(i))
        }
        let s = try #require(l.summary(now: 1020.6))
        #expect(s.distanceSource == .gps && s.distanceMeters < 20 * 9.5 && s.distanceMeters > 100)
        #expect(s.currentSpeed == 9.5 && s.averageCadence == 85 && s.averagePower == 200)
    }

    @Test func savedFileKeepsSensorSamplesAndGaps() throws {
        let t0 = 1_795_000_000.0
        let samples = [SensorSample(time: t0 + 1, source: .power, reading: SensorReading(power: 212, cadence: 88.25)),
                       SensorSample(time: t0 + 1.1, source: .csc, reading: SensorReading(speed: 8.125, distance: 2.105)),
                       SensorSample(time: t0 + 2, source: .power, reading: nil),
                       SensorSample(time: t0 + 3.5, source: .rsc, reading: SensorReading(cadence: 85, speed: 3.332, distance: 0.3))]
        let s = WorkoutSummary(id: WorkoutID(rawValue: "20261118T054640Z-0001")!, activity: .indoorCycling, startedAt: t0, endedAt: t0 + 5)
        let w = Workout(summary: s, sensors: samples)
        let bytes = WorkoutFile.encode(w)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#""sensors":[[1795000001.000,"power",212,88.25,null,null],"#) && text.contains(#"[1795000002.000,"power"]"#))
        let back = try WorkoutFile.decode(bytes)
        #expect(back.sensors == samples && back == w)
        expectEqual(WorkoutFile.savedForm(w), back)
        // damaged entries are skipped, never invented
        let damaged = text.replacingOccurrences(of: #""power",212"#, with: #""watts",212"#)
        try expectEqual(WorkoutFile.decode(Array(damaged.utf8)).sensors.count, 3)
    }
}
