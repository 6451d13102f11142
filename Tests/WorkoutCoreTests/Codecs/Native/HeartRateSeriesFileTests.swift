import Testing
@testable import WorkoutCore

@Suite struct HeartRateSeriesFileTests {
    static let t0 = 1_795_000_000.0
    static let series = HeartRateSeries(
        samples: [HeartRateSample(time: t0 + 1, bpm: 120), HeartRateSample(time: t0 + 2, bpm: 121), HeartRateSample(time: t0 + 2.5, bpm: nil),
                  HeartRateSample(time: t0 + 10.25, bpm: 130)],
        rrIntervals: [RRInterval(time: t0 + 1, interval1024: 512), RRInterval(time: t0 + 2, interval1024: 508)])

    static func workout(points: [TrackPoint] = [], activity: ActivityType = .yoga) -> Workout {
        var s = WorkoutSummary(id: WorkoutID(rawValue: "20261118T054640Z-0001")!, activity: activity, startedAt: t0, endedAt: t0 + 20)
        s.averageHeartRate = 123.7; s.maxHeartRate = 130; s.heartRateZoneBounds = [100, 120]; s.heartRateZoneSeconds = [0, 1, 2.5]
        s.caloriesMethod = .heartRate; s.calories = 3
        return Workout(summary: s, points: points, heartRate: series)
    }

    @Test func savedFileKeepsSamplesGapsAndRR() throws {
        let w = Self.workout()
        let back = try WorkoutFile.decode(WorkoutFile.encode(w))
        expectEqual(back.heartRate, Self.series)
        #expect(back.summary.averageHeartRate == 123.7 && back.summary.heartRateZoneSeconds == [0, 1, 2.5] && back.summary.caloriesMethod == .heartRate)
        expectEqual(back, w)
        // A file without heart rate has no key and decodes to an empty series.
        var plain = w; plain.heartRate = HeartRateSeries()
        let text = String(decoding: WorkoutFile.encode(plain), as: UTF8.self)
        #expect(!text.contains("\"heartRate\":{"))
        #expect(try WorkoutFile.decode(Array(text.utf8)).heartRate.isEmpty)
    }

    @Test func bpmAtATimeNeverBridgesAGap() {
        let s = Self.series
        expectNil(s.bpm(at: Self.t0))
        expectEqual(s.bpm(at: Self.t0 + 1), 120)
        expectEqual(s.bpm(at: Self.t0 + 2.4), 121)
        expectNil(s.bpm(at: Self.t0 + 3))  // in the gap
        expectEqual(s.bpm(at: Self.t0 + 15.25), 130)
        expectNil(s.bpm(at: Self.t0 + 15.3))  // more than 5 s after the last sample
    }

    @Test func exportsCarryTheSeriesHeartRate() throws {
        let fixes = (0..<4).map { k in TrackPoint(fix: Fix(time: Self.t0 + Double(k), latitude: 48 + Double(k) * 1e-4, longitude: 11)) }
        let w = Self.workout(points: fixes, activity: .running)
        let gpx = Exporter.export(w, .gpx)
        expectEqual(gpx.components(separatedBy: "<gpxtpx:hr>").count - 1, 2)  // t0+1, t0+2; t0+3 is in the gap, t0 before the first
        #expect(gpx.contains("<gpxtpx:hr>120</gpxtpx:hr>") && gpx.contains("<gpxtpx:hr>121</gpxtpx:hr>"))
        let tcx = Exporter.export(w, .tcx)
        #expect(tcx.contains("<HeartRateBpm><Value>120</Value></HeartRateBpm>"))
        // Without a track (yoga): TCX trackpoints with the time and heart rate only.
        let yoga = Exporter.export(Self.workout(), .tcx)
        expectEqual(yoga.components(separatedBy: "<HeartRateBpm>").count - 1, 3)
        #expect(yoga.contains("<Trackpoint><Time>"))
        #expect(!yoga.contains("<Position>"))
    }
}
