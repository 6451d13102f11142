import Foundation
import Testing
@testable import WorkoutCore

/// Power, cadence and speed recorded by sensors in the exports, and read back on import: an indoor
/// ride (no track) as FIT records and TCX trackpoints without a position, an outdoor ride as
/// points carrying the sensors' values (FIT power/cadence, TCX Watts/Cadence, GPX cad and
/// PowerInWatts). A gap stays a gap: no value is repeated across it.
@Suite struct SensorExportTests {
    static let t0 = 1_795_000_000.0

    /// 5 min indoors at 1 Hz: a CSC sensor (8 m/s), a power meter (a ramp) with cadence 88, a strap;
    /// the power meter drops out from 100 s to 110 s.
    static func indoorRide() -> Workout {
        var settings = MetricsSettings()
        settings.ftpWatts = 250
        var r = WorkoutRecorder(id: WorkoutID(start: t0, suffix: 1), activity: .indoorCycling, startedAt: t0, settings: settings)
        for i in 0..<300 {
            let t = t0 + 1 + Double(i)
            r.heartRate(time: t, bpm: 120 + i % 30)
            r.sensorReading(time: t + 0.2, source: .csc, reading: SensorReading(speed: 8, distance: 8))
            if i == 100 { r.sensorGap(at: t + 0.3, source: .power) }
            if (100..<110).contains(i) { continue }
            r.sensorReading(time: t + 0.4, source: .power, reading: SensorReading(power: 150 + i % 100, cadence: 88))
        }
        return r.finish(at: t0 + 301)
    }

    @Test func indoorRideAsFITRecordsPerSecondAndBack() throws {
        let w = Self.indoorRide()
        #expect(w.summary.distanceMeters == 2400 && w.summary.distanceSource == .sensor)
        // Regression: a plain workout put back in the compact store kept no sensor samples.
        #expect(ImportedWorkout(workout: w).recorded.sensors == w.sensors && !w.sensors.isEmpty)
        let bytes = Exporter.bytes(w, .fit)
        let file = try FITActivityFile.read(bytes)
        let records = file.records
        // a record a second from the first reading to the workout's end
        expectEqual(records.count, 301, "\(records.count) records")
        #expect(records.allSatisfy { $0.latitude == nil && $0.heartRate != nil } && records.dropFirst().allSatisfy { $0.speed == 8 })
        // No power inside the dropout, none repeated across it.
        let inGap = records.filter { $0.time > Self.t0 + 101.5 && $0.time < Self.t0 + 110.5 }
        #expect(!inGap.isEmpty && inGap.allSatisfy { $0.power == nil && $0.cadence == nil }, "\(inGap.map { ($0.time - Self.t0, $0.power) })")
        #expect(records.filter { $0.power != nil }.count >= 285 && records.compactMap(\.cadence).allSatisfy { $0 == 88 })
        expectEqual(records.last?.distance, 2400)
        // Imported back: distance from the records (the device's), power and cadence as the file's sensors.
        let track = try Importer.read(bytes, fileName: "ride.fit")
        #expect(track.sensors.count >= 285 && track.fixes.isEmpty)
        let back = try Importer.workout(from: track, activity: nil, id: 2, settings: MetricsSettings(), source: "imported:ride.fit").summary
        #expect(back.activity == .indoorCycling && abs(back.distanceMeters - 2400) < 0.01)
        expectLess(abs(back.averagePower! - w.summary.averagePower!), 2, "\(back.averagePower!) vs \(w.summary.averagePower!)")
        #expect(back.averageCadence == 88 && back.normalizedPower != nil && back.maxPower == w.summary.maxPower)
    }

    /// Regression: every sensor dropped out half a second after its last whole-second record and
    /// the workout went on: the last record still carries the whole distance (it ended 4 m short
    /// of the saved distance in the dbus-peers ride).
    @Test func theLastRecordCarriesTheWholeDistanceAfterTheSensorsStop() throws {
        var r = WorkoutRecorder(id: WorkoutID(start: Self.t0, suffix: 6), activity: .indoorCycling, startedAt: Self.t0)
        for i in 0..<40 {
            r.sensorReading(time: Self.t0 + 1 + Double(i) * 0.5, source: .csc, reading: SensorReading(speed: 8.4, distance: 4.2))
        }
        r.sensorGap(at: Self.t0 + 21, source: .csc)
        let w = r.finish(at: Self.t0 + 30)
        expectLess(abs(w.summary.distanceMeters - 168), 1e-9)
        let records = try FITActivityFile.read(Exporter.bytes(w, .fit)).records
        expectLess(abs((records.last?.distance ?? 0) - 168), 0.01, "last record at \(records.last?.distance ?? 0) m")
        // Stopped 0.3 s after the last reading, between two whole seconds: a last record at the end.
        var q = WorkoutRecorder(id: WorkoutID(start: Self.t0 + 0.4, suffix: 7), activity: .indoorCycling, startedAt: Self.t0 + 0.4)
        for i in 0..<40 {
            q.sensorReading(time: Self.t0 + 1 + Double(i) * 0.5, source: .csc, reading: SensorReading(speed: 8.4, distance: 4.2))
        }
        let ended = q.finish(at: Self.t0 + 20.8)
        let last = try #require(try FITActivityFile.read(Exporter.bytes(ended, .fit)).records.last)
        expectLess(abs((last.distance ?? 0) - 168), 0.01, "last record at \(last.distance ?? 0) m")
        let tcx = String(decoding: Exporter.bytes(ended, .tcx), as: UTF8.self)
        let lastTrackpoint = tcx.components(separatedBy: "<Trackpoint>").last ?? ""
        #expect(lastTrackpoint.contains("<DistanceMeters>168.00</DistanceMeters>"), "\(lastTrackpoint)")
    }

