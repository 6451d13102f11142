import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// What `FITWriter` writes beyond the profile's fields: the title and notes as developer fields
/// of the session, read by Garmin's SDK (the oracle, `fit_power.py`) and by our own importers.
@Suite struct FITWriterTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("fit_power.py").path

    /// A run of 120 s with a title and notes (neither ASCII only).
    static func titled(title: String? = "Tempo am Öhrlisee — 3 × 1 km", notes: String? = "Wind from the west; shoes: Ride 16") -> Workout {
        let start = 1_795_000_000.0
        let points = (0..<120).map { k in
            TrackPoint(fix: Fix(time: start + Double(k), latitude: 47.3, longitude: 8.5 + Double(k) * 4e-5, mode: .threeD), rejection: nil, segment: 0)
        }
        var w = XMLTestSupport.workout(points, activity: .running)
        w.summary.annotation = WorkoutAnnotation(title: title, notes: notes)
        return w
    }

    /// The SDK's reading of `bytes`: its errors and each session's developer texts by name.
    static func sdkTexts(_ bytes: [UInt8]) throws -> (errors: [String], integrity: Bool, texts: [[String: String]]) {
        struct Figures: Decodable { var integrity: Bool; var errors: [String]; var texts: [[String: String]] }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("title-\(UUID().uuidString).fit")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let r = try SharedData.run(["python3", script, url.path])
        try #require(r.status == 0, "fit_power.py: \(r.stderr)")
        let f = try JSONDecoder().decode(Figures.self, from: Data(r.stdout.utf8))
        return (f.errors, f.integrity, f.texts)
    }

    /// Regression: a FIT export carried no title (issue 25); GPX and TCX did.
    @Test(.requires(.python(.garminFitSDK)))
    func theSDKReadsTheTitleAndNotes() throws {
        let w = Self.titled()
        let sdk = try Self.sdkTexts(FITWriter.write(w))
        #expect(sdk.integrity && sdk.errors.isEmpty, "\(sdk.errors)")
        expectEqual(sdk.texts, [["title": "Tempo am Öhrlisee — 3 × 1 km", "notes": "Wind from the west; shoes: Ride 16"]])
    }

    /// A ride's power figures in the FIT session as the SDK reads them: the stand-in's 34 s of
    /// power (`WorkoutLifecycleSensorsTests.standInPowerRide`, what BluetoothPowerTests' daemon
    /// records, decoded the same way) exported: average, maximum and normalized power, and the
    /// intensity factor against the FTP, as the summary has them.
    @Test(.requires(.python(.garminFitSDK)))
    func theSDKReadsTheSessionsPowerFigures() throws {
        let w = try WorkoutLifecycleSensorsTests.standInPowerRide(seconds: 34).workout
        let np = try #require(w.summary.normalizedPower)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("power-\(UUID().uuidString).fit")
        try Data(Exporter.bytes(w, .fit)).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let r = try SharedData.run(["python3", Self.script, url.path])
        try #require(r.status == 0, "fit_power.py: \(r.stderr)")
        let f = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(f["integrity"] as? Bool == true && (f["errors"] as? [Any])?.isEmpty == true, "\(f["errors"] ?? "")")
        let session = try #require((f["sessions"] as? [[String: Any]])?.first, "no session: \(f)")
        expectLess(abs(Double(session["normalized_power"] as? Int ?? 0) - np), 1, "\(session)")
        expectLess(abs(Double(session["avg_power"] as? Int ?? 0) - (w.summary.averagePower ?? 0)), 1, "\(session)")
        expectEqual(session["max_power"] as? Int, w.summary.maxPower, "\(session)")
        expectLess(abs((session["intensity_factor"] as? Double ?? 0) - (w.summary.intensityFactor ?? 0)), 0.001, "\(session)")
    }

    /// Both importers (the whole-file one and the streaming one the daemon uses) take the
    /// title and notes back; a file without them has none and no developer messages.
    @Test func ourImportersReadTheTitleAndNotesBack() throws {
        let bytes = FITWriter.write(Self.titled())
        let file = try FITActivityFile.read(bytes)
        expectEqual(file.sessions.map(\.title), ["Tempo am Öhrlisee — 3 × 1 km"])
        expectEqual(file.sessions.map(\.notes), ["Wind from the west; shoes: Ride 16"])
        let whole = try Importer.readAll(bytes, fileName: "t.fit")
        expectEqual(whole.map(\.annotation.title), ["Tempo am Öhrlisee — 3 × 1 km"])
        let streamed = try FITImport.workouts(FITBytes(bytes), fileName: "t.fit", activity: nil, settings: MetricsSettings(), source: "", suffix: { 1 })
        expectEqual(streamed.map(\.workout.summary.annotation), [WorkoutAnnotation(title: "Tempo am Öhrlisee — 3 × 1 km", notes: "Wind from the west; shoes: Ride 16")])

        let plain = FITWriter.write(Self.titled(title: nil, notes: nil))
        var globals = Set<UInt16>()
        _ = try plain.withUnsafeBufferPointer { b in try FITMessageDecoder.walk(b) { m in globals.insert(m.global) } }
        #expect(globals.isDisjoint(with: [206, 207]), "no developer messages without a title or notes")
        expectLess(plain.count, bytes.count)
        let untitled = try FITImport.workouts(FITBytes(plain), fileName: "u.fit", activity: nil, settings: MetricsSettings(), source: "", suffix: { 1 })
        expectEqual(untitled.map(\.workout.summary.annotation), [WorkoutAnnotation()])
    }

    /// A title longer than a FIT field (255 bytes) is cut at a character, never inside one.
    @Test func aLongTitleIsCutAtACharacter() throws {
        let long = String(repeating: "Ö", count: 200)  // 400 bytes of UTF-8
        let bytes = FITWriter.write(Self.titled(title: long, notes: nil))
        let title = try #require(try FITActivityFile.read(bytes).sessions.first?.title)
        expectEqual(title, String(repeating: "Ö", count: 127), "254 bytes: 127 two-byte characters")
        expectEqual(FITEncoder.textBytes("aÖ", size: 3), [0x61, 0, 0], "no half character")
        expectEqual(FITEncoder.textBytes("ab", size: 4), [0x61, 0x62, 0, 0])
    }
}
