import Foundation
import Testing
@testable import WorkoutCore

/// Every file means what its device meant (issue 39 items 3-7, 10 and 11), on files built here:
/// the wall span and the timer apart, each multisport leg with its session's records, the
/// session's averages, a power field of zeros that is no power meter, a run's cadence in steps,
/// and points that cannot be positions.
private let t0 = FITTestFiles.t0
private let semicircles = FITTestFiles.semicircles

@Suite struct DeviceSemanticsTests {
    typealias F = FITEncoder.FieldDefinition

    /// A rider of 70 kg, 40 years, male: calories can come from heart rate.
    static let settings: MetricsSettings = {
        var s = MetricsSettings()
        s.bodyWeightKilograms = 70
        s.age = 40
        s.sex = .male
        return s
    }()

    static func streamed(_ bytes: [UInt8]) throws -> [ImportedWorkout] {
        var k: UInt16 = 0
        return try FITImport.workouts(FITBytes(bytes), fileName: "t.fit", activity: nil, settings: settings, source: "imported:t.fit",
                                      suffix: { k += 1; return k })
    }

    static func whole(_ bytes: [UInt8]) throws -> [ImportedWorkout] {
        try Importer.readAll(bytes, fileName: "t.fit").enumerated().map { k, t in
            try Importer.imported(from: t, activity: nil, id: UInt16(k + 1), settings: settings, source: "imported:t.fit")
        }
    }

    /// `n` one-second records moving north at 3 m/s with heart rate 140, the given power and
    /// cadence on each (nil: no field), and a session of `sport` with the given averages.
    static func ride(records n: Int, sport: Int64 = 2, power: (Int) -> Int64?, cadence: Int64? = nil, fractional: Int64? = nil,
                     session: (hr: Int64?, power: Int64?, cadence: Int64?, fractional: Int64?) = (nil, nil, nil, nil)) -> [UInt8] {
        var e = FITEncoder()
        e.define(local: 0, global: 0, [F(0, .enumeration)])
        e.message(local: 0, [4])
        e.define(local: 1, global: 20, [F(253, .uint32), F(0, .sint32), F(1, .sint32), F(5, .uint32), F(3, .uint8), F(7, .uint16),
                                        F(4, .uint8), F(53, .uint8)])
        for k in 0..<n {
            let lat = 47.0 + Double(k) * 3 / 111_195
            e.message(local: 1, [t0 + Int64(k), Int64((lat * semicircles).rounded()), Int64((8.5 * semicircles).rounded()), Int64(k * 300),
                                 140, power(k), cadence, fractional])
        }
        e.define(local: 2, global: 18, [F(253, .uint32), F(2, .uint32), F(5, .enumeration), F(7, .uint32), F(8, .uint32), F(9, .uint32),
                                        F(16, .uint8), F(20, .uint16), F(18, .uint8), F(41, .uint8)])
        let ms = Int64(n - 1) * 1000
        e.message(local: 2, [t0 + Int64(n - 1), t0, sport, ms, ms, Int64((n - 1) * 300), session.hr, session.power, session.cadence, session.fractional])
        return e.file()
    }

    // MARK: item 3: elapsed is the wall span, the timer the device's

