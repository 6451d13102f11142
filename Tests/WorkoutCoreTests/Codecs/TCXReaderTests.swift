import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

@Suite struct TCXReaderTests {
    /// Trackpoints per file (`grep -c '<Trackpoint>'`; all have a Position) and laps.
    static let expected: [String: (points: Int, laps: Int)] = [
        "bike.tcx": (1812, 2),
        "gtrnctr_power.tcx": (5109, 1),
        "kona2013.tcx": (5, 1),
    ]

    @Test(.requires(.sharedData), arguments: XMLTestSupport.tcxFiles)
    func readsSharedFileLikeGpsbabel(_ name: String) throws {
        let path = SharedData.url("data/tcx/" + name).path
        let tcx = try TCXReader.read(try XMLTestSupport.bytes("data/tcx/" + name))
        expectEqual(tcx.activities.count, 1)
        let activity = try #require(tcx.activities.first)
        expectEqual(activity.sport, "Biking")
        expectEqual(activity.activity, .cycling)
        expectEqual(activity.laps.count, Self.expected[name]?.laps)
        expectEqual(tcx.trackpointCount, Self.expected[name]?.points)
        expectEqual(tcx.droppedWithoutTime, 0)
        let points = activity.trackPoints
        expectEqual(points.count, tcx.trackpointCount)

        let babel = try XMLTestSupport.gpsbabelRows(path, format: "gtrnctr")
        expectEqual(babel.count, points.count)
        let first = try #require(babel.first), last = try #require(babel.last)
        expectLessOrEqual(abs(Double(first["Latitude"]!)! - points[0].fix.latitude), 5e-7)
        expectLessOrEqual(abs(Double(first["Longitude"]!)! - points[0].fix.longitude), 5e-7)
        expectLessOrEqual(abs(Double(last["Latitude"]!)! - points.last!.fix.latitude), 5e-7)
        expectLessOrEqual(abs(Double(last["Longitude"]!)! - points.last!.fix.longitude), 5e-7)
        let babelTime = { (row: [String: String]) in ISO8601.parse(row["Date"]!.replacingOccurrences(of: "/", with: "-") + "T" + row["Time"]! + "Z") }
        expectEqual(babelTime(first), points[0].fix.time.rounded(.down))
        expectEqual(babelTime(last), points.last!.fix.time.rounded(.down))
        if let hr = last["Heartrate"], !hr.isEmpty { expectEqual(Int(hr), points.last!.fix.heartRate) }
    }

    @Test(.requires(.sharedData))
    func keepsLapTotalsFromTheFile() throws {
        let kona = try TCXReader.read(try XMLTestSupport.bytes("data/tcx/kona2013.tcx")).activities[0]
        expectEqual(kona.id, "2013-10-12T18:17:26.000Z")
        expectEqual(kona.startTime, ISO8601.parse("2013-10-12T18:17:26Z"))
        expectEqual(kona.creatorName, "Garmin Edge 500")
        let lap = kona.laps[0]
        expectEqual(lap, TCXLap(startTime: ISO8601.parse("2013-10-12T18:17:26Z")!, totalTimeSeconds: 18930.35, distanceMeters: 180219.88,
                              maximumSpeed: 18.163000106811523, calories: 2658, averageHeartRate: 150, maximumHeartRate: 179,
                              intensity: "Active", cadence: 92, triggerMethod: "Manual", trackpoints: lap.trackpoints))
        expectEqual(lap.trackpoints[0], TCXTrackpoint(time: ISO8601.parse("2013-10-12T18:17:26Z")!, latitude: 19.640107546001673,
                                                   longitude: -155.99701898172498, altitude: 16.399999618530273,
                                                   distanceMeters: 2.069999933242798, heartRate: 141, cadence: 31,
                                                   speed: 2.069999933242798, watts: 101, track: 0))
        let summaries = kona.lapSummaries
        #expect(summaries[0].distanceMeters == 180219.88 && summaries[0].calories == 2658 && summaries[0].trigger == .manual)

        let bike = try TCXReader.read(try XMLTestSupport.bytes("data/tcx/bike.tcx")).activities[0]
        expectEqual(bike.laps.map(\.distanceMeters), [5000.0, bike.laps[1].distanceMeters])
        expectEqual(bike.laps.map(\.trackpoints.count).reduce(0, +), 1812)
        expectEqual(Set(bike.trackPoints.map(\.segment)), [0, 1])
    }

