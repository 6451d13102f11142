import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

@Suite struct TCXWriterTests {
    /// Export of every shared file: schema-valid, read back by gpsbabel and our reader with the
    /// same points and laps; rejected fixes left out.
    @Test(.requires(.sharedData),
          arguments: XMLTestSupport.gpxFiles.map { "data/gpx/" + $0 } + XMLTestSupport.tcxFiles.map { "data/tcx/" + $0 })
    func exportIsValidAndReadsBackTheSame(_ relative: String) throws {
        let workout = try XMLTestSupport.sharedWorkout(relative)
        let accepted = workout.points.filter(\.isAccepted)
        let dir = try XMLTestSupport.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("out.tcx")
        try Data(TCXWriter.write(workout, distance: XMLTestSupport.haversine)).write(to: url)

        let lint = try XMLTestSupport.xmllint(url.path, schema: "tcx2+ax2.xsd")
        expectEqual(lint.status, 0, "\(lint.output)")

        let babel = try XMLTestSupport.gpsbabelRows(url.path, format: "gtrnctr")
        expectEqual(babel.count, accepted.count)
        let first = try #require(babel.first)
        expectLessOrEqual(abs(Double(first["Latitude"]!)! - accepted[0].fix.latitude), 5e-7)

        let back = try TCXReader.read(try SharedData.bytes(url))
        let activity = try #require(back.activities.first)
        expectEqual(back.activities.count, 1)
        expectEqual(activity.sport, workout.activity.tcxSport.rawValue)
        expectEqual(activity.startTime, workout.summary.startedAt)
        expectEqual(activity.laps.count, workout.summary.laps.count)
        let read = activity.trackPoints
        expectEqual(read.count, accepted.count)
        // A new <Track> at each segment change, and at each new lap.
        let readBreaks = Set(XMLTestSupport.segmentBreaks(read)), breaks = Set(XMLTestSupport.segmentBreaks(accepted))
        #expect(breaks.isSubset(of: readBreaks))
        expectLessOrEqual(readBreaks.count, breaks.count + activity.laps.count - 1)
        for (a, b) in zip(accepted.map(\.fix), read.map(\.fix)) {
            #expect(abs(a.latitude - b.latitude) <= 5e-10 + 1e-12 && abs(a.longitude - b.longitude) <= 5e-10 + 1e-12)
            expectLessOrEqual(abs(a.time - b.time), 0.0005 + 1e-6)
            #expect(a.heartRate == b.heartRate && a.cadence == b.cadence)
            if let x = a.altitude, let y = b.altitude { expectLessOrEqual(abs(x - y), 0.005 + 1e-9) } else { #expect(a.altitude == nil && b.altitude == nil) }
        }
        // Laps: the summary's totals, and the points in each lap's time range.
        for (k, (lap, summary)) in zip(activity.laps, workout.summary.laps).enumerated() {
            expectLess(abs(lap.startTime - summary.startTime), 0.0005)
            expectLess(abs(lap.totalTimeSeconds - summary.elapsedSeconds), 0.0005)
            expectLess(abs(lap.distanceMeters - summary.distanceMeters), 0.005)
            expectEqual(lap.calories, 12)
            expectEqual(lap.triggerMethod, "Manual")
            #expect(lap.averageHeartRate == summary.averageHeartRate && lap.maximumHeartRate == summary.maxHeartRate)
            let end = k + 1 < workout.summary.laps.count ? workout.summary.laps[k + 1].startTime : .infinity
            #expect(lap.trackpoints.allSatisfy { $0.time >= summary.startTime - 0.0005 && $0.time < end + 0.0005 })
        }
        // Cumulative distance: haversine within segments, ending at the workout's distance.
        let last = try #require(activity.laps.last?.trackpoints.last?.distanceMeters)
        expectLess(abs(last - workout.summary.distanceMeters), 0.01)
        print("TCX export \(relative): \(accepted.count) points, \(activity.laps.count) laps, last DistanceMeters \(last) m")
    }

    @Test(.requires(.sharedData))
    func workoutWithoutLapsGetsOneLapAndEmptyOneIsValid() throws {
        let fixes = (0..<10).map { k in
            TrackPoint(fix: Fix(time: 1_700_000_000 + Double(k), latitude: 52 + Double(k) * 1e-4, longitude: 13, heartRate: 100 + k, cadence: 170), segment: k / 5)
        }
        var w = XMLTestSupport.workout(fixes, activity: .running)
        #expect(w.summary.laps.isEmpty)
        let dir = try XMLTestSupport.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("one.tcx")
        try Data(TCXWriter.write(w)).write(to: url)
        try expectEqual(XMLTestSupport.xmllint(url.path, schema: "tcx2+ax2.xsd").status, 0)
        let a = try TCXReader.read(try SharedData.bytes(url)).activities[0]
        expectEqual(a.sport, "Running")
        expectEqual(a.laps.count, 1)
        expectEqual(a.laps[0].totalTimeSeconds, 9)
        expectEqual(a.laps[0].calories, 321)
        #expect(a.laps[0].averageHeartRate == 105 && a.laps[0].maximumHeartRate == 109)
        expectEqual(a.laps[0].cadence, 170)
        expectEqual(a.trackPoints.map(\.segment), [0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
        #expect(a.trackPoints.allSatisfy { $0.fix.cadence == 170 })  // RunCadence for running
        let distances = a.laps[0].trackpoints.compactMap(\.distanceMeters)
        // The jump between the two segments is not counted.
        expectLess(abs(distances[5] - distances[4]), 1e-9)
        expectLess(abs(distances[9] - 8 * TCXWriter.greatCircleDistance(fixes[0].fix, fixes[1].fix)), 0.02)

        w.points = w.points.map { var p = $0; p.rejection = .warmUp; return p }
        w.summary.calories = nil
        try Data(TCXWriter.write(w)).write(to: url)
        let lint = try XMLTestSupport.xmllint(url.path, schema: "tcx2+ax2.xsd")
        expectEqual(lint.status, 0, "\(lint.output)")
        #expect(try TCXReader.read(try SharedData.bytes(url)).activities[0].trackpointCount == 0)
    }

    /// 86,400 points (a day at 1 Hz) are all written. Speed is workoutbench's business
    /// (BENCHMARKS.md), never a timed assertion here.
    @Test func writesADayOfPoints() {
        let w = XMLTestSupport.dayLongWorkout()
        let kept = w.points.filter { $0.rejection == nil }.count
        expectEqual(XMLTestSupport.occurrences(of: "<Trackpoint>", in: TCXWriter.write(w)), kept, "every kept point is a Trackpoint")
    }
}
