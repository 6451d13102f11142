import Testing
@testable import WorkoutCore

/// Training stress by power, heart rate and pace against the published formula
/// (hours x IF^2 x 100), and the worked example of docs/metrics.md, "Training stress".
@Suite struct TrainingStressTests {
    static func summary(_ activity: ActivityType, moving: Double, distance: Double = 0, hr: Double? = nil) -> WorkoutSummary {
        var s = WorkoutSummary(id: WorkoutID(rawValue: "2026-01-01T08-00-00Z")!, activity: activity, startedAt: 1_767_254_400,
                               endedAt: 1_767_254_400 + moving, elapsedSeconds: moving, movingSeconds: moving, distanceMeters: distance)
        s.averageHeartRate = hr
        return s
    }

    /// docs/metrics.md: a 1 h 30 min ride at a mean 150 bpm, threshold 170 bpm:
    /// 1.5 x (150/170)^2 x 100 = 116.8.
    @Test func heartRateStressIsTheDocumentedExample() throws {
        let s = Self.summary(.cycling, moving: 5400, hr: 150)
        let t = try #require(TrainingStress.of(s, thresholds: TrainingThresholds(heartRate: 170)))
        expectEqual(t.method, .heartRate)
        #expect(abs(t.value - 116.782) < 0.01, "\(t.value)")
        // Against the formula written out independently.
        let reference = 5400.0 / 3600 * (150.0 / 170) * (150.0 / 170) * 100
        #expect(abs(t.value - reference) / reference < 0.02)
    }

    /// docs/metrics.md: 10 km in 50 min against a threshold of 4:30/km (270 s):
    /// IF = (10000/3000) / (1000/270) = 0.9, 50/60 x 0.81 x 100 = 67.5.
    @Test func paceStressForARunWithoutHeartRateIsTheDocumentedExample() throws {
        let s = Self.summary(.running, moving: 3000, distance: 10_000)
        let t = try #require(TrainingStress.of(s, thresholds: TrainingThresholds(paceSecondsPerKm: 270)))
        expectEqual(t.method, .pace)
        #expect(abs(t.value - 67.5) < 1e-9, "\(t.value)")
    }

    @Test func powerStandsBeforeHeartRateAndHeartRateBeforePace() throws {
        var s = Self.summary(.running, moving: 3600, distance: 12_000, hr: 160)
        s.trainingStress = 80
        s.trainingStressMethod = .power
        let both = TrainingThresholds(heartRate: 170, paceSecondsPerKm: 270)
        expectEqual(TrainingStress.of(s, thresholds: both), TrainingStress(value: 80, method: .power))
        s.trainingStress = nil
        s.trainingStressMethod = nil
        expectEqual(TrainingStress.of(s, thresholds: both)?.method, .heartRate)
        s.averageHeartRate = nil
        expectEqual(TrainingStress.of(s, thresholds: both)?.method, .pace)
    }

    @Test func noStressWithoutAThresholdOrForPaceOutsideRuns() {
        expectNil(TrainingStress.of(Self.summary(.cycling, moving: 3600, hr: 150), thresholds: TrainingThresholds()))
        expectNil(TrainingStress.of(Self.summary(.cycling, moving: 3600, distance: 30_000), thresholds: TrainingThresholds(paceSecondsPerKm: 270)))
        expectNil(TrainingStress.of(Self.summary(.running, moving: 0, distance: 0), thresholds: TrainingThresholds(paceSecondsPerKm: 270)))
        // A heart-rate stress computed before is measured again, not taken for power's.
        var s = Self.summary(.cycling, moving: 3600, hr: 150)
        s.measureTrainingStress(TrainingThresholds(heartRate: 150))
        expectEqual(s.trainingStress, 100)
        s.measureTrainingStress(TrainingThresholds())
        expectNil(s.trainingStress)
        expectNil(s.trainingStressMethod)
    }

    /// A file saved before `trainingStressMethod` had power's TSS only; it reads back as power,
    /// and the method survives the saved form.
    @Test func theMethodIsSavedAndOldFilesReadAsPower() throws {
        var s = Self.summary(.running, moving: 3000, distance: 10_000)
        s.measureTrainingStress(TrainingThresholds(paceSecondsPerKm: 270))
        let back = try #require(WorkoutSummary(json: try JSON.parse(s.json().serialized())))
        expectEqual(back.trainingStressMethod, .pace)
        expectEqual(back.trainingStress, 67.5)
        guard case .object(var o) = s.json() else { Issue.record("not an object"); return }
        o["trainingStressMethod"] = nil
        o["trainingStress"] = 55
        let old = try #require(WorkoutSummary(json: .object(o)))
        expectEqual(old.trainingStressMethod, .power)
        var w = JSONWriter(capacity: 256)
        var cache = SummaryJSONCache()
        s.writeJSON(to: &w, cache: &cache)
        expectEqual(String(decoding: w.bytes, as: UTF8.self), s.json().serialized())
    }
}