    @Test func keepsTrackpointsWithoutPositionAndDropsThoseWithoutTime() throws {
        let text = """
        <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
        <Activities><Activity Sport="Running"><Id>2020-01-01T00:00:00Z</Id>
        <Lap StartTime="2020-01-01T00:00:00Z"><TotalTimeSeconds>10</TotalTimeSeconds><DistanceMeters>20</DistanceMeters>
        <Calories>1</Calories><Intensity>Active</Intensity><TriggerMethod>Distance</TriggerMethod>
        <Track>
         <Trackpoint><Time>2020-01-01T00:00:01Z</Time><HeartRateBpm><Value>99</Value></HeartRateBpm></Trackpoint>
         <Trackpoint><Time>2020-01-01T00:00:02Z</Time><Position><LatitudeDegrees>1</LatitudeDegrees><LongitudeDegrees>2</LongitudeDegrees></Position>
           <Extensions><ns3:TPX xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2"><ns3:RunCadence>85</ns3:RunCadence></ns3:TPX></Extensions></Trackpoint>
         <Trackpoint><Position><LatitudeDegrees>1</LatitudeDegrees><LongitudeDegrees>2</LongitudeDegrees></Position></Trackpoint>
        </Track></Lap></Activity></Activities></TrainingCenterDatabase>
        """
        let tcx = try TCXReader.read(Array(text.utf8))
        let a = tcx.activities[0]
        expectEqual(a.activity, .running)
        expectEqual(a.laps[0].trackpoints.count, 2)
        #expect(a.laps[0].trackpoints[0].latitude == nil && a.laps[0].trackpoints[0].heartRate == 99)
        expectEqual(tcx.droppedWithoutTime, 1)
        expectEqual(a.trackPoints.count, 1)
        expectEqual(a.trackPoints[0].fix.cadence, 85)
        expectEqual(a.lapSummaries[0].trigger, .distance)
    }

    @Test(arguments: [
        ("<gpx version=\"1.1\"/>", TrackFileError.Reason.wrongRootElement(found: "gpx", expected: "TrainingCenterDatabase"), 1),
        ("<TrainingCenterDatabase>\n<Courses/>\n</TrainingCenterDatabase>", .noActivities, 3),
        ("<TrainingCenterDatabase><Activities><Activity Sport=\"Biking\"><Lap>\n</Lap></Activity></Activities></TrainingCenterDatabase>",
         .missingAttribute(element: "Lap", attribute: "StartTime"), 1),
        ("<TrainingCenterDatabase><Activities><Activity Sport=\"Biking\">\n<Lap StartTime=\"2020-01-01T00:00:00Z\"><TotalTimeSeconds>1,5</TotalTimeSeconds></Lap></Activity></Activities></TrainingCenterDatabase>",
         .badNumber(field: "TotalTimeSeconds", text: "1,5"), 2),
        ("<TrainingCenterDatabase><Activities><Activity Sport=\"Biking\">\n<Lap StartTime=\"2020-01-01T00:00:00Z\"><Track><Trackpoint><Time>2020-01-01T00:00:00Z</Time>\n<HeartRateBpm><Value>-3</Value></HeartRateBpm></Trackpoint></Track></Lap></Activity></Activities></TrainingCenterDatabase>",
         .badNumber(field: "HeartRateBpm", text: "-3"), 3),
        ("<TrainingCenterDatabase><Activities><Activity Sport=\"Biking\">\n<Lap StartTime=\"2020-01-01T00:00:00Z\"><Track><Trackpoint><Time>2020-01-01T00:00:00Z</Time>\n<Position><LatitudeDegrees>100</LatitudeDegrees><LongitudeDegrees>2</LongitudeDegrees></Position></Trackpoint></Track></Lap></Activity></Activities></TrainingCenterDatabase>",
         .coordinateOutOfRange(field: "LatitudeDegrees", value: 100), 3),
        ("<TrainingCenterDatabase><Activities><Activity Sport=\"Biking\"></Activities></TrainingCenterDatabase>",
         .malformedXML(.mismatchedEndTag(expected: "Activity", found: "Activities")), 1),
        ("not xml at all", .malformedXML(.contentOutsideRoot), 1),
    ] as [(String, TrackFileError.Reason, Int)])
    func refusesMalformed(_ text: String, _ reason: TrackFileError.Reason, _ line: Int) {
        do {
            let result = try TCXReader.read(Array(text.utf8))
            Issue.record("imported \(result.trackpointCount) trackpoints from a malformed file")
        } catch {
            expectEqual(error.format, .tcx)
            expectEqual(error.reason, reason)
            expectEqual(error.line, line, "\(error)")
        }
    }

    @Test(.requires(.sharedData))
    func refusesTruncatedSharedFile() throws {
        let bytes = try XMLTestSupport.bytes("data/tcx/kona2013.tcx")
        for cut in stride(from: 1, to: bytes.count, by: 97) {
            #expect(throws: TrackFileError.self) { try TCXReader.read(Array(bytes[0..<cut])) }
        }
        var bad = bytes
        bad.insert(contentsOf: [0xC3, 0x28], at: 2000)
        #expect(throws: TrackFileError(format: .tcx, reason: .malformedXML(.invalidUTF8), line: 45, offset: 2000)) {
            try TCXReader.read(bad)
        }
    }
}
