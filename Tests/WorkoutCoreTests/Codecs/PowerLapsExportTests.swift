import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// Power and temperature through every codec; TCX laps and power kept on import and written
/// back out in TCX and FIT; gpsbabel reads our GPX/TCX exports back with the same values.
struct PowerTemperatureCodecTests {
    static func points() -> [TrackPoint] {
        (0..<5).map { i in
            TrackPoint(fix: Fix(time: 1_700_000_000 + Double(i), latitude: 47 + Double(i) * 1e-4, longitude: 8, altitude: 400,
                                heartRate: 140 + i, cadence: 85, power: i == 2 ? nil : 200 + 10 * i, temperature: i == 3 ? nil : -5 + i),
                       segment: 0)
        }
    }

    @Test func fitExportTravelsAsBase64() {
        for n in 0..<40 {
            let b = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 250) }
            expectEqual(Base64.decode(Base64.encode(b)), b)
        }
        expectEqual(Base64.encode(Array("foobar".utf8)), "Zm9vYmFy")
        expectEqual(Base64.encode(Array("fo".utf8)), "Zm8=")
        expectNil(Base64.decode("Zm8"))
        expectNil(Base64.decode("Zm8*"))
        #expect(ExportFormat.fit.isBinary && !ExportFormat.gpx.isBinary)
    }

    @Test func theStoreKeepsPowerAndTemperature() {
        let store = TrackPointStore(Self.points())
        expectEqual(Array(store), Self.points())
        var big = TrackPointStore()
        var p = Self.points()[0]
        p.fix.power = 70_000  // beyond Int16: the column widens, losslessly
        big.append(p)
        expectEqual(big[0].fix.power, 70_000)
    }

    @Test func theWorkoutFileAndTheJournalKeepPowerAndTemperature() throws {
        var r = WorkoutRecorder(id: WorkoutID(start: 1_700_000_000, suffix: 1), activity: .cycling, startedAt: 1_700_000_000,
                                settings: Importer.importSettings(MetricsSettings()))
        for p in Self.points() { r.ingest(p.fix) }
        let w = r.finish(at: 1_700_000_010)
        let back = try WorkoutFile.decode(WorkoutFile.encode(w))
        expectEqual(back.points.map(\.fix.power), w.points.map(\.fix.power))
        expectEqual(back.points.map(\.fix.temperature), w.points.map(\.fix.temperature))
        expectEqual(back.points, w.points)
        for p in Self.points() {
            let line = JournalRecord.fix(p.fix).encodeLine()
            expectEqual(JournalRecord.decodeLine(Substring(line.dropLast())), .fix(p.fix))
        }
        // A point without power or temperature is written exactly as before (no new columns).
        var out: [UInt8] = []
        WorkoutFile.writePoint(TrackPoint(fix: Fix(time: 1, latitude: 2, longitude: 3)), to: &out)
        expectEqual(String(decoding: out, as: UTF8.self), "[1.000,2.000000000,3.000000000,null,null,null,3,null,null,null,null,null,0,null]")
    }
}

@Suite(.requires(.sharedData))
struct TCXLapsPowerImportTests {
    @Test func bikeTCXKeepsItsTwoLapsInTCXAndFITExports() throws {
        let bytes = try SharedData.bytes(SharedData.url("data/tcx/bike.tcx"))
        let track = try Importer.read(bytes, fileName: "bike.tcx")
        expectEqual(track.lapEnds.count, 1)
        let w = try Importer.workout(from: track, activity: nil, id: 1, settings: MetricsSettings(), source: "")
        expectEqual(w.summary.laps.count, 2)
        expectEqual(w.activity, .cycling)
        let tcx = try TCXReader.read(Exporter.bytes(w, .tcx))
        expectEqual(tcx.activities[0].laps.count, 2)
        let fit = try FITActivityFile.read(Exporter.bytes(w, .fit))
        expectEqual(fit.laps.count, 2)
        expectLessOrEqual(abs(fit.laps[0].endTime - track.lapEnds[0]), 0.5)
    }

