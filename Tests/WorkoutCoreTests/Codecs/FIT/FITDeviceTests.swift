import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// The device's numbers (issue 25): multisport legs and transitions, pool swims, bad
/// timestamps (issue 27 item 4) and damaged files, on FIT files built here (the shared data have
/// none of them) and checked against Garmin's SDK, the oracle.
@Suite struct FITDeviceTests {
    static func workouts(_ bytes: [UInt8], name: String = "f.fit") throws -> [ImportedWorkout] {
        var linker = MultisportLinker()
        return try Importer.readAll(bytes, fileName: name).enumerated().map { k, t in
            var w = try Importer.imported(from: t, activity: nil, id: UInt16(k), settings: MetricsSettings(), source: "imported:" + name)
            linker.link(&w.workout.summary, leg: t.leg)
            return w
        }
    }

    // MARK: multisport

    /// 4 legs and 3 transitions: 7 workouts in order, each a leg of one event, with the
    /// device's distance and time; before, the transitions were dropped and so was a leg.
    @Test func everySessionOfAMultisportFileIsALinkedWorkout() throws {
        let bytes = FITTestFiles.triathlon
        let ws = try Self.workouts(bytes).map(\.workout.summary)
        expectEqual(ws.map(\.activity), [.openWaterSwimming, .transition, .cycling, .transition, .running, .transition, .running])
        let event = ws[0].id
        expectEqual(ws.map { $0.multisport }, ws.indices.map { MultisportLeg(event: event, leg: $0 + 1, legs: 7) })
        let file = try FITActivityFile.read(bytes)
        for (s, session) in zip(ws, file.sessions) {
            expectLess(abs(s.distanceMeters - session.distanceMeters!), 0.01, "\(s.activity): \(s.distanceMeters) vs \(session.distanceMeters!)")
            expectEqual(s.distanceSource, .device)
            expectLess(abs(s.elapsedSeconds - session.timerSeconds!), 0.01)
            expectEqual(s.startedAt, session.startTime)
        }
        expectLess(abs(ws[6].distanceMeters - 2202), 0.5)  // the 2.2 km run once dropped
        #expect(ws[0].calories == 250 && ws[0].caloriesMethod == .device)
        #expect(ws[0].swim?.strokes == nil && ws[0].swim?.pacePer100 != nil)
    }

    @Test(.requires(.sharedData, .python(.garminFitSDK)))
    func theTriathlonFileIsWhatTheSDKReads() throws {
        let ref = try FITOracle.figures(bytes: FITTestFiles.triathlon)
        #expect(ref.integrity && ref.errors.isEmpty)
        expectEqual(ref.sessions.map { $0[3] }, ["swimming", "transition", "cycling", "transition", "running", "transition", "running"].map(FITOracle.Figures.Session.text))
        let ws = try Self.workouts(FITTestFiles.triathlon).map(\.workout.summary)
        for (s, session) in zip(ws, ref.sessions) {
            expectLessOrEqual(abs(s.distanceMeters - session[4].number!), 0.005 * session[4].number!)
            expectLessOrEqual(abs(s.elapsedSeconds - session[2].number!), 0.01 * session[2].number!)
        }
    }

    // MARK: pool swim

    /// 166 lengths of 25 yd (22.86 m), 114 swum and 52 rests: 2,606 m. Before: refused as
    /// "none with a position (indoor?): nothing to import".
    @Test func aPoolSwimImportsWithItsLengthsAndDistance() throws {
        let bytes = FITTestFiles.poolSwim(active: 114, rests: 52)
        let imported = try #require(try Self.workouts(bytes).first)
        let w = imported.workout
        let s = w.summary
        expectEqual(s.activity, .poolSwimming)
        expectLess(abs(s.distanceMeters - 2606.04), 0.01)
        #expect(s.distanceSource == .device && s.gpsDistanceMeters == nil)
        let swim = try #require(s.swim)
        #expect(swim.lengths == 166 && swim.activeLengths == 114 && swim.poolUnit == .yards && swim.poolLengthMeters == 22.86)
        #expect(swim.strokes == 114 * 16 && swim.averageSwolf == 36 && swim.mainStroke == .freestyle)
        // 20 s per 25 yd: 80 s per 100 yd.
        #expect(abs(swim.pacePer100! - 80) < 0.01 && swim.paceUnit == .yards)
        #expect(s.calories == 420 && s.caloriesMethod == .device)
        #expect(!imported.warnings.contains(Importer.heartRateOnlyNote))
        // The lengths are kept in the saved file and read back.
        let back = try WorkoutFile.decode(WorkoutFile.encode(w))
        expectEqual(back.device?.pool?.lengths.count, 166)
        expectEqual(back.summary.swim, s.swim)
        expectEqual(back, WorkoutFile.savedForm(w))
        // ... and a recompute (edit) keeps them and the distance.
        let again = Importer.edited(back, activity: .poolSwimming, settings: MetricsSettings())
        #expect(again.summary.swim == s.swim && abs(again.summary.distanceMeters - 2606.04) < 0.01)
    }

