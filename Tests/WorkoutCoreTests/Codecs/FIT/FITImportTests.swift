import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// Every FIT file in ../shared/data/fit against Garmin's FIT SDK (fit_reference.py): activities
/// import with the SDK's positioned record count, the device's distance within 0.5 % of the
/// session's `total_distance` (before: the geodesic through every record, 2.7 % over on the
/// Wahoo ride whose timer stops were counted) with the GPS track's length within 1 % of the
/// geodesic beside it, the timer within 1 % of the session's timer time and elapsed (the wall
/// span) within 1 % of its elapsed time, the device's calories, the same heart rate
/// and power; the rest are refused in words, as the data README says.
@Suite(.requires(.sharedData, .python(.garminFitSDK), .python(.geographiclib)))
struct FITImportTests {
    static let activities = ["Activity.fit", "activity-small-fenix2-run.fit", "garmin-edge-500-activity.fit", "garmin-fenix-5-run.fit",
                             "garmin-fenix-5-bike.fit", "sample-activity.fit", "2019-02-17-062644-ELEMNT-297E-195-0.fit",
                             "developer-types-sample.fit"]
    static let geodesic = Geodesic.wgs84

    static func path(_ name: String) -> String { SharedData.url("data/fit/" + name).path }

    /// The SDK's figures of every activity, geodesic lengths included, from one run of the
    /// script (not one Python and SDK per file).
    static let activityFigures: Result<[String: FITOracle.Figures], Error> = Result {
        try Dictionary(uniqueKeysWithValues: zip(FITImportTests.activities, FITOracle.figures(FITImportTests.activities.map(FITImportTests.path), geodesic: true)))
    }

