import Testing
@testable import WorkoutCore

@Suite struct HeartRateTrackTests {
    @Test func zonesFromMaximumReserveAndBounds() {
        let byMax = HeartRateZones(maximum: 200)!
        expectEqual(byMax.lowerBounds, [100, 120, 140, 160, 180])
        let karvonen = HeartRateZones(maximum: 190, resting: 50)!  // 50 + f x 140
        expectEqual(karvonen.lowerBounds, [120, 134, 148, 162, 176])
        #expect(karvonen.zone(of: 119) == 0 && karvonen.zone(of: 120) == 1 && karvonen.zone(of: 175) == 4 && karvonen.zone(of: 176) == 5)
        expectNil(HeartRateZones(lowerBounds: [100, 100]))
        expectNil(HeartRateZones(lowerBounds: []))
        expectNil(HeartRateZones(maximum: 50, resting: 60))
        expectEqual(HeartRateZones.estimatedMaximum(age: 40), 180)
    }

    /// Issue 39 item 9: a strap's 255 bpm and its 0 ms RR intervals were kept and averaged.
    @Test func valuesOutsidePhysiologyAreDroppedAndCounted() {
        var t = HeartRateTrack()
        expectEqual(t.add(time: 1000, bpm: 140, rr: [440, 0, 60000]), .recorded)
        expectEqual(t.add(time: 1001, bpm: 255, rr: [440]), .ignoredInvalid)
        expectEqual(t.add(time: 1002, bpm: 20), .ignoredInvalid)
        expectEqual(t.add(time: 1003, bpm: 150, rr: [204, 205, 3072, 3073]), .recorded)
        expectEqual(t.workout.average, 145, "never averaged")
        expectEqual(t.workout.maximum, 150)
        expectEqual(t.rrIntervals.map(\.interval1024), [440, 205, 3072])
        expectEqual(t.rejected, HeartRateRejections(bpm: 2, rr: 5), "0, 60000, the 255's one, 204 and 3073")
        // Through the recorder: a strap's reading and a fix's heart rate pass the same check.
        let synth = TrackSynth()
        var r = WorkoutRecorder(id: testID, activity: .running, startedAt: 1000)
        for (k, var f) in synth.run(start: 1000, seconds: 20, speed: 3).enumerated() {
            f.heartRate = k == 10 ? 255 : 150
            r.ingest(f)
            r.heartRate(time: f.time + 0.5, bpm: k == 5 ? 0 : 150)
        }
        let s = r.finish(at: 1021).summary
        expectEqual(s.maxHeartRate, 150)
        expectEqual(s.heartRateRejected, HeartRateRejections(bpm: 2, rr: 0))
        expectEqual(s.json()["heartRateRejected"], ["bpm": 2, "rr": 0])
        expectEqual(WorkoutSummary(json: s.json())?.heartRateRejected, s.heartRateRejected)
    }

    @Test func averageMaximumAndZoneTimesWithGaps() {
        let zones = HeartRateZones(lowerBounds: [100, 120, 140, 160, 180])!
        var t = HeartRateTrack(zones: zones)
        // run 1: 1 Hz, 110 x3 then 130 x2
        for (i, bpm) in [110, 110, 110, 130, 130].enumerated() { expectEqual(t.add(time: 1000 + Double(i), bpm: bpm), .recorded) }
        expectEqual(t.current(at: 1004.5), 130)
        expectEqual(t.currentZone(at: 1004.5), 2)
        // contact lost at 1004.5: the gap starts there; nothing between 1004.5 and the next sample
        let r1 = t.gap(at: 1004.5)
        #expect(r1)
        let r2 = t.gap(at: 1005)
        #expect(!r2)  // already in a gap: not stored twice
        expectNil(t.current(at: 1005))
        // run 2 after 20 s: 150, 150, 170; then silence of 8 s (> 5 s: a gap without a marker), 190
        for (i, bpm) in [150, 150, 170].enumerated() { t.add(time: 1025 + Double(i), bpm: bpm) }
        t.add(time: 1035, bpm: 190)
        let r3 = t.add(time: 1035, bpm: 191)
        expectEqual(r3, .ignoredOutOfOrder)
        let r4 = t.add(time: 1036, bpm: 0)
        expectEqual(r4, .ignoredInvalid)
        let r5 = t.add(time: .nan, bpm: 100)
        expectEqual(r5, .ignoredInvalid)
        let s = t.standing(at: 1037).workout
        expectEqual(s.sampleCount, 9)
        expectEqual(s.sum, 110 * 3 + 130 * 2 + 150 * 2 + 170 + 190)
        expectEqual(s.average, Double(1250) / 9)
        expectEqual(s.maximum, 190)
        // zone 1: 3 s (110 from 1000 to 1003); zone 2: 1.5 s (1003-1004.5); zone 3: 2 s (1025-1027);
        // zone 4: 0 (170 at 1027 then 8 s silence); zone 5: 2 s (190 from 1035 to 1037, standing)
        expectEqual(s.zoneSeconds, [0, 3, 1.5, 2, 0, 2])
        expectEqual(s.coveredSeconds, 8.5)
        expectEqual(t.samples.filter { $0.bpm == nil }, [HeartRateSample(time: 1004.5, bpm: nil)])
        expectEqual(t.workout.coveredSeconds, 6.5)  // without the standing 2 s
    }