    /// A FIT ride with a timer stop of 300 s: elapsed is total_elapsed_time (the wall span),
    /// `timerSeconds` total_timer_time; before, elapsed was the timer and the wall span nowhere.
    @Test func aTimerStopCountsInElapsedNotInTheTimer() throws {
        var e = FITEncoder()
        e.define(local: 0, global: 0, [F(0, .enumeration)])
        e.message(local: 0, [4])
        e.define(local: 1, global: 20, [F(253, .uint32), F(0, .sint32), F(1, .sint32), F(5, .uint32)])
        e.define(local: 4, global: 21, [F(253, .uint32), F(0, .enumeration), F(1, .enumeration)])
        e.message(local: 4, [t0, 0, 0])
        for k in 0..<900 where k <= 300 || k >= 600 {
            if k == 600 { e.message(local: 4, [t0 + 600, 0, 0]) }
            let lat = 47.0 + Double(k) * 3 / 111_195
            e.message(local: 1, [t0 + Int64(k), Int64((lat * semicircles).rounded()), Int64((8.5 * semicircles).rounded()), Int64(k * 300)])
            if k == 300 { e.message(local: 4, [t0 + 300, 0, 4]) }
        }
        e.message(local: 4, [t0 + 899, 0, 4])
        e.define(local: 2, global: 18, [F(253, .uint32), F(2, .uint32), F(5, .enumeration), F(7, .uint32), F(8, .uint32), F(9, .uint32)])
        e.message(local: 2, [t0 + 899, t0, 2, 899_000, 599_000, 899 * 300])
        for w in [try Self.streamed(e.file()), try Self.whole(e.file())] {
            let s = try #require(w.first).recorded.summary
            expectEqual(s.elapsedSeconds, 899)
            expectEqual(s.timerSeconds, 599)
            expectLessOrEqual(s.movingSeconds, 599)
            expectLess(abs(s.averageSpeed - s.distanceMeters / 599), 1e-9)
            // In the JSON, `show` and back from a saved file.
            let json = s.json()
            #expect(json["elapsedSeconds"]?.doubleValue == 899 && json["timerSeconds"]?.doubleValue == 599)
            let back = try #require(WorkoutSummary(json: json))
            #expect(back.elapsedSeconds == 899 && back.timerSeconds == 599)
        }
    }