    @Test func tcxWattsComeBackOutInTCXAndFIT() throws {
        let bytes = try SharedData.bytes(SharedData.url("data/tcx/gtrnctr_power.tcx"))
        let track = try Importer.read(bytes, fileName: "p.tcx")
        let watts = track.fixes.compactMap(\.power)
        expectGreater(watts.count, 1000)
        let w = try Importer.workout(from: track, activity: nil, id: 1, settings: MetricsSettings(), source: "")
        let accepted = w.points.filter(\.isAccepted).map(\.fix.power)
        let tcx = try TCXReader.read(Exporter.bytes(w, .tcx))
        expectEqual(tcx.activities[0].trackPoints.map(\.fix.power), accepted)
        let fit = try FITActivityFile.read(Exporter.bytes(w, .fit))
        expectEqual(fit.records.map(\.power), accepted)
    }
}

/// gpsbabel (a reader we did not write) reads heart rate, cadence and power back from our GPX
/// and TCX exports of the Wahoo ride (GPX 1.1 TrackPointExtension v1 has no power).
@Suite(.requires(.sharedData, .program(.gpsbabel)))
struct GpsbabelReadsPowerTests {
    static func unicsv(_ bytes: [UInt8], format: String) throws -> [[String: String]] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gb-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let r = try SharedData.run(["gpsbabel", "-t", "-i", format, "-f", url.path, "-o", "unicsv,utc=0", "-F", "-"])
        expectEqual(r.status, 0, "\(r.stderr)")
        if r.stdout.count < 100 { Issue.record("gpsbabel -i \(format): \(r.stdout) \(r.stderr.prefix(300))") }
        let lines = r.stdout.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let head = lines.first else { return [] }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(head, $0)) }
    }

    @Test(arguments: [("gpx", ExportFormat.gpx), ("gtrnctr", ExportFormat.tcx)])
    func gpsbabelReadsOurValuesBack(_ reader: String, _ format: ExportFormat) throws {
        let name = "2019-02-17-062644-ELEMNT-297E-195-0.fit"
        let track = try Importer.read(try SharedData.bytes(SharedData.url("data/fit/" + name)), fileName: name)
        let w = try Importer.workout(from: track, activity: nil, id: 1, settings: MetricsSettings(), source: "")
        // The file's own values (the import moves heart rate off the points into the workout's
        // series; the export puts it back). gpsbabel keeps a cadence or power of 0 as "none".
        expectEqual(w.points.count, track.fixes.count)
        let ours = zip(w.points, track.fixes).filter { $0.0.isOnTrack }.map { (p, file) -> Fix in
            var f = p.fix
            f.heartRate = file.heartRate
            if f.cadence == 0 { f.cadence = nil }
            if f.power == 0 { f.power = nil }
            return f
        }
        let rows = try Self.unicsv(Exporter.bytes(w, format), format: reader)
        expectEqual(rows.count, ours.count)
        let hr: [Int?] = rows.map { $0["Heartrate"].flatMap { Int($0) } }
        let cad: [Int?] = rows.map { $0["Cadence"].flatMap { Int($0) } }
        expectEqual(hr, ours.map(\.heartRate), "heart rate differs at \(Array(zip(hr, ours)).firstIndex { $0 != $1.heartRate } ?? -1)")
        expectEqual(cad, ours.map(\.cadence), "cadence differs at \(Array(zip(cad, ours)).firstIndex { $0 != $1.cadence } ?? -1)")
        if format == .tcx {
            let power: [Int?] = rows.map { (row: [String: String]) -> Int? in row["Power"].flatMap { Double($0) }.map { Int($0) } }
            expectEqual(power, ours.map(\.power), "power differs at \(Array(zip(power, ours)).firstIndex { $0 != $1.power } ?? -1)")
            print("gpsbabel -i gtrnctr: \(rows.count) points, HR, cadence and power equal (power on \(power.compactMap { $0 }.count))")
        } else {
            print("gpsbabel -i gpx: \(rows.count) points, HR and cadence equal")
        }
    }
}