    @Test func lapsAndSplitsSplitTheRunAtTheBoundary() {
        var t = HeartRateTrack(zones: HeartRateZones(lowerBounds: [100, 150])!)
        t.add(time: 0, bpm: 120)
        t.add(time: 2, bpm: 160, rr: [400, 410])
        let lap = t.closeLap(at: 3)
        #expect(lap.sampleCount == 2 && lap.maximum == 160 && lap.zoneSeconds == [0, 2, 1])
        t.add(time: 4, bpm: 100)
        let split = t.closeSplit(at: 4.5)
        #expect(split.sampleCount == 3 && split.zoneSeconds == [0, 2.5, 2])
        let lap2 = t.closeLap(at: 5)
        #expect(lap2.sampleCount == 1 && lap2.zoneSeconds == [0, 1, 1])
        expectEqual(t.workout.zoneSeconds, [0, 3, 2])
        expectEqual(t.rrIntervals, [RRInterval(time: 2, interval1024: 400), RRInterval(time: 2, interval1024: 410)])
        expectEqual(t.rrIntervals[0].seconds, 400.0 / 1024)
        // the same samples replayed give the same workout figures
        let r = HeartRateTrack.replay(samples: t.samples, rr: t.rrIntervals, zones: t.zones, profile: t.profile)
        #expect(r.standing(at: 5).workout == t.workout && r.rrIntervals == t.rrIntervals)
    }

    @Test func keytelCaloriesByHand() {
        // Male, 70 kg, 30 years, 150 bpm: (-55.0969 + 0.6309*150 + 0.1988*70 + 0.2017*30) / 4.184
        let male = BodyProfile(weightKilograms: 70, age: 30, sex: .male)
        let perMinute = (-55.0969 + 94.635 + 13.916 + 6.051) / 4.184
        expectLess(abs(male.keytelKcalPerMinute(bpm: 150)! - perMinute), 1e-12)
        expectLess(abs(perMinute - 14.2221), 1e-4)
        let female = BodyProfile(weightKilograms: 60, age: 40, sex: .female)
        expectLess(abs(female.keytelKcalPerMinute(bpm: 150)! - (-20.4022 + 67.08 - 7.578 + 2.96) / 4.184), 1e-12)
        expectEqual(male.keytelKcalPerMinute(bpm: 20), 0)  // never negative
        expectNil(BodyProfile(weightKilograms: 70).keytelKcalPerMinute(bpm: 150))

        var t = HeartRateTrack(profile: male)
        for i in 0...60 { t.add(time: Double(i), bpm: 150) }  // 60 s covered at 150
        let c = t.workout.calories(movingSeconds: 90, met: 9.8, profile: male)!
        expectEqual(c.method, .heartRate)
        expectLess(abs(c.kcal - (perMinute + 9.8 * 70 * 30 / 3600)), 1e-9)
        // no heart rate: MET; no weight: nil
        let none = HeartRateTrack(profile: male)
        expectLess(abs(none.workout.calories(movingSeconds: 3600, met: 9.8, profile: male)!.kcal - 686), 1e-9)
        expectEqual(none.workout.calories(movingSeconds: 3600, met: 9.8, profile: male)!.method, .met)
        expectNil(t.workout.calories(movingSeconds: 60, met: 9.8, profile: BodyProfile(age: 30, sex: .male)))
        // with weight only, heart rate is there but Keytel is not possible: MET
        let weightOnly = BodyProfile(weightKilograms: 70)
        var w = HeartRateTrack(profile: weightOnly)
        for i in 0...60 { w.add(time: Double(i), bpm: 150) }
        expectEqual(w.workout.calories(movingSeconds: 60, met: 9.8, profile: weightOnly)!.method, .met)
    }

    @Test func whichActivitiesOpenTheStrap() {
        let without = ActivityType.allCases.filter { !$0.usesHeartRateSensor }
        expectEqual(Set(without), [.openWaterSwimming, .poolSwimming])
        #expect(ActivityType.yoga.usesHeartRateSensor && ActivityType.running.usesHeartRateSensor)
    }
}
