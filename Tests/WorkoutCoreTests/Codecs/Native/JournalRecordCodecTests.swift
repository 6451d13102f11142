import Foundation
import Testing
@testable import WorkoutCore

/// Journal lines as restore reads them: a body, `*`, its CRC-32.
@Suite struct JournalRecordCodecTests {
    static func line(_ body: String) -> Substring {
        Substring(body + "*" + CRC32.hex(CRC32.checksum(body.utf8)))
    }

    /// Found by the journal fuzz target: a fix line whose checksum holds, with a latitude of
    /// 4000, decoded into a fix off the globe, which restore would have fed to the recorder.
    @Test func aFixOffTheGlobeIsABadRecord() {
        let body = #"{"r":"fix","p":[1795000001.500,4000,8.000000000,2560,3.100,90.00,3,4.00,9,0.90,120,80,0,null]}"#
        #expect(JournalRecord.decodeLine(Self.line(body)) == nil)
        #expect(JournalRecord.decodeLine(Self.line(body.replacingOccurrences(of: "4000,8.0", with: "47,181.0"))) == nil)
        // The same line on the globe decodes, and re-encodes to itself.
        let good = #"{"r":"fix","p":[1795000001.500,47.000000000,8.000000000,512.300,3.100,90.00,3,4.00,9,0.90,120,80,0,null]}"#
        let record = JournalRecord.decodeLine(Self.line(good))
        guard case .fix(let f) = record else { Issue.record("not a fix: \(String(describing: record))"); return }
        #expect(f.latitude == 47 && f.longitude == 8)
        #expect(record?.encodeLine() == String(Self.line(good)) + "\n")
    }
}
