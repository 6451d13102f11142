import Testing
import WorkoutCore
@testable import WorkoutClient

/// Issue 18: `simulate` carries a file's segment breaks (a `SEGMENT` line between two
/// `<trkseg>` / `<Track>`), counts only track points in its "Feeding N ..." line, and words an
/// unknown file as `import` does.
@Suite struct SimulationFeedSegmentTests {
    static func point(_ s: Int, lat: Double) -> String {
        "<trkpt lat=\"\(lat)\" lon=\"13.4\"><time>2026-11-21T09:30:0\(s)Z</time></trkpt>"
    }

    @Test func gpxSegmentsAreSeparatedByABreakLine() throws {
        let gpx = "<gpx version=\"1.1\"><trk><trkseg>" + Self.point(0, lat: 52.5) + Self.point(1, lat: 52.50002)
            + "</trkseg><trkseg>" + Self.point(5, lat: 52.6) + "</trkseg></trk><trk><trkseg>" + Self.point(8, lat: 52.7)
            + "</trkseg></trk></gpx>"
        let feed = try SimulationFeed.parse(gpx).get()
        #expect(feed.lines.map { $0.line.contains("SEGMENT") ? "|" : "p" } == ["p", "p", "|", "p", "|", "p"])
        #expect(feed.lines[2] == SimulationFeed.segmentBreak && feed.lines[2].line == #"{"class":"SEGMENT"}"#)
        #expect(feed.pointLineCount == 4)
        // A second pass of --loop keeps the break where it was.
        #expect(feed.lines(pass: 1)[2] == SimulationFeed.segmentBreak)
    }

    @Test func tcxTracksAreSeparatedByABreakLine() throws {
        func tp(_ s: Int, _ lat: Double) -> String {
            "<Trackpoint><Time>2026-11-21T09:30:0\(s)Z</Time><Position><LatitudeDegrees>\(lat)</LatitudeDegrees><LongitudeDegrees>13.4</LongitudeDegrees></Position><HeartRateBpm><Value>120</Value></HeartRateBpm></Trackpoint>"
        }
        let tcx = "<TrainingCenterDatabase><Activities><Activity Sport=\"Biking\"><Id>2026-11-21T09:30:00Z</Id><Lap StartTime=\"2026-11-21T09:30:00Z\">"
            + "<Track>" + tp(0, 52.5) + tp(1, 52.50002) + "</Track><Track>" + tp(5, 52.6) + "</Track></Lap></Activity></Activities></TrainingCenterDatabase>"
        let feed = try SimulationFeed.parse(tcx).get()
        #expect(feed.lines.filter { $0 == SimulationFeed.segmentBreak }.count == 1)
        let i = try #require(feed.lines.firstIndex(of: SimulationFeed.segmentBreak))
        #expect(feed.lines[i + 1].line.contains("\"FIX\"") && feed.lines[i + 1].line.contains("52.6"), "\(feed.lines)")
        #expect(feed.pointLineCount == 3)  // not the HR lines nor the break
    }

    /// Regression: an unknown file got "the file is neither an NMEA log, JSON fix lines nor GPX"
    /// from simulate and "not a GPX, TCX, FIT or NMEA file" from import; a FIT file was called
    /// unknown by simulate.
    @Test func unknownFilesAreWordedAsImportWordsThem() {
        #expect(SimulationFeed.parse("hello\n").failureText == "not a GPX, TCX, NMEA or JSON fix lines file")
        #expect(Importer.Failure.unknownFormat.description == "not a GPX, TCX, FIT or NMEA file")
        var fit: [UInt8] = [14, 0x10, 0, 0, 0, 0, 0, 0, 0x2E, 0x46, 0x49, 0x54, 0, 0]
        fit += [UInt8](repeating: 0, count: 16)
        #expect(SimulationFeed.parse(bytes: fit).failureText?.hasPrefix("a FIT file: simulate reads GPX, TCX, NMEA or JSON fix lines") == true)
    }
}

extension Result where Success == SimulationFeed, Failure == SimulationError {
    var failureText: String? {
        switch self {
        case .success: return nil
        case .failure(let e): return e.description
        }
    }
}