    @Test func indoorRideAsTCXTrackpointsAndBack() throws {
        let w = Self.indoorRide()
        let text = String(decoding: Exporter.bytes(w, .tcx), as: UTF8.self)
        #expect(text.contains("<Cadence>88</Cadence>") && text.contains("<Watts>") && !text.contains("<Position>"))
        let track = try Importer.read(Array(text.utf8), fileName: "ride.tcx")
        #expect(track.odometer.last?.meters == 2400 && track.sensors.count >= 285)
        let back = try Importer.workout(from: track, activity: nil, id: 3, settings: MetricsSettings(), source: "imported:ride.tcx").summary
        #expect(back.activity == .indoorCycling && abs(back.distanceMeters - 2400) < 0.01 && back.distanceSource == .device)
        #expect(abs(back.averagePower! - w.summary.averagePower!) < 2 && back.averageCadence == 88)
    }

    /// Regression (a CI failure of BluetoothPowerTests): an indoor TCX whose lap ends at its
    /// rounded TotalTimeSeconds (40.300 + 6.315) while its last trackpoint, distance only with no
    /// heart rate, is stamped 1 ms later: the last reading and the lap's total were left out
    /// after the last heart rate, and the ride read back 44.2 m of 48.42 m.
    @Test func aLastTrackpointJustPastTheLapsEndStillCounts() throws {
        func point(_ time: String, _ meters: String, bpm: Int?) -> String {
            "<Trackpoint><Time>2026-11-26T16:43:\(time)Z</Time><DistanceMeters>\(meters)</DistanceMeters>"
                + (bpm.map { "<HeartRateBpm><Value>\($0)</Value></HeartRateBpm>" } ?? "") + "</Trackpoint>"
        }
        let text = #"<?xml version="1.0"?><TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">"#
            + #"<Activities><Activity Sport="Biking"><Id>2026-11-26T16:43:40.300Z</Id><Lap StartTime="2026-11-26T16:43:40.300Z">"#
            + "<TotalTimeSeconds>6.315</TotalTimeSeconds><DistanceMeters>48.42</DistanceMeters><Calories>0</Calories><Intensity>Active</Intensity>"
            + "<TriggerMethod>Manual</TriggerMethod><Track>"
            + point("41", "2.11", bpm: 94) + point("42", "10.53", bpm: 104) + point("43", "18.95", bpm: 114) + point("44", "27.37", bpm: 124)
            + point("45", "35.78", bpm: 133) + point("46", "44.20", bpm: 143) + point("46.616", "48.41", bpm: nil)
            + "</Track></Lap></Activity></Activities></TrainingCenterDatabase>"
        let back = try Importer.workout(from: Importer.read(Array(text.utf8), fileName: "ride.tcx"), activity: nil, id: 8,
                                        settings: MetricsSettings(), source: "imported:ride.tcx").summary
        expectLess(abs(back.distanceMeters - 48.42), 0.01, "\(back.distanceMeters) m")
        expectLess(abs(back.elapsedSeconds - 6.316), 0.01, "\(back.elapsedSeconds) s")
    }

    @Test func outdoorRidePointsCarryTheSensorsInEveryFormat() throws {
        var r = WorkoutRecorder(id: WorkoutID(start: Self.t0, suffix: 4), activity: .cycling, startedAt: Self.t0)
        for i in 0..<60 {
            let t = Self.t0 + 1 + Double(i)
            r.sensorReading(time: t - 0.5, source: .power, reading: SensorReading(power: 200 + i, cadence: 85))
            r.ingest(Fix(time: t, latitude: 48.1 + Double(i) * 8e-5, longitude: 11.5, altitude: 500, mode: .threeD, horizontalAccuracy: 3))
        }
        let w = r.finish(at: Self.t0 + 61)
        let gpx = String(decoding: Exporter.bytes(w, .gpx), as: UTF8.self)
        #expect(gpx.contains("<gpxtpx:cad>85</gpxtpx:cad>") && gpx.contains("<gpxpx:PowerInWatts>259</gpxpx:PowerInWatts>"))
        let fromGPX = try Importer.read(Array(gpx.utf8), fileName: "ride.gpx")
        #expect(fromGPX.fixes.last?.power == 259 && fromGPX.fixes.last?.cadence == 85)
        let tcx = String(decoding: Exporter.bytes(w, .tcx), as: UTF8.self)
        #expect(tcx.contains("<Cadence>85</Cadence>") && tcx.contains("<Watts>259</Watts>"))
        try expectEqual(Importer.read(Array(tcx.utf8), fileName: "ride.tcx").fixes.last?.power, 259)
        let fit = try FITActivityFile.read(Exporter.bytes(w, .fit))
        #expect(fit.records.last?.power == 259 && fit.records.last?.cadence == 85)
        let back = try Importer.workout(from: fromGPX, activity: nil, id: 5, settings: MetricsSettings(), source: "imported:ride.gpx").summary
        #expect(back.averagePower != nil && back.averageCadence == 85)
    }
}
