import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// Heart rate of imported files goes through the same `HeartRateTrack` as a live strap: time in
/// zones and heart-rate calories, not only average and maximum; a file with heart rate and no
/// position (an indoor workout) imports; GPX refuses a workout without positions.
@Suite struct ImporterHeartRateTests {
    static let zones = [100, 120, 140, 160, 180]
    static func settings() -> MetricsSettings {
        var s = MetricsSettings()
        s.heartRateZones = HeartRateZones(lowerBounds: zones)
        s.bodyWeightKilograms = 70; s.age = 40; s.sex = .male
        return s
    }

    /// The file's trackpoints as (time, bpm) read with a plain text scan (not our XML reader).
    static func trackpoints(_ text: String) -> [(time: Double, bpm: Int?)] {
        let f = ISO8601DateFormatter(); f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return text.components(separatedBy: "<Trackpoint>").dropFirst().compactMap { chunk in
            func between(_ a: String, _ b: String) -> String? {
                guard let r = chunk.range(of: a), let e = chunk.range(of: b, range: r.upperBound..<chunk.endIndex) else { return nil }
                return String(chunk[r.upperBound..<e.lowerBound])
            }
            guard let t = between("<Time>", "</Time>").flatMap({ f.date(from: $0) }) else { return nil }
            let hr = between("<HeartRateBpm>", "</HeartRateBpm>") != nil
                ? between("<Value>", "</Value>").flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } : nil
            return (t.timeIntervalSince1970, hr)
        }
    }

    /// gtrnctr_power.tcx (5109 trackpoints at 1 s, heart rate on each): time in zones and
    /// Keytel calories equal a straightforward count over the file's own readings (each reading
    /// counts until the next one in its zone, as live), and `recompute` (a saved workout
    /// measured again) gives the same.
    @Test(.requires(.sharedData))
    func importedTCXHeartRateGetsZoneTimesAndHeartRateCalories() throws {
        let url = SharedData.url("data/tcx/gtrnctr_power.tcx")
        let points = Self.trackpoints(try String(contentsOf: url, encoding: .utf8))
        expectEqual(points.count, 5109)
        let settings = Self.settings()
        // The Edge 705's own calories win (its lap's 1,363 kcal), else the file's power
        // (calories from work, docs/metrics.md): heart rate is checked without both.
        var track = try Importer.read(try SharedData.bytes(url), fileName: "gtrnctr_power.tcx")
        let asRecorded = try Importer.workout(from: track, activity: nil, id: 1, settings: settings, source: "imported:gtrnctr_power.tcx")
        #expect(asRecorded.summary.caloriesMethod == .device && asRecorded.summary.calories == 1363)
        track.device = nil
        let withPower = try Importer.workout(from: track, activity: nil, id: 1, settings: settings, source: "imported:gtrnctr_power.tcx")
        expectEqual(withPower.summary.caloriesMethod, .power)
        // workoutd's own TCX names no device: its laps' calories are not taken as a device's.
        try expectNil(Importer.read(Exporter.bytes(withPower, .tcx), fileName: "ours.tcx").device)
        for k in track.fixes.indices { track.fixes[k].power = nil }
        let w = try Importer.workout(from: track, activity: nil, id: 1, settings: settings, source: "imported:gtrnctr_power.tcx")
        var expected = [Double](repeating: 0, count: Self.zones.count + 1)
        var kcal = 0.0
        let profile = settings.bodyProfile
        for (a, b) in zip(points, points.dropFirst()) {
            guard let bpm = a.bpm, b.time - a.time <= 5 else { continue }
            expected[Self.zones.filter { bpm >= $0 }.count] += b.time - a.time
            kcal += (profile.keytelKcalPerMinute(bpm: Double(bpm)) ?? .nan) * (b.time - a.time) / 60
        }
        let readings = points.compactMap(\.bpm)
        let s = w.summary
        expectEqual(s.heartRateZoneBounds, Self.zones)
        expectEqual(s.heartRateZoneSeconds, expected, "\(s.heartRateZoneSeconds) vs \(expected)")
        #expect(s.averageHeartRate == Double(readings.reduce(0, +)) / Double(readings.count) && s.maxHeartRate == readings.max())
        expectEqual(s.caloriesMethod, .heartRate)
        // Keytel over the covered time, the energy model for moving time heart rate did not cover
        // (at most 20 MET).
        let rest = 20 * 70 / 3600 * max(0, s.movingSeconds - expected.reduce(0, +))
        #expect((s.calories ?? 0) >= kcal * (1 - 1e-6) && (s.calories ?? 0) <= kcal * (1 + 1e-6) + rest, "\(s.calories ?? -1) vs \(kcal) + at most \(rest)")
        // laps carry their own zone times, adding up to the workout's
        let lapSum = s.laps.reduce([Double](repeating: 0, count: expected.count)) { acc, l in zip(acc, l.heartRateZoneSeconds + [Double](repeating: 0, count: max(0, expected.count - l.heartRateZoneSeconds.count))).map { $0 + $1 } }
        #expect(s.laps.count == 1 && zip(lapSum, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(lapSum)")
        // the heart rate is in the series (one owner), and exports put it back on every point
        expectEqual(w.heartRate.samples.compactMap(\.bpm), readings)
        expectEqual(w.pointsWithHeartRate.compactMap(\.fix.heartRate), readings)
        let again = WorkoutRecorder.recompute(id: w.id, activity: w.activity, startedAt: s.startedAt, endedAt: s.endedAt,
                                              settings: Importer.importSettings(settings), points: w.points, events: w.events,
                                              heartRate: w.heartRate)
        #expect(again.summary.heartRateZoneSeconds == s.heartRateZoneSeconds && again.summary.calories == s.calories)
        let edited = Importer.edited(w, activity: .cycling, settings: settings)
        #expect(edited.heartRate == w.heartRate && edited.summary.heartRateZoneSeconds == s.heartRateZoneSeconds)
        print("gtrnctr_power.tcx import: zones \(s.heartRateZoneSeconds) s, \(Int((s.calories ?? 0).rounded())) kcal by heart rate")
    }

    /// A GPX track with heart rate on some points: a point without heart rate after one with it
    /// is a gap (no zone time across it, no value carried over in the export).
    @Test func aPointWithoutHeartRateIsAGap() throws {
        let s = TrackSynth()
        var fixes = s.run(start: 1_800_000_000, seconds: 20, speed: 3)
        for k in fixes.indices { fixes[k].heartRate = k >= 8 && k < 12 ? nil : 150 }
        let w = try Importer.workout(from: Importer.Track(fixes: fixes, activity: .running, origin: .device), activity: nil, id: 1,
                                     settings: Self.settings(), source: "imported:a.gpx")
        let covered = w.summary.heartRateZoneSeconds.reduce(0, +)
        expectEqual(covered, Double(fixes.count - 1 - 4), "\(w.summary.heartRateZoneSeconds)")  // 7 s before, 8 s after
        expectEqual(w.pointsWithHeartRate.map(\.fix.heartRate), fixes.map(\.heartRate))
    }

    /// A yoga workout (heart rate only) as TCX: trackpoints with Time and HeartRateBpm; our
    /// importer reads it back as the same workout. GPX is refused with a reason.
    @Test func indoorWorkoutRoundTripsThroughTCXAndGPXIsRefused() throws {
        let start = 1_795_000_000.0
        var r = WorkoutRecorder(id: WorkoutID(start: start, suffix: 4), activity: .yoga, startedAt: start, settings: Self.settings())
        for k in 0..<30 { r.heartRate(time: start + 3 + Double(k), bpm: 90 + (k * 7) % 60) }
        let w = r.finish(at: start + 40)
        let tcx = Exporter.bytes(w, .tcx)
        let text = String(decoding: tcx, as: UTF8.self)
        #expect(!text.contains("<Position>") && text.components(separatedBy: "<HeartRateBpm>").count == 31)
        let tracks = try Importer.readAll(tcx, fileName: "yoga.tcx")
        #expect(tracks.count == 1 && tracks[0].fixes.isEmpty && tracks[0].notes == [Importer.heartRateOnlyNote])
        let back = try Importer.workout(from: tracks[0], activity: .yoga, id: 2, settings: Self.settings(), source: "imported:yoga.tcx")
        #expect(Importer.isDuplicate(back.summary, of: w.summary))
        #expect(back.heartRate == w.heartRate && back.summary.heartRateZoneSeconds == w.summary.heartRateZoneSeconds)
        #expect(back.summary.elapsedSeconds == w.summary.elapsedSeconds && back.summary.startedAt == w.summary.startedAt)
        let refusal = try #require(Exporter.refusal(w, .gpx))
        expectEqual(refusal, .gpxNeedsPositions(activity: .yoga, hasHeartRate: true))
        #expect(refusal.description.contains("TCX or FIT") && refusal.code == "not_exportable")
        #expect(Exporter.refusal(w, .tcx) == nil && Exporter.refusal(w, .fit) == nil)
    }

    /// A file that names an outdoor activity but has no position at all was done indoors.
    @Test func heartRateOnlyRunIsATreadmillRun() throws {
        let samples = (0..<10).map { HeartRateSample(time: 1_800_000_000 + Double($0), bpm: 140) }
        let track = Importer.Track(fixes: [], activity: .running, origin: .device, format: .fit, heartRate: samples)
        try expectEqual(Importer.workout(from: track, activity: nil, id: 1, settings: MetricsSettings(), source: "").activity, .treadmillRunning)
        try expectEqual(Importer.workout(from: track, activity: .running, id: 1, settings: MetricsSettings(), source: "").activity, .running)
        let none = Importer.Track(fixes: [], activity: .running, origin: .device, heartRate: [HeartRateSample(time: 1, bpm: nil)])
        #expect(throws: Importer.Failure.noPoints) { try Importer.workout(from: none, activity: nil, id: 1, settings: MetricsSettings(), source: "") }
    }
}
