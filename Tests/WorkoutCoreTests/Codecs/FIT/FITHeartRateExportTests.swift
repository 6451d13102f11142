import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// Heart rate recorded beside the fixes (a strap, feed HR lines) and heart rate alone (indoor
/// workouts) in FIT exports, read back by Garmin's FIT SDK (the oracle, `fit_heart_rate.py`)
/// and by our own importer.
@Suite struct FITHeartRateExportTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("fit_heart_rate.py").path
    static let hasSDK: Bool = { (try? SharedData.run(["python3", "-c", "import garmin_fit_sdk"]).status) == 0 }()
    struct Figures: Decodable {
        var integrity: Bool
        var errors: [String]
        var records: [[Value]]
        var sessions: [[String: Value]]
        var laps: [[Value]]
    }

    enum Value: Decodable, Equatable {
        case number(Double), string(String), flag(Bool), null
        init(from d: Decoder) throws {
            let c = try d.singleValueContainer()
            if c.decodeNil() { self = .null } else if let b = try? c.decode(Bool.self) { self = .flag(b) }
            else if let v = try? c.decode(Double.self) { self = .number(v) } else { self = .string(try c.decode(String.self)) }
        }
        var int: Int? { if case .number(let v) = self { return Int(v) }; return nil }
        var text: String? { if case .string(let s) = self { return s }; return nil }
        var isTrue: Bool? { if case .flag(let b) = self { return b }; return nil }
    }

    static func figures(_ bytes: [UInt8]) throws -> Figures {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hr-\(UUID().uuidString).fit")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let r = try SharedData.run(["python3", script, url.path])
        try #require(r.status == 0, "fit_heart_rate.py: \(r.stderr)")
        return try JSONDecoder().decode(Figures.self, from: Data(r.stdout.utf8))
    }

    static func settings() -> MetricsSettings {
        var s = MetricsSettings()
        s.heartRateZones = HeartRateZones(lowerBounds: [100, 120, 140, 160, 180])
        s.bodyWeightKilograms = 70; s.age = 40; s.sex = .male
        return s
    }

    /// A run with a strap: fixes every second, readings beside them (at the fixes' times, and
    /// in between). Every record carries the reading in effect at its time; the SDK reads the
    /// file as whole and the session's average and maximum are the records'.
    @Test(.requires(.python(.garminFitSDK)))
    func strapHeartRateBesideFixesIsInTheFITRecords() throws {
        let start = 1_795_000_000.0
        var settings = Self.settings()
        settings.warmUpCount = 1; settings.stationaryRadius = 0  // every fix accepted: one record each
        var r = WorkoutRecorder(id: WorkoutID(start: start, suffix: 3), activity: .running, startedAt: start, settings: settings)
        let n = 60
        var sent: [Int] = []
        for k in 0..<n {
            let t = start + 1 + Double(k)
            let bpm = 95 + (k * 29) % 90
            let outcome = r.heartRate(time: t, bpm: bpm); expectEqual(outcome, .recorded)
            sent.append(bpm)
            _ = r.ingest(Fix(time: t, latitude: 48.1 + Double(k) * 3e-5, longitude: 11.5, altitude: 520, mode: .threeD))
            // a second reading half-way: not on a fix, so not in a record
            let between = r.heartRate(time: t + 0.5, bpm: 200); expectEqual(between, .recorded)
        }
        let w = r.finish(at: start + Double(n) + 1)
        #expect(w.points.count == n && w.points.allSatisfy { $0.isAccepted && $0.fix.heartRate == nil })  // readings beside the fixes
        let f = try Self.figures(Exporter.bytes(w, .fit))
        #expect(f.integrity && f.errors.isEmpty, "\(f.errors)")
        let hrs = f.records.map { $0[1].int }
        expectEqual(hrs, sent.map { Optional($0) }, "SDK read \(hrs)")
        #expect(f.records.allSatisfy { $0[2].isTrue == true })
        let session = try #require(f.sessions.first)
        expectEqual(session["sport"]?.text, "running")
        expectEqual(session["avg_heart_rate"]?.int, Int((Double(sent.reduce(0, +)) / Double(n)).rounded()))
        expectEqual(session["max_heart_rate"]?.int, sent.max())
        print("FIT strap export: \(n) records, SDK heart rates equal; session avg \(session["avg_heart_rate"]?.int ?? -1) max \(session["max_heart_rate"]?.int ?? -1)")
    }

    /// A yoga workout (no GPS) with heart rate and a gap: the FIT file has a record per reading
    /// (timestamp and heart_rate, no position; the gap a record without heart rate), the session
    /// is training/yoga with the readings' average and maximum; our importer reads it back as
    /// the same workout (a duplicate, the same heart rate and zone times).
    @Test(.requires(.python(.garminFitSDK)))
    func indoorWorkoutExportsHeartRateOnlyRecordsAndImportsBackEqual() throws {
        let start = 1_795_000_000.0
        let settings = Self.settings()
        var r = WorkoutRecorder(id: WorkoutID(start: start, suffix: 4), activity: .yoga, startedAt: start, settings: settings)
        var sent: [Int?] = []
        for k in 0..<40 {
            let t = start + 2 + Double(k)
            if k == 20 { let ended = r.heartRateGap(at: t); #expect(ended); sent.append(nil); continue }  // contact lost
            if k > 20 && k < 25 { continue }  // nothing while out of contact
            let bpm = 80 + (k * 17) % 100
            let outcome = r.heartRate(time: t, bpm: bpm); expectEqual(outcome, .recorded)
            sent.append(bpm)
        }
        let w = r.finish(at: start + 45)
        let readings = sent.compactMap { $0 }
        #expect(w.points.isEmpty && w.summary.averageHeartRate == Double(readings.reduce(0, +)) / Double(readings.count))
        let bytes = Exporter.bytes(w, .fit)
        let f = try Self.figures(bytes)
        #expect(f.integrity && f.errors.isEmpty, "\(f.errors)")
        expectEqual(f.records.map { $0[1].int }, sent, "SDK read \(f.records.map { $0[1].int })")
        #expect(f.records.allSatisfy { $0[2].isTrue == false })
        expectEqual(f.records.map { $0[0].int }, w.heartRate.samples.map { Int($0.time - fitEpochOffset) })
        let session = try #require(f.sessions.first)
        #expect(session["sport"]?.text == "training" && session["sub_sport"]?.text == "yoga", "\(session)")
        expectEqual(session["avg_heart_rate"]?.int, Int((Double(readings.reduce(0, +)) / Double(readings.count)).rounded()))
        expectEqual(session["max_heart_rate"]?.int, readings.max())
        expectEqual(session["total_elapsed_time"]?.int, 45)

        // Our importer: the same workout again.
        let tracks = try Importer.readAll(bytes, fileName: "yoga.fit")
        #expect(tracks.count == 1 && tracks[0].fixes.isEmpty && tracks[0].notes == [Importer.heartRateOnlyNote])
        let back = try Importer.workout(from: tracks[0], activity: nil, id: 9, settings: settings, source: "imported:yoga.fit")
        expectEqual(back.activity, .yoga)
        #expect(Importer.isDuplicate(back.summary, of: w.summary))
        expectEqual(back.heartRate, w.heartRate, "\(back.heartRate.samples.prefix(3))")
        // The session's avg_heart_rate (whole bpm) is the workout's: the device's figure.
        #expect(back.summary.averageHeartRate == w.summary.averageHeartRate?.rounded() && back.summary.maxHeartRate == w.summary.maxHeartRate)
        #expect(back.summary.heartRateZoneSeconds == w.summary.heartRateZoneSeconds && back.summary.heartRateZoneSeconds.reduce(0, +) > 0)
        expectEqual(back.summary.elapsedSeconds, w.summary.elapsedSeconds)
        // The file's session carries the calories (whole kcal): the device's figure now.
        #expect(back.summary.caloriesMethod == .device && back.summary.calories == w.summary.calories?.rounded())
    }
}