    @Test(.requires(.sharedData, .python(.garminFitSDK)))
    func thePoolSwimFileIsWhatTheSDKReads() throws {
        let ref = try FITOracle.figures(bytes: FITTestFiles.poolSwim(active: 114, rests: 52))
        #expect(ref.integrity && ref.errors.isEmpty)
        expectEqual(ref.lengths, 166)
        expectEqual(ref.sessions.first?[7].number, 166)
        expectLess(abs((ref.sessions.first?[4].number ?? 0) - 2606.04), 0.01)
        expectEqual(ref.positioned, 0)
    }

    // MARK: bad timestamps (issue 27 item 4)

    /// 600 one-second records with one stamped 0 (the FIT epoch): before, the workout started
    /// on 1989-12-31 with an elapsed time of 1,000,000,599 s.
    @Test(arguments: [true, false])
    func aRecordStampedAtTheFITEpochIsAnOutlier(session: Bool) throws {
        for at in [0, 300, 599] {
            let bytes = FITTestFiles.run(records: 600, stamped: [at: 0], session: session)
            let imported = try #require(try Self.workouts(bytes).first)
            let s = imported.workout.summary
            // Without a session to say when it started, a first record stamped 0 leaves the second as the start.
            let first = session || at != 0 ? 0.0 : 1.0
            expectEqual(s.startedAt, Double(FITTestFiles.t0) + first + fitEpochOffset, "record \(at)")
            #expect(s.elapsedSeconds < 700 && s.elapsedSeconds >= 598, "record \(at): \(s.elapsedSeconds)")
            #expect(s.acceptedCount == 599)
            if session {
                // Outside the session's span: left out and said (issue 45 item 7).
                #expect(s.pointCount == 599 && s.rejectedByReason[.timeOutlier] == nil)
                #expect(imported.warnings.contains { $0.contains("1 record outside the file's sessions") && $0.contains("1989-12-31") },
                        "\(imported.warnings)")
            } else {
                #expect(s.rejectedByReason[.timeOutlier] == 1)
                #expect(imported.warnings.contains { $0.contains("1 record stamped far out of sequence") && $0.contains("1989-12-31") },
                        "\(imported.warnings)")
            }
        }
    }

    /// ... and one more at +10^8 s: before, elapsed 1.1e9 s and 150 good fixes rejected as out
    /// of order.
    @Test func aRecordFarAheadIsAnOutlierToo() throws {
        let bytes = FITTestFiles.run(records: 600, stamped: [100: 0, 449: FITTestFiles.t0 + 100_000_000])
        let imported = try #require(try Self.workouts(bytes).first)
        let s = imported.workout.summary
        expectEqual(s.startedAt, Double(FITTestFiles.t0) + fitEpochOffset)
        expectLess(s.elapsedSeconds, 700)
        // Both outside the session's span: left out and said (issue 45 item 7).
        #expect(s.pointCount == 598 && s.rejectedByReason[.outOfOrder] == nil && s.acceptedCount == 598)
        #expect(imported.warnings.contains { $0.hasPrefix("2 records outside the file's sessions") }, "\(imported.warnings)")
        // The saved workout rebuilds to the same numbers.
        let saved = WorkoutFile.savedForm(imported.workout)
        let again = Importer.edited(saved, activity: saved.activity, settings: MetricsSettings())
        #expect(again.summary.elapsedSeconds == s.elapsedSeconds && again.summary.acceptedCount == 598)
        expectEqual(again.summary.endedAt, s.endedAt)
    }

    @Test func theJudgeKeepsPausesAndRealSteps() {
        let j = ImportTimeJudge()
        // A 2-hour pause inside a track, a last pair of fixes after a 5-hour pause: kept.
        let pause = (0..<10).map(Double.init) + (0..<10).map { 7200 + Double($0) } + [25_000, 25_001]
        #expect(!j.outliers(pause).contains(true))
        // A run of three agreeing times after a big step is a real step (kept); two are not.
        #expect(!j.outliers([0, 1, 2, 3, 1e9, 1e9 + 1, 1e9 + 2, 4, 5, 6]).contains(true))
        expectEqual(j.outliers([0, 1, 2, 3, 1e9, 1e9 + 1, 4, 5, 6]), [false, false, false, false, true, true, false, false, false])
        // One an hour back, one an hour ahead.
        expectEqual(j.outliers([0, 1, 2, -3600, 4, 5, 3605, 7, 8, 9]), [false, false, false, true, false, false, true, false, false, false])
        // Too few times to judge: kept.
        #expect(!j.outliers([0, 1e9]).contains(true))
    }

    // MARK: device distance and time on the shared files

    /// The shared ELEMNT ride: 78.94 km as its session says (before 81.11 km: distance was
    /// counted across the device's timer stops), the GPS track's 81.11 km beside it.
    @Test(.requires(.shared("data/fit")))
    func theELEMNTRideReadsTheHeadUnitsDistance() throws {
        let name = "2019-02-17-062644-ELEMNT-297E-195-0.fit"
        let s = try #require(try Self.workouts(try SharedData.bytes(SharedData.url("data/fit/" + name)), name: name).first).workout.summary
        expectLess(abs(s.distanceMeters - 78_940.55), 0.01)
        expectEqual(s.distanceSource, .device)
        #expect(abs(try #require(s.gpsDistanceMeters) - 81_110) < 50)
        #expect(s.calories == 1724 && s.caloriesMethod == .device)
    }

    /// The same ride's power and cadence are its 13,346 records' (the SDK: mean 102.6 W, max
    /// 648 W; the session says 102 W). Before, the 125 records without a position, all at 0 W,
    /// made a sensor track that replaced them: 0 W, max 0 W, 1 rpm on every page. Its normalized
    /// power, intensity, training stress, work, zones and power curve come from the same records
    /// (before: none, the analysis read only the sensor track); the ELEMNT's own session, with
    /// its 220 W threshold, says NP 157 W, IF 0.713, TSS 190, work 1,371 kJ. (One import for
    /// both: the file takes seconds in a debug build.)
    @Test(.requires(.shared("data/fit")))
    func theELEMNTRideKeepsItsRecordsPower() throws {
        let name = "2019-02-17-062644-ELEMNT-297E-195-0.fit"
        var settings = MetricsSettings()
        settings.ftpWatts = 220
        let track = try #require(try Importer.readAll(try SharedData.bytes(SharedData.url("data/fit/" + name)), fileName: name).first)
        let s = try Importer.imported(from: track, activity: nil, id: 0, settings: settings, source: "imported:" + name).workout.summary
        let average = try #require(s.averagePower)
        expectLess(abs(average - 102.6), 1.5, "average power \(average) W")
        expectEqual(s.maxPower, 648)
        let cadence = try #require(s.averageCadence)
        expectGreater(cadence, 60, "average cadence \(cadence) rpm")

        let np = try #require(s.normalizedPower, "no normalized power")
        expectLess(abs(np - 157), 157 * 0.03, "normalized power \(np) W")
        let f = try #require(s.intensityFactor)
        expectLess(abs(f - 0.713), 0.025, "intensity factor \(f)")
        let tss = try #require(s.trainingStress)
        expectLess(abs(tss - 190), 190 * 0.07, "training stress \(tss)")
        let work = try #require(s.workKilojoules)
        expectLess(abs(work - 1371), 1371 * 0.03, "work \(work) kJ")
        #expect(s.powerZoneSeconds.count == 7 && s.powerZoneSeconds.reduce(0, +) > 13_000, "zones \(s.powerZoneSeconds)")
        expectEqual(s.powerCurve.map(\.seconds), PowerAnalysis.curveSeconds)
        let best5 = try #require(s.powerCurve.first?.watts)
        #expect(best5 > 500 && best5 <= 648, "best 5 s \(best5) W")
    }

    // MARK: damaged files

    /// A 13,471-record file with one flipped bit in a record's value: the SDK decodes every
    /// record and reports the CRC; so does the import, with a warning (before: refused).
    @Test(.requires(.sharedData, .python(.garminFitSDK)))
    func aFileWithAWrongCRCKeepsEveryRecordTheSDKDecodes() throws {
        let name = "2019-02-17-062644-ELEMNT-297E-195-0.fit"
        var bytes = try SharedData.bytes(SharedData.url("data/fit/" + name))
        bytes[bytes.count / 2] ^= 0x10
        let ref = try FITOracle.figures(bytes: bytes)
        #expect(!ref.errors.isEmpty && ref.errors[0].contains("CRC"))
        let imported = try #require(try Self.workouts(bytes, name: name).first)
        let s = imported.workout.summary
        expectGreaterOrEqual(Double(s.acceptedCount), 0.95 * Double(ref.positioned), "\(s.acceptedCount) of \(ref.positioned)")
        #expect(imported.warnings.contains { $0.contains("CRC mismatch") })
    }

    /// A phone app's file with a message of an undefined local type mid-file: the SDK stops
    /// there with what it read; so does the import, saying how much was lost (before: refused).
    @Test(.requires(.sharedData, .python(.garminFitSDK)))
    func anUndefinedLocalTypeMidFileKeepsWhatTheSDKDecodes() throws {
        var bytes = FITTestFiles.run(records: 600)
        // Record 400's header (14-byte header, file_id definition 9 + data 2, record
        // definition 18, records of 1 + 16 bytes) names local type 9, never defined.
        let at = 14 + 9 + 2 + 18 + 400 * 17
        expectEqual(bytes[at], 1)
        bytes[at] = 9
        let ref = try FITOracle.figures(bytes: bytes)
        #expect(!ref.errors.isEmpty)
        let imported = try #require(try Self.workouts(bytes).first)
        let s = imported.workout.summary
        expectEqual(ref.positioned, 400)
        expectEqual(s.acceptedCount, ref.positioned)
        #expect(imported.warnings.contains { $0.contains("local type 9 without a definition") })
    }
}
