import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

@Suite struct GPXReaderTests {
    /// Points per file, as counted by `grep -c '<trkpt'` and by gpxpy and gpsbabel (checked below).
    static let expected: [String: (points: Int, segments: [Int])] = [
        "garmin-edge-800-output.gpx": (1286, [47, 438, 13, 196, 4, 32, 3, 553]),
        "garmin-oregon-700-output.gpx": (997, [997]),
        "garminconnect.gpx": (68, [68]),
        "globalsat_gh625XT.gpx": (174, [95, 79]),
    ]

    @Test(.requires(.sharedData), arguments: XMLTestSupport.gpxFiles)
    func readsSharedFileLikeGpxpyAndGpsbabel(_ name: String) throws {
        let path = SharedData.url("data/gpx/" + name).path
        let gpx = try GPXReader.read(try XMLTestSupport.bytes("data/gpx/" + name))
        let points = gpx.tracks.flatMap { $0.segments.flatMap(\.points) }
        expectEqual(points.count, Self.expected[name]?.points)
        expectEqual(gpx.tracks.flatMap { $0.segments.map(\.points.count) }, Self.expected[name]?.segments)
        expectEqual(gpx.untimedPointCount, 0)
        expectEqual(gpx.trackPoints.count, points.count)

        let py = try XMLTestSupport.gpxpyShared(path)
        expectEqual(py.count, points.count)
        expectEqual(py.segments, gpx.tracks.flatMap { $0.segments.map(\.points.count) })
        expectEqual(py.waypoints, gpx.waypoints.count)
        // Same parse of the decimal text (both use correctly rounded strtod): exact equality.
        expectEqual([points[0].latitude, points[0].longitude], Array(py.first[0..<2]))
        expectEqual([points.last!.latitude, points.last!.longitude], Array(py.last[0..<2]))
        expectLess(abs(points[0].time! - py.first[2]), 1e-6)
        expectLess(abs(points.last!.time! - py.last[2]), 1e-6)

        let babel = try XMLTestSupport.gpsbabelRows(path, format: "gpx")
        expectEqual(babel.count, points.count)
        let first = try #require(babel.first), last = try #require(babel.last)
        expectLessOrEqual(abs(Double(first["Latitude"]!)! - points[0].latitude), 5e-7)
        expectLessOrEqual(abs(Double(last["Longitude"]!)! - points.last!.longitude), 5e-7)
    }

    @Test(.requires(.sharedData))
    func readsGarminConnectExtensionsAndType() throws {
        let gpx = try GPXReader.read(try XMLTestSupport.bytes("data/gpx/garminconnect.gpx"))
        expectEqual(gpx.version, "1.1")
        expectEqual(gpx.creator, "Garmin Connect")
        expectEqual(gpx.time, ISO8601.parse("2023-01-16T18:02:26Z"))
        expectEqual(gpx.tracks[0].name, "Boulder Cycling")
        expectEqual(gpx.tracks[0].type, "cycling")
        expectEqual(gpx.activity, .cycling)
        let p = gpx.tracks[0].segments[0].points
        // ~30 significant digits in the file: read as the nearest double.
        expectEqual(p[0].latitude, 40.18894976936280727386474609375)
        expectEqual(p[0].longitude, -105.178360976278781890869140625)
        expectEqual(p[0].elevation, 1531.4000244140625)
        expectEqual(p[0].heartRate, 82)
        expectEqual(p[1].heartRate, 85)
        #expect(p.allSatisfy { $0.heartRate != nil })
        expectEqual(p[0].fix?.mode, .threeD)
    }

    @Test(.requires(.sharedData))
    func readsGPX10SpeedWaypointsAndFractionalTimes() throws {
        let edge = try GPXReader.read(try XMLTestSupport.bytes("data/gpx/garmin-edge-800-output.gpx"))
        expectEqual(edge.version, "1.0")
        expectEqual(edge.tracks[0].segments[0].points[0].speed, 6.823)
        expectEqual(edge.waypoints, [GPXWaypoint(latitude: 48.186895391, longitude: 11.858545868, name: "LAP001", description: "LAP001")])
        expectEqual(Set(edge.trackPoints.map(\.segment)), Set(0..<8))
        let globalsat = try GPXReader.read(try XMLTestSupport.bytes("data/gpx/globalsat_gh625XT.gpx"))
        let pts = globalsat.tracks.flatMap { $0.segments.flatMap(\.points) }
        expectLess(abs(pts[1].time! - (ISO8601.parse("2016-01-15T20:59:07Z")! + 0.1)), 1e-9)
        expectEqual(pts.compactMap(\.heartRate).count, 3)
        expectEqual(globalsat.tracks.count, 2)
    }

    @Test func keepsPointsWithoutTimeAndReportsThem() throws {
        let text = """
        <?xml version="1.0"?>
        <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">
         <trk><trkseg>
          <trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time></trkpt>
          <trkpt lat="1.5" lon="2.5"/>
          <trkpt lat="1.6" lon="2.6"><ele>3</ele></trkpt>
         </trkseg></trk>
        </gpx>
        """
        let gpx = try GPXReader.read(Array(text.utf8))
        expectEqual(gpx.pointCount, 3)
        expectEqual(gpx.untimedPointCount, 2)
        expectEqual(gpx.firstUntimedLine, 5)
        expectEqual(gpx.trackPoints.count, 1)
        expectEqual(gpx.tracks[0].segments[0].points[2].elevation, 3)
    }