    /// A summary saved before `timerSeconds` existed: its elapsed was the timer's; the wall
    /// span is start to end.
    @Test func aSummarySavedBeforeTheTimerReadsItsElapsedAsTheTimer() throws {
        var s = WorkoutSummary(id: WorkoutID(start: 1_600_000_000, suffix: 1), activity: .running, startedAt: 1_600_000_000,
                               endedAt: 1_600_000_900, elapsedSeconds: 600)
        var json = s.json()
        if case .object(var o) = json { o["timerSeconds"] = nil; json = .object(o) }
        let back = try #require(WorkoutSummary(json: json))
        #expect(back.timerSeconds == 600 && back.elapsedSeconds == 900)
        s.timerSeconds = 600
        s.elapsedSeconds = 900
        expectEqual(try #require(WorkoutSummary(json: s.json())).timerSeconds, 600)
    }

    // MARK: item 4 (and issue 45 item 7): each leg keeps the records inside its session

    /// A run, a transition and a run whose sessions carry no total_elapsed_time and are
    /// stamped when the watch saved them, two minutes after the last record (so each one's
    /// span reached over the later legs): before, every record went to the first leg and the
    /// others imported as "Treadmill running" with 0 points.
    @Test func eachLegKeepsTheRecordsOfItsSession() throws {
        var e = FITEncoder()
        e.define(local: 0, global: 0, [F(0, .enumeration)])
        e.message(local: 0, [4])
        e.define(local: 1, global: 20, [F(253, .uint32), F(0, .sint32), F(1, .sint32), F(3, .uint8)])
        let legs: [(sport: Int64, seconds: Int)] = [(1, 600), (3, 90), (1, 900)]
        var t = t0, lat = 47.0
        var starts: [Int64] = []
        for leg in legs {
            starts.append(t)
            for k in 0..<leg.seconds {
                lat += 3 / 111_195
                e.message(local: 1, [t + Int64(k), Int64((lat * semicircles).rounded()), Int64((8.5 * semicircles).rounded()), 150])
            }
            t += Int64(leg.seconds)
        }
        e.define(local: 2, global: 18, [F(253, .uint32), F(2, .uint32), F(5, .enumeration), F(8, .uint32)])
        for (k, leg) in legs.enumerated() { e.message(local: 2, [t + 120, starts[k], leg.sport, Int64(leg.seconds) * 1000]) }
        let bytes = e.file()
        for ws in [try Self.streamed(bytes), try Self.whole(bytes)] {
            let s = ws.map(\.recorded.summary)
            expectEqual(s.map(\.activity), [.running, .transition, .running])
            expectEqual(s.map(\.pointCount), legs.map(\.seconds))
            expectEqual(s.map(\.averageHeartRate), [150, 150, 150])
        }
    }

    // MARK: item 6: a power field of zeros is no power meter

    /// A ride with heart rate whose every power reading is 0: no power, no 0 W average or NP,
    /// calories from heart rate, and a warning; before, "0 W average, NP 0, kcal from power".
    @Test func aPowerFieldOfZerosIsNoPowerMeter() throws {
        let bytes = Self.ride(records: 1200, power: { _ in 0 })
        for ws in [try Self.streamed(bytes), try Self.whole(bytes)] {
            let w = try #require(ws.first)
            let s = w.recorded.summary
            #expect(s.averagePower == nil && s.maxPower == nil && s.normalizedPower == nil && s.powerCurve.isEmpty, "\(s.averagePower ?? -1)")
            #expect(s.caloriesMethod == .heartRate && (s.calories ?? 0) > 0, "\(String(describing: s.caloriesMethod))")
            #expect(w.warnings.contains(Importer.silentPowerWarning), "\(w.warnings)")
        }
        // One reading above 0 is a power meter: its zeros count (a coasting rider), as the device counts them.
        let meter = Self.ride(records: 1200, power: { $0 % 2 == 0 ? 200 : 0 })
        for ws in [try Self.streamed(meter), try Self.whole(meter)] {
            let s = try #require(ws.first).recorded.summary
            expectLess(abs((s.averagePower ?? 0) - 100), 0.5)
            #expect(s.caloriesMethod == .power)
        }
    }

    // MARK: items 5 and 10: the session's averages are the workout's

    /// A session saying avg_power 182 W over records whose zeros the records' mean without
    /// them would leave out, avg_heart_rate 165 over records of 140: the device's figures.
    @Test func theSessionsAveragesAreTheWorkouts() throws {
        let bytes = Self.ride(records: 600, power: { $0 % 4 == 0 ? 0 : 243 }, session: (165, 182, nil, nil))
        for ws in [try Self.streamed(bytes), try Self.whole(bytes)] {
            let s = try #require(ws.first).recorded.summary
            #expect(s.averagePower == 182 && s.averageHeartRate == 165, "\(s.averagePower ?? -1) W, \(s.averageHeartRate ?? -1) bpm")
        }
    }

    /// Issue 39 item 10: the climb "checked against the device's total_ascent where a file has
    /// it". The decoder read no total_ascent: a session's 268 m up and 255 m down (fields 22 and
    /// 23) are now carried beside ours (`deviceElevationGainMeters`, `...LossMeters`), through
    /// both import paths, the saved file, an edit, both JSON writers and `show`'s reader.
    @Test func theDevicesClimbIsCarriedBesideOurs() throws {
        var e = FITEncoder()
        e.define(local: 0, global: 0, [F(0, .enumeration)])
        e.message(local: 0, [4])
        e.define(local: 1, global: 20, [F(253, .uint32), F(0, .sint32), F(1, .sint32), F(5, .uint32), F(2, .uint16)])
        for k in 0..<300 {
            let lat = 47.0 + Double(k) * 3 / 111_195
            // enhanced-less altitude: (m + 500) x 5, rising 0.2 m a record
            e.message(local: 1, [t0 + Int64(k), Int64((lat * semicircles).rounded()), Int64((8.5 * semicircles).rounded()), Int64(k * 300),
                                 Int64(((400 + 0.2 * Double(k)) + 500) * 5)])
        }
        e.define(local: 2, global: 18, [F(253, .uint32), F(2, .uint32), F(5, .enumeration), F(7, .uint32), F(8, .uint32), F(9, .uint32),
                                        F(22, .uint16), F(23, .uint16)])
        e.message(local: 2, [t0 + 299, t0, 2, 299_000, 299_000, 299 * 300, 268, 255])
        for ws in [try Self.streamed(e.file()), try Self.whole(e.file())] {
            let w = try #require(ws.first)
            let s = w.recorded.summary
            #expect(s.deviceElevationGainMeters == 268 && s.deviceElevationLossMeters == 255, "\(String(describing: s.deviceElevationGainMeters))")
            expectLess(abs(s.elevationGainMeters - 0.2 * 299), 3, "ours stays ours: the records' 60 m")
            // The saved file keeps the device's figures; an edit applies them again.
            let saved = try WorkoutFile.decode(WorkoutFile.encode(w.workout))
            expectEqual(saved.device?.ascentMeters, 268)
            let edited = Importer.edited(saved, activity: .running, settings: Self.settings).summary
            #expect(edited.deviceElevationGainMeters == 268 && edited.deviceElevationLossMeters == 255)
            // Both writers, read back.
            let o = s.json()
            expectEqual(o["deviceElevationGainMeters"]?.doubleValue, 268)
            var writer = JSONWriter()
            var cache = SummaryJSONCache()
            s.writeJSON(to: &writer, cache: &cache)
            expectEqual(String(decoding: writer.bytes, as: UTF8.self), o.serialized())
            expectEqual(WorkoutSummary(json: o)?.deviceElevationLossMeters, 255)
            // The web page shows it beside ours.
            let page = String(decoding: WorkoutPage(workout: w.workout).render(WebFixtures.context), as: UTF8.self)
            #expect(page.contains("<b>268 m</b><span>Elevation gain (device)</span>"), "\(page)")
        }
        // Without the fields: nothing said, nothing written.
        let plain = try #require(try Self.streamed(Self.ride(records: 60, power: { _ in nil })).first).recorded.summary
        expectNil(plain.deviceElevationGainMeters)
        expectNil(plain.json()["deviceElevationGainMeters"])
    }

    /// A pool swim with heart-rate records and no position: its heart rate is kept.
    @Test func aPoolSwimKeepsItsHeartRate() throws {
        let ws = try Self.streamed(FITTestFiles.poolSwim(active: 30, rests: 10))
        let s = try #require(ws.first).recorded.summary
        expectEqual(s.activity, .poolSwimming)
        let hr = try #require(s.averageHeartRate)
        #expect(hr > 120 && hr < 127 && s.maxHeartRate == 126, "\(hr)")
    }

    // MARK: item 7: a run's cadence in steps per minute

    /// A run whose records say cadence 82 and fractional 64/128 (one foot's strides): 165 steps
    /// per minute in the summary, on the web page and in `show`; before, 82 "rpm".
    @Test func aRunsCadenceIsInStepsPerMinute() throws {
        let bytes = Self.ride(records: 600, sport: 1, power: { _ in nil }, cadence: 82, fractional: 64, session: (nil, nil, 82, 64))
        for ws in [try Self.streamed(bytes), try Self.whole(bytes)] {
            let s = try #require(ws.first).recorded.summary
            expectEqual(s.activity, .running)
            expectEqual(s.averageCadence, 165)
        }
        // Without the session's figure, the records' (twice their whole strides).
        let plain = Self.ride(records: 600, sport: 1, power: { _ in nil }, cadence: 82)
        let s = try #require(try Self.streamed(plain).first).recorded.summary
        expectEqual(s.averageCadence, 164)
        #expect(s.laps.allSatisfy { $0.averageCadence == nil || $0.averageCadence == 164 })
        let w = try #require(try Self.streamed(plain).first).workout
        let page = String(decoding: WorkoutPage(workout: w).render(WebFixtures.context), as: UTF8.self)
        #expect(page.contains("164 spm") && !page.contains("164 rpm"))
        // A ride's stays in rpm.
        let ride = try #require(try Self.streamed(Self.ride(records: 600, power: { _ in nil }, cadence: 82)).first).recorded.summary
        expectEqual(ride.averageCadence, 82)
    }

    // MARK: item 11: a point that cannot be a position

    /// OpenTracks' legacy pause (latitude 100) and resume (200) markers end the segment; a
    /// latitude of 123 is skipped; a time in 1901 is no time. Before, "trkpt lat 100.0 out of range".
    @Test func oddPointsAreReadForWhatTheyMeanOrSkipped() throws {
        let gpx = """
        <gpx version="1.1" creator="OpenTracks"><trk><type>running</type><trkseg>
        <trkpt lat="47.0" lon="8.0"><time>2021-01-07T21:50:00Z</time></trkpt>
        <trkpt lat="47.001" lon="8.0"><time>2021-01-07T21:50:40Z</time></trkpt>
        <trkpt lat="100" lon="0"><time>2021-01-07T21:51:00Z</time></trkpt>
        <trkpt lat="200" lon="0"><time>2021-01-07T21:55:00Z</time></trkpt>
        <trkpt lat="47.002" lon="8.0"><time>2021-01-07T21:55:10Z</time></trkpt>
        <trkpt lat="123" lon="8.0"><time>2021-01-07T21:55:20Z</time></trkpt>
        <trkpt lat="47.003" lon="8.0"><time>1901-12-13T20:45:52Z</time></trkpt>
        <trkpt lat="47.004" lon="8.0"><time>2021-01-07T21:56:00Z</time></trkpt>
        </trkseg></trk></gpx>
        """
        let g = try GPXReader.read(Array(gpx.utf8))
        expectEqual(g.trackPoints.map(\.segment), [0, 0, 1, 1])
        #expect(g.pauseMarkers == 2 && g.skippedPoints == 1 && g.impossibleTimes == 1)
        let track = try Importer.read(Array(gpx.utf8), fileName: "ot.gpx")
        let imported = try Importer.imported(from: track, activity: nil, id: 1, settings: MetricsSettings(), source: "imported:ot.gpx")
        let s = imported.recorded.summary
        expectEqual(s.acceptedCount, 4)
        expectEqual(s.elapsedSeconds, 360)
        expectLess(s.timerSeconds, 360)  // the pause is the marker's
        #expect(imported.warnings.contains { $0.contains("pause/resume marker") }, "\(imported.warnings)")
        #expect(imported.warnings.contains { $0.contains("skipped 1 track point") && $0.contains("lat 123") }, "\(imported.warnings)")
        #expect(imported.warnings.contains { $0.contains("stamped before 1980") }, "\(imported.warnings)")
        // Every point stamped 1901 (gpxpy's Mojstrovka.gpx): refused, saying why.
        let old = "<gpx><trk><trkseg><trkpt lat=\"46.4\" lon=\"13.6\"><time>1901-12-13T20:45:52Z</time></trkpt></trkseg></trk></gpx>"
        #expect(throws: Importer.Failure.file("no timed track points to import: 1 track point stamped before 1980, so without a time, not imported (first at line 1: 1901-12-13T20:45:52Z)")) {
            _ = try Importer.readAll(Array(old.utf8), fileName: "m.gpx")
        }
    }
}

extension DeviceSemanticsTests {
    // MARK: issue 45 item 7: records at random times

    /// 300 records stamped at random times over 136 years, with and without a session: no
    /// three agree, so nothing is a consistent run: refused in words. Before, a workout of
    /// 1,193,046 hours.
    @Test(arguments: [true, false])
    func recordsAtRandomTimesAreRefusedInWords(session: Bool) throws {
        var rng = SplitMix64(seed: 45)
        var stamped: [Int: Int64] = [:]
        for k in 0..<300 { stamped[k] = Int64(rng.next() % 4_000_000_000) }
        let bytes = FITTestFiles.run(records: 300, stamped: stamped, session: session)
        #expect(throws: Importer.Failure.file(ImportTimeJudge.noConsistentRun)) { _ = try Self.streamed(bytes) }
        #expect(throws: Importer.Failure.file(ImportTimeJudge.noConsistentRun)) { _ = try Self.whole(bytes) }
        // One stray record among 300 in sequence is still only that record (FITDeviceTests).
        let one = FITTestFiles.run(records: 300, stamped: [150: 5], session: session)
        expectEqual(try Self.streamed(one).first?.recorded.summary.acceptedCount, 299)
    }
}
