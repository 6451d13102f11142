import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// `import` takes a gpsd capture with its `#` comment header whatever the file is called (the
/// captures are read in place from ../shared/data/nmea).
@Suite struct ImporterNMEATests {
    @Test(.requires(.shared("data/nmea")), arguments: NMEAOracle.captures)
    func captureWithCommentsImportsUnderAnyName(_ name: String) throws {
        let bytes = try NMEAOracle.logBytes(name)
        expectEqual(bytes.first, UInt8(ascii: "#"))
        let named = try Importer.read(bytes, fileName: name + ".log")
        let track = try Importer.read(bytes, fileName: "capture")
        #expect(!track.fixes.isEmpty)
        expectEqual(track.fixes, named.fixes, "the same fixes as the .log file")
        expectEqual(track.origin, .receiver)
    }

    @Test func commentsThenNoSentenceIsNotNMEA() {
        #expect(!Importer.beginsWithNMEA(Array("# only a comment\n\nhello\n".utf8)))
        #expect(Importer.beginsWithNMEA(Array("# gpsd\n#\n\r\n$GPRMC,1".utf8)))
        #expect(throws: Importer.Failure.self) { try Importer.read(Array("# only a comment\nhello\n".utf8), fileName: "x") }
    }
}

@Suite struct ImporterUnknownFileTests {
    /// An unknown file gets one message whatever it is called (a .txt was "no timed track points").
    @Test(arguments: ["notes.txt", "notes.log", "notes.bin", "notes"])
    func unknownFileIsOneMessage(_ name: String) {
        #expect(throws: Importer.Failure.unknownFormat) { try Importer.read(Array("shopping list\nmilk\n".utf8), fileName: name) }
    }
}