    @Test func readsTrackPointExtensionV2AndOtherPrefixes() throws {
        let text = """
        <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1" xmlns:a="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
         <trk><type>running</type><trkseg><trkpt lat="-33.5" lon="151.25"><time>2020-01-01T00:00:00+01:00</time><sat>7</sat><hdop>1.5</hdop><fix>dgps</fix>
          <extensions><a:TrackPointExtension><a:hr>150</a:hr><a:cad>88</a:cad><a:speed>3.25</a:speed><a:course>90</a:course></a:TrackPointExtension></extensions>
         </trkpt></trkseg></trk></gpx>
        """
        let gpx = try GPXReader.read(Array(text.utf8))
        let f = try #require(gpx.trackPoints.first?.fix)
        expectEqual(f.time, ISO8601.parse("2019-12-31T23:00:00Z"))
        #expect(f.heartRate == 150 && f.cadence == 88 && f.speed == 3.25 && f.course == 90)
        #expect(f.satellites == 7 && f.hdop == 1.5 && f.quality == .dgps && f.mode == .threeD)
        expectEqual(gpx.activity, .running)
    }

    /// Malformed files: a typed error naming the reason and the line; nothing imported.
    @Test(arguments: [
        ("<gpx version=\"1.1\">\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"><time>2020-01-01T00:00:00Z</time></trkpt>\n</trk>\n</gpx>",
         TrackFileError.Reason.malformedXML(.mismatchedEndTag(expected: "trkseg", found: "trk")), 4),
        ("<gpx version=\"1.1\">\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"><time>2020-01-01T00:0", .malformedXML(.unclosedElements(["gpx", "trk", "trkseg", "trkpt", "time"])), 3),
        ("hello, world", .malformedXML(.contentOutsideRoot), 1),
        ("{\"gpx\": 1}", .malformedXML(.contentOutsideRoot), 1),
        ("", .malformedXML(.noRootElement), 1),
        ("<TrainingCenterDatabase/>", .wrongRootElement(found: "TrainingCenterDatabase", expected: "gpx"), 1),
        ("<gpx>\n<trk><trkseg><trkpt lat=\"north\" lon=\"2\"/></trkseg></trk></gpx>", .badNumber(field: "trkpt lat", text: "north"), 2),
        ("<gpx>\n<trk><trkseg><trkpt lat=\"1\" lon=\"2\">\n<ele>1.2.3</ele></trkpt></trkseg></trk></gpx>", .badNumber(field: "ele", text: "1.2.3"), 3),
        ("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><ele>nan</ele></trkpt></trkseg></trk></gpx>", .badNumber(field: "ele", text: "nan"), 1),
        // A point that cannot be a position is skipped (issue 39 item 11): with no other, nothing is left.
        ("<gpx><trk><trkseg><trkpt lat=\"91\" lon=\"2\"/></trkseg></trk></gpx>", .noTrackPoints, 1),
        ("<gpx><trk><trkseg><trkpt lon=\"2\"/></trkseg></trk></gpx>", .missingAttribute(element: "trkpt", attribute: "lat"), 1),
        ("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>yesterday</time></trkpt></trkseg></trk></gpx>", .badTime(field: "time", text: "yesterday"), 1),
        ("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><extensions><hr>300</hr></extensions></trkpt></trkseg></trk></gpx>", .badNumber(field: "hr", text: "300"), 1),
        ("<gpx version=\"1.1\">\n<wpt lat=\"1\" lon=\"2\"/>\n<rte><rtept lat=\"1\" lon=\"2\"/></rte>\n</gpx>\n", .noTrackPoints, 5),
        ("<gpx><trk><trkseg></trkseg></trk></gpx>", .noTrackPoints, 1),
        ("<gpx><trk><name>a &bogus; b</name></trk></gpx>", .malformedXML(.badEntity("&bogus;")), 1),
        ("<gpx></gpx><gpx></gpx>", .malformedXML(.contentOutsideRoot), 1),
    ] as [(String, TrackFileError.Reason, Int)])
    func refusesMalformed(_ text: String, _ reason: TrackFileError.Reason, _ line: Int) {
        do {
            let result = try GPXReader.read(Array(text.utf8))
            Issue.record("imported \(result.pointCount) points from a malformed file")
        } catch {
            expectEqual(error.format, .gpx)
            expectEqual(error.reason, reason)
            expectEqual(error.line, line, "\(error)")
        }
    }

    @Test(.requires(.sharedData))
    func refusesTruncatedAndCorruptedSharedFiles() throws {
        let bytes = try XMLTestSupport.bytes("data/gpx/garminconnect.gpx")
        for cut in [10, bytes.count / 3, bytes.count / 2, bytes.count - 10, bytes.count - 3] {
            do {
                let result = try GPXReader.read(Array(bytes[0..<cut]))
                Issue.record("imported \(result.pointCount) points from a file cut at \(cut)")
            } catch {
                expectGreater(error.line, 0)
            }
        }
        var corrupted = bytes
        corrupted[bytes.count / 2] = 0xFF
        do {
            _ = try GPXReader.read(corrupted)
            Issue.record("read a file with invalid UTF-8")
        } catch {
            expectEqual(error.reason, .malformedXML(.invalidUTF8))
            expectEqual(error.offset, bytes.count / 2)
        }
    }
}
