import Testing
import TestRequirements
@testable import WorkoutCore

/// `WorkoutFile.encode` writes its head with `JSONWriter` and its points and heart rate in
/// batches through `ByteWriter`: the file must be byte for byte what the encoder before it wrote
/// (rebuilt here from `JSON` trees, `formatFixed` and `String`), for real imported files and for
/// workouts with every field, odd strings and more points than one batch holds.
@Suite struct WorkoutFileEncodeTests {
    /// The file as the encoder before this one formed it: head through `JSON` trees, points
    /// through `ByteWriterTests.referencePoint`, heart rate through `formatFixed`.
    static func reference(_ w: Workout) -> String {
        var s = "{\"format\":\"\(WorkoutFile.format)\",\"source\":"
        JSON.writeString(w.source, to: &s)
        s += ",\"summary\":"
        w.summary.json().write(to: &s)
        s += ",\"events\":"
        JSON.array(w.events.map { $0.json() }).write(to: &s)
        s += ",\"points\":[" + w.points.map(ByteWriterTests.referencePoint).joined(separator: ",\n") + "]"
        if !w.heartRate.isEmpty {
            let t = { formatFixed($0, decimals: 3) }
            s += #","heartRate":{"samples":["#
            s += w.heartRate.samples.map { "[" + t($0.time) + "," + ($0.bpm.map { String($0) } ?? "null") + "]" }.joined(separator: ",")
            s += #"],"rr":["#
            s += w.heartRate.rrIntervals.map { "[" + t($0.time) + "," + String($0.interval1024) + "]" }.joined(separator: ",")
            s += "]}"
        }
        if !w.sensors.isEmpty {
            let n = { (v: Double?, d: Int) in v.map { formatFixed($0, decimals: d) } ?? "null" }
            s += #","sensors":["#
            s += w.sensors.map { x in
                "[" + formatFixed(x.time, decimals: 3) + ",\"" + x.source.rawValue + "\""
                    + (x.reading.map { r in "," + (r.power.map { String($0) } ?? "null") + "," + n(r.cadence, 2) + "," + n(r.speed, 3) + "," + n(r.distance, 3) } ?? "")
                    + "]"
            }.joined(separator: ",\n") + "]"
        }
        if !w.odometer.isEmpty {
            let t = { formatFixed($0, decimals: 3) }
            s += #","odometer":{"source":""# + w.odometer.source.rawValue + #"","readings":["#
            s += w.odometer.readings.map { "[" + t($0.time) + "," + t($0.meters) + "]" }.joined(separator: ",") + "]}"
        }
        if let d = w.device {
            s += #","device":"#
            d.json().write(to: &s)
        }
        return s + "}\n"
    }