    @Test(arguments: activities)
    func importsWithTheSDKsFigures(_ name: String) throws {
        let ref = try #require(try Self.activityFigures.get()[name])
        let geodesic = try #require(ref.geodesic), geodesicRunning = try #require(ref.geodesic_running)
        let tracks = try Importer.readAll(try SharedData.bytes(SharedData.url("data/fit/" + name)), fileName: name)
        expectEqual(tracks.count, 1)
        let track = try #require(tracks.first)
        let w = try Importer.workout(from: track, activity: nil, id: 1, settings: MetricsSettings(), source: "imported:" + name)
        let s = w.summary
        let session = try #require(ref.sessions.first)
        let sessionElapsed = try #require(session[1].number), sessionTimer = try #require(session[2].number)
        let wall = (s.endedAt ?? 0) - s.startedAt
        let rel = abs((s.gpsDistanceMeters ?? s.distanceMeters) - geodesicRunning) / geodesicRunning
        let relAll = abs((s.gpsDistanceMeters ?? s.distanceMeters) - geodesic) / geodesic
        let hr = track.fixes.compactMap(\.heartRate), power = track.fixes.compactMap(\.power)
        print("FIT \(name): points \(s.pointCount) (SDK \(ref.positioned) of \(ref.records) records); distance \(s.distanceMeters) m vs geodesic \(geodesicRunning) m with the timer running (\(rel * 100) %), \(geodesic) m through all (\(relAll * 100) %); elapsed \(s.elapsedSeconds) s vs session timer \(sessionTimer) s; wall \(wall) s vs session elapsed \(sessionElapsed) s; HR \(hr.reduce(0, +))/\(hr.count) vs \(ref.hr_sum)/\(ref.hr_count); power \(power.reduce(0, +))/\(power.count) vs \(ref.power_sum)/\(ref.power_count); laps \(s.laps.count) vs \(ref.laps)")
        expectEqual(s.pointCount, ref.positioned)
        // The device's distance (its records', closed by the session's total), the GPS track's
        // length beside it.
        let total = try #require(session[4].number)
        expectLessOrEqual(abs(s.distanceMeters - total), 0.005 * total, "\(s.distanceMeters) vs the session's \(total)")
        expectEqual(s.distanceSource, .device)
        let gps = try #require(s.gpsDistanceMeters)
        expectLess(abs(gps - geodesic), 0.01 * geodesic, "GPS track \(gps) vs geodesic \(geodesic)")
        if let kcal = session[5].number, kcal > 0 { #expect(s.calories == kcal && s.caloriesMethod == .device) }
        // Elapsed is the wall span (total_elapsed_time), the timer the device's (issue 39 item 3).
        expectLessOrEqual(abs(s.timerSeconds - sessionTimer), 0.01 * sessionTimer, "timer \(s.timerSeconds) vs \(sessionTimer)")
        expectLessOrEqual(abs(s.elapsedSeconds - sessionElapsed), 0.01 * sessionElapsed, "elapsed \(s.elapsedSeconds) vs \(sessionElapsed)")
        expectLessOrEqual(abs(wall - sessionElapsed), 1)
        expectLess(abs(s.startedAt - (session[0].number ?? 0)), 1)
        #expect(hr.reduce(0, +) == ref.hr_sum && hr.count == ref.hr_count)
        #expect(power.reduce(0, +) == ref.power_sum && power.count == ref.power_count)
        // A last lap that lies wholly in the final timer stop has no time or distance and is
        // not kept (garmin-edge-500: 9 laps in the file, 8 in the workout).
        #expect(s.laps.count == ref.laps || s.laps.count == ref.laps - 1)
        expectNotNil(track.activity)
    }

    @Test(arguments: activities)
    func exportedFITDecodesCleanlyInTheSDKAndImportsAsADuplicate(_ name: String) throws {
        let bytes = try SharedData.bytes(SharedData.url("data/fit/" + name))
        let w = try Importer.workout(from: try Importer.read(bytes, fileName: name), activity: nil, id: 1, settings: MetricsSettings(), source: "")
        let out = Exporter.bytes(w, .fit)
        let ref = try FITOracle.figures(bytes: out)
        print("FIT round trip \(name): \(out.count) bytes; SDK integrity \(ref.integrity), errors \(ref.errors), records \(ref.positioned)/\(ref.records), laps \(ref.laps), sessions \(ref.sessions)")
        #expect(ref.integrity)
        #expect(ref.errors.isEmpty)
        expectEqual(ref.file_types, ["activity"])
        expectEqual(ref.positioned, w.summary.acceptedCount)
        expectEqual(ref.laps, w.summary.laps.count)
        expectEqual(ref.sessions.count, 1)
        // The last record's distance is the workout's distance (to the centimetre).
        let back = try Importer.workout(from: try Importer.read(out, fileName: "x.fit"), activity: nil, id: 2, settings: MetricsSettings(), source: "")
        #expect(Importer.isDuplicate(back.summary, of: w.summary))
        expectEqual(back.summary.activity, w.summary.activity)
        expectLess(abs(back.summary.distanceMeters - w.summary.distanceMeters), 0.5)
        expectLessOrEqual(abs(back.summary.elapsedSeconds - w.summary.elapsedSeconds), 1)
        expectEqual(back.summary.laps.count, w.summary.laps.count)
        let file = try FITActivityFile.read(out)
        // The last record's distance is the workout's: its device's reading there (the session's
        // total closes the device's distance after the last record), else the measured one.
        let last = try #require(file.records.last?.distance)
        switch w.summary.distanceSource {
        case .device, .sensor: #expect(last <= w.summary.distanceMeters + 0.01 && last >= 0.995 * w.summary.distanceMeters)
        case .gps: expectLess(abs(last - w.summary.distanceMeters), 0.01 + w.summary.distanceMeters * 1e-9)
        }
    }

    @Test(arguments: [("MonitoringFile.fit", "monitoring"), ("Settings.fit", "settings")])
    func nonActivitiesAreRefusedByName(_ name: String, _ type: String) throws {
        #expect(throws: Importer.Failure.notActivity(file: name, type: type)) {
            _ = try Importer.readAll(try SharedData.bytes(SharedData.url("data/fit/" + name)), fileName: "/some/dir/" + name)
        }
        expectEqual(Importer.Failure.notActivity(file: name, type: type).description, "\(name) is a FIT \(type) file, not an activity")
    }

    /// The activity before a damaged chained header is kept, as the SDK keeps it, and the
    /// damage is said (before: the whole file was refused).
    @Test func aDamagedChainedHeaderKeepsTheFileBeforeItAndSaysSo() throws {
        let path = Self.path("activity-settings-corruptheader.fit")
        let ref = try FITOracle.figures([path])[0]
        #expect(!ref.errors.isEmpty)
        let tracks = try Importer.readAll(try SharedData.bytes(URL(fileURLWithPath: path)), fileName: "activity-settings-corruptheader.fit")
        #expect(tracks.count == 1 && tracks[0].fixes.count == ref.positioned)
        #expect(tracks[0].notes.contains { $0.hasPrefix("damaged FIT header at byte 771 (no \".FIT\" signature)") }, "\(tracks[0].notes)")
    }

