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
        expectNil(JournalRecord.decodeLine(Self.line(body)))
        expectNil(JournalRecord.decodeLine(Self.line(body.replacingOccurrences(of: "4000,8.0", with: "47,181.0"))))
        // The same line on the globe decodes, and re-encodes to itself.
        let good = #"{"r":"fix","p":[1795000001.500,47.000000000,8.000000000,512.300,3.100,90.00,3,4.00,9,0.90,120,80,0,null]}"#
        let record = JournalRecord.decodeLine(Self.line(good))
        guard case .fix(let f) = record else { Issue.record("not a fix: \(String(describing: record))"); return }
        #expect(f.latitude == 47 && f.longitude == 8)
        expectEqual(record?.encodeLine(), String(Self.line(good)) + "\n")
    }

    /// Heart-rate and sensor records are written straight as bytes (the daemon writes several a
    /// second with four sensors): the same line as through the JSON tree, and it decodes back.
    @Test func heartRateAndSensorLinesAreTheTreesLines() {
        let t = 1_795_000_001.25
        let records: [JournalRecord] = [
            .heartRate(time: t, bpm: 142, rr: []), .heartRate(time: t + 0.001, bpm: 61, rr: [1023, 65535, 0]),
            .heartRateGap(time: t + 2),
            .sensor(SensorSample(time: t, source: .power, reading: SensorReading(power: 231, cadence: 88.5))),
            .sensor(SensorSample(time: t, source: .csc, reading: SensorReading(cadence: 90, speed: 8.333333333333334, distance: 2.105))),
            .sensor(SensorSample(time: 1e20, source: .rsc, reading: SensorReading(power: 0, cadence: 0.1, speed: 0, distance: 1e-7))),
            .sensor(SensorSample(time: t, source: .rsc, reading: nil)),
            .alive(time: t), .alive(time: 1_795_000_002),
        ]
        for r in records {
            let line = r.encodeLine()
            expectEqual(line, r.encodeLineThroughTree())
            expectEqual(JournalRecord.decodeLine(Substring(line.dropLast())), r, "\(line)")
            // Appended after what the journal's buffer holds: the same bytes, the buffer kept.
            var buffer = Array("earlier line\n".utf8)
            r.appendLine(to: &buffer)
            expectEqual(buffer, Array(("earlier line\n" + line).utf8))
        }
    }

    /// The checksum's eight hex digits as `String(radix:)` padded wrote them.
    @Test func checksumHexIsPaddedLowercase() {
        for v: UInt32 in [0, 1, 0xF, 0xA0, 0x1234_ABCD, 0xFFFF_FFFF, 0x0BAD_F00D, 0xDEAD_BEEF] {
            let s = String(v, radix: 16)
            expectEqual(CRC32.hex(v), String(repeating: "0", count: 8 - s.count) + s)
        }
    }
}