    static func expectSameBytes(_ w: Workout, _ what: String) {
        let bytes = WorkoutFile.encode(w)
        let expected = reference(w)
        let same = bytes.elementsEqual(expected.utf8)
        #expect(same, "\(what): \(bytes.count) bytes, expected \(expected.utf8.count)")
        if !same, let k = zip(bytes, expected.utf8).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            Issue.record("\(what): first difference at byte \(k): \(String(decoding: bytes[max(0, k - 60)..<min(bytes.count, k + 60)], as: UTF8.self))")
        }
    }

    /// Every shared track, imported as the daemon imports it (FIT, GPX, TCX, NMEA).
    @Test(.requires(.sharedData))
    func importedSharedTracksAreTheBytesOfTheReferenceWriter() throws {
        var files = SharedData.files(in: "data/gpx", ext: "gpx") + SharedData.files(in: "data/tcx", ext: "tcx") + SharedData.files(in: "data/fit", ext: "fit")
        files += SharedData.files(in: "data/nmea", ext: "log")
        var checked = 0, points = 0, heartRate = 0
        for url in files {
            guard let tracks = try? Importer.readAll(try SharedData.bytes(url), fileName: url.lastPathComponent) else { continue }
            for (k, track) in tracks.enumerated() {
                guard let w = try? Importer.workout(from: track, activity: nil, id: UInt16(k), settings: MetricsSettings(),
                                                    source: "imported:" + url.lastPathComponent) else { continue }
                Self.expectSameBytes(w, url.lastPathComponent)
                checked += 1
                points += w.points.count
                heartRate += w.heartRate.samples.count
            }
        }
        expectGreater(checked, 15)
        #expect(points > 20_000 && heartRate > 0, "the shared files should include long tracks with heart rate")
    }

    /// Random points (every optional field present or absent, rejected ones), more than one
    /// 64 KiB batch of them, events with causes and text that needs escaping, a summary with
    /// splits, laps, warnings and best efforts, and a heart-rate series with gaps and RR intervals.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func syntheticWorkoutsAreTheBytesOfTheReferenceWriter(_ seed: UInt64) {
        var w = WorkoutFileFastDecodeTests.workout(seed: seed, count: 1_500)
        var rng = SeededRandom(seed: seed &* 31)
        let t0 = WorkoutFileFastDecodeTests.t0
        w.source = "imported:ride \"one\"\\\n\t\u{1}é🚴.fit"
        w.events += [WorkoutEvent(kind: .marker, time: t0 + 20.0005, text: "a \"quoted\"\nline\u{7f}\u{1f} ünï"),
                     WorkoutEvent(kind: .pause, time: t0 + 30, cause: .signalLost), WorkoutEvent(kind: .resume, time: t0 + 31.25)]
        var h = HeartRateSeries()
        for k in 0..<3_000 {
            h.samples.append(HeartRateSample(time: t0 + Double(k) * 0.5 + Double(Int.random(in: 0...999, using: &rng)) / 1000,
                                             bpm: k % 17 == 0 ? nil : Int.random(in: 40...220, using: &rng)))
        }
        for k in 0..<2_000 {
            h.rrIntervals.append(RRInterval(time: t0 + Double(k) * 0.7, interval1024: UInt16.random(in: 0...UInt16.max, using: &rng)))
        }
        w.heartRate = h
        var s = w.summary
        s.distanceMeters = 12_345.678_9
        s.elapsedSeconds = 3_600.000_5
        s.warnings = ["times ran \"backwards\"", "ok"]
        s.calories = 612.35
        s.averageHeartRate = 141.25
        s.heartRateZoneBounds = [100, 120, 140, 160, 180]
        s.heartRateZoneSeconds = [1.5, 2.25, 0, 1e-7, 3_000]
        s.rejectedByReason = [.lowAccuracy: 3, .nullIsland: 1]
        s.splits = (0..<7).map { LapSummary(index: $0, trigger: .distance, startTime: t0 + Double($0) * 300.1, endTime: t0 + Double($0 + 1) * 300.1,
                                            elapsedSeconds: 300.1, movingSeconds: 299.95, distanceMeters: 1_000, elevationGainMeters: 3.25,
                                            maxSpeed: 4.123_45, calories: 51.05, averageHeartRate: 140, maxHeartRate: nil) }
        s.laps = Array(s.splits.prefix(2))
        s.bestEfforts = [BestEffort(distanceMeters: 1_000, seconds: 250.000_4, startTime: t0 + 12.5)]
        w.summary = s
        expectGreater(w.points.count * 100, ByteWriter.batchBytes)
        Self.expectSameBytes(w, "seed \(seed)")
        // The recorder's own workouts (encoded from their store of points) too.
        let synth = TrackSynth()
        var r = WorkoutRecorder(id: testID, activity: .running, startedAt: t0)
        for f in synth.run(start: t0, seconds: 600, speed: 3) { r.ingest(f) }
        let recorded = r.finishRecording(at: t0 + 601)
        expectGreater(recorded.points.count, 500)
        #expect(WorkoutFile.encode(recorded).elementsEqual(Self.reference(recorded.workout).utf8))
        expectEqual(WorkoutFile.encode(recorded), WorkoutFile.encode(recorded.workout))
    }

    /// Empty parts: no points, no events, no heart rate.
    @Test func emptyWorkout() {
        let s = WorkoutSummary(id: WorkoutID(rawValue: "20261118T054640Z-0001")!, activity: .yoga, startedAt: 1_795_000_000)
        Self.expectSameBytes(Workout(summary: s), "empty")
    }
}