    @Test func aTruncatedFileKeepsItsWholeRecordsAndSaysSo() throws {
        let ref = try FITOracle.figures([Self.path("activity-unexpected-eof.fit")])[0]
        let tracks = try Importer.readAll(try SharedData.bytes(SharedData.url("data/fit/activity-unexpected-eof.fit")), fileName: "x.fit")
        expectEqual(tracks.count, 1)
        expectEqual(tracks[0].fixes.count, ref.positioned)
        expectEqual(tracks[0].notes.first?.hasPrefix("cut short at byte"), true)
        #expect(!ref.integrity)  // the SDK agrees the file is damaged
    }

    /// compressed-speed-distance.fit: compressed-timestamp records (the SDK cannot read them)
    /// with their distance packed in `compressed_speed_distance`; compared with the CSV that
    /// python-fitparse wrote from them, then imported with the device's distance and heart rate
    /// (no record has a position).
    @Test func compressedTimestampRecordsMatchTheCSV() throws {
        let file = try FITActivityFile.read(try SharedData.bytes(SharedData.url("data/fit/compressed-speed-distance.fit")))
        let csv = try String(contentsOf: SharedData.url("data/fit/compressed-speed-distance-records.csv"), encoding: .utf8)
        let rows = csv.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        // The file starts with one full-timestamp record (no values) that the CSV leaves out;
        // the compressed-timestamp records follow, every one in the CSV. Distance is in the
        // packed compressed_speed_distance field (12 bits of 1/16 m, accumulated).
        let records = file.records.drop { Int($0.time - fitEpochOffset) < Int(rows[0][0]) ?? 0 }
        #expect(file.records.count == rows.count + 1 && records.count == rows.count)
        var same = 0
        for (r, row) in zip(records, rows) {
            let ok = Int(r.time - fitEpochOffset) == Int(row[0]) && r.heartRate == Int(row[1]) && r.cadence == Int(row[4])
            if ok { same += 1 } else { Issue.record("record at \(row[0]): \(r) vs \(row)"); break }
        }
        expectEqual(same, rows.count)
        expectEqual(file.odometer.map(\.meters), rows.map { Double($0[3])! })
        // No position at all, heart rate and distance in every record: a run done indoors (a
        // foot pod's run on a treadmill), imported with its heart rate and the device's distance
        // (the records' 10,248.69 m; the session says 10,248.67 m).
        let tracks = try Importer.readAll(try SharedData.bytes(SharedData.url("data/fit/compressed-speed-distance.fit")), fileName: "c.fit")
        #expect(tracks.count == 1 && tracks[0].fixes.isEmpty && tracks[0].activity == .running && tracks[0].notes.isEmpty)
        let w = try Importer.workout(from: tracks[0], activity: nil, id: 1, settings: MetricsSettings(), source: "imported:c.fit")
        let hrs = rows.compactMap { Int($0[1]) }
        #expect(w.activity == .treadmillRunning && w.points.isEmpty && hrs.count == rows.count)
        expectEqual(w.summary.maxHeartRate, hrs.max())
        // The session's avg_heart_rate (170) is the workout's; the records' own mean (170.52) beside it.
        expectEqual(w.summary.averageHeartRate, 170, "records' mean \(Double(hrs.reduce(0, +)) / Double(hrs.count))")
        expectEqual(w.heartRate.samples.compactMap(\.bpm), hrs)
        #expect(w.summary.distanceSource == .device && abs(w.summary.distanceMeters - 10_248.6875) < 0.001)
    }

    @Test func gzippedFITImportsLikeThePlainFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fitgz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = Self.path("garmin-fenix-5-bike.fit")
        let gz = dir.appendingPathComponent("ride.bin")  // no extension: found by content
        let r = try SharedData.run(["sh", "-c", "gzip -c '\(src)' > '\(gz.path)'"])
        expectEqual(r.status, 0)
        let a = try Importer.readAll(try SharedData.bytes(gz), fileName: "ride.bin")
        let b = try Importer.readAll(try SharedData.bytes(URL(fileURLWithPath: src)), fileName: "x.fit")
        #expect(a.count == 1 && a[0].fixes == b[0].fixes)
    }
}
