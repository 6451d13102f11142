import Foundation
import Testing
import TestRequirements
@testable import WorkoutClient

/// `simulate` takes the gpsd project's captures as they are: each begins with `#` comment lines
/// (read in place from ../shared/data/nmea; skipped without it, a failure in CI).
@Suite struct SimulationFeedCaptureTests {
    static let directory: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
        }
        return url.deletingLastPathComponent().appendingPathComponent("shared/data/nmea")
    }()
    static let captures = ["bt451", "bundg_zeus_9", "haicom-305N", "humminbird-M37", "nl2008u", "nmea-rtk", "rst39", "ublox-lea-4h"]
    @Test(.requires(.shared("data/nmea")), arguments: captures)
    func gpsdCaptureWithCommentsIsSimulated(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent(name + ".log")))
        #expect(bytes.first == UInt8(ascii: "#"), "the capture begins with a comment")
        guard case .success(let feed) = SimulationFeed.parse(bytes: bytes) else {
            Issue.record("\(name): refused: \(SimulationFeed.parse(bytes: bytes))"); return
        }
        #expect(feed.kind == .nmea)
        #expect(!feed.lines.contains { $0.line.hasPrefix("#") }, "comments are not sent to the daemon")
        #expect(feed.lines.contains { $0.time != nil }, "timed by its sentences")
        let sentences = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).filter { $0.hasPrefix("$") || $0.hasPrefix("!") }
        #expect(feed.lines.count >= sentences.count, "every sentence is kept")
    }

    @Test func commentOnlyFileIsEmpty() {
        #expect(SimulationFeed.parse("# nothing here\n#\n") == .failure(.empty))
    }
}

@Suite struct SimulationFileKindTests {
    /// `simulate` says "870 JSON fix lines from FILE" (it said "870 JSON lines lines").
    @Test func linesNounSaysWhatTheLinesAre() {
        #expect(SimulationFileKind.jsonLines.linesNoun == "JSON fix lines")
        #expect(SimulationFileKind.nmea.linesNoun == "NMEA sentences")
        #expect(SimulationFileKind.gpx.linesNoun == "GPX track points")
    }
}
