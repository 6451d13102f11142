import Testing
@testable import WorkoutCore

/// Bytes written by hand from the Heart Rate Service spec, one per flag combination, checked
/// against the parser: every one of the 256 flag bytes (the 5 defined bits and the 3 reserved ones),
/// 8- and 16-bit values, energy expended, and 0, 1, 2 or 9 RR intervals.
@Suite struct HeartRateMeasurementTests {
    static let rrSets: [[UInt16]] = [[], [1024], [410, 65535], [800, 801, 802, 0, 1, 512, 700, 900, 1000]]

    @Test func everyFlagCombination() throws {
        var checked = 0
        for flags in 0...255 {
            for rr in HeartRateMeasurementTests.rrSets where flags & 0x10 != 0 || rr.isEmpty {
                let sixteen = flags & 0x01 != 0
                let bpm = sixteen ? 0x012C : 0x8E  // 300 (little-endian 2C 01) or 142
                var bytes: [UInt8] = [UInt8(flags)]
                bytes += sixteen ? [0x2C, 0x01] : [0x8E]
                if flags & 0x08 != 0 { bytes += [0xD2, 0x04] }  // 1234 kJ
                for r in rr { bytes += [UInt8(r & 0xFF), UInt8(r >> 8)] }
                let m = try HeartRateMeasurement.parse(bytes)
                expectEqual(m.bpm, bpm)
                expectEqual(m.sixteenBit, sixteen)
                let expectedContact: SensorContact = flags & 0x04 == 0 ? .notSupported : (flags & 0x02 == 0 ? .notDetected : .detected)
                expectEqual(m.contact, expectedContact, "flags \(flags)")
                expectEqual(m.energyExpendedKilojoules, (flags & 0x08 != 0 ? 1234 : nil))
                expectEqual(m.rrIntervals1024, rr)
                expectEqual(m.rrSeconds, rr.map { Double($0) / 1024 })
                expectEqual(m.reservedFlags, UInt8(flags) & 0xE0)
                expectEqual(m.isReading, (expectedContact != .notDetected))
                // Encoding gives the same bytes, except that bit 1 without bit 2 (meaningless) and
                // the RR flag without intervals are not reproduced; the parse of it is equal.
                let again = try HeartRateMeasurement.parse(m.encoded())
                expectEqual(again, m)
                if (flags & 0x06 != 0x02) && !(flags & 0x10 != 0 && rr.isEmpty) { expectEqual(m.encoded(), bytes, "flags \(flags)") }
                checked += 1
            }
        }
        expectEqual(checked, 256 + 128 * 3)
    }

    @Test func everyTruncationIsAnErrorNamingTheField() {
        // flags: 16-bit, contact, energy, RR; value 200, energy 5, RR 1000 and 1001.
        let full: [UInt8] = [0x1F, 200, 0, 5, 0, 0xE8, 0x03, 0xE9, 0x03]
        #expect(throws: HeartRateMeasurementError.empty) { try HeartRateMeasurement.parse([UInt8]()) }
        #expect(throws: HeartRateMeasurementError.truncated(field: "16-bit heart rate", needed: 2, remaining: 0)) { try HeartRateMeasurement.parse(full.prefix(1)) }
        #expect(throws: HeartRateMeasurementError.truncated(field: "16-bit heart rate", needed: 2, remaining: 1)) { try HeartRateMeasurement.parse(full.prefix(2)) }
        #expect(throws: HeartRateMeasurementError.truncated(field: "energy expended", needed: 2, remaining: 0)) { try HeartRateMeasurement.parse(full.prefix(3)) }
        #expect(throws: HeartRateMeasurementError.truncated(field: "energy expended", needed: 2, remaining: 1)) { try HeartRateMeasurement.parse(full.prefix(4)) }
        #expect(throws: HeartRateMeasurementError.oddRRBytes(1)) { try HeartRateMeasurement.parse(full.prefix(6)) }
        #expect(throws: HeartRateMeasurementError.oddRRBytes(3)) { try HeartRateMeasurement.parse(full.prefix(8)) }
        #expect(throws: HeartRateMeasurementError.truncated(field: "8-bit heart rate", needed: 1, remaining: 0)) { try HeartRateMeasurement.parse([0x06]) }
        #expect((try? HeartRateMeasurement.parse(full.prefix(5)))?.rrIntervals1024 == [])
        #expect((try? HeartRateMeasurement.parse(full.prefix(7)))?.rrIntervals1024 == [1000])
        #expect((try? HeartRateMeasurement.parse(full))?.rrIntervals1024 == [1000, 1001])
        #expect("\(HeartRateMeasurementError.oddRRBytes(3))".contains("RR"))
    }

    @Test func whatTheStandInSends() throws {
        // dbus-peers: flags 0x04 | 0x02 (contact) | 0x10 (RR), bpm, RR = round(60 / bpm * 1024).
        let m = try HeartRateMeasurement.parse([0x16, 120, 0x00, 0x02])
        #expect(m.bpm == 120 && m.contact == .detected && m.rrIntervals1024 == [512] && m.rrSeconds == [0.5])
        let off = try HeartRateMeasurement.parse([0x14, 95])
        #expect(off.contact == .notDetected && !off.isReading)
        #expect(try !HeartRateMeasurement.parse([0x00, 0]).isReading)  // 0 bpm is no reading
        try expectEqual(HeartRateMeasurement.parse([0x00, 60, 0xFF]).bpm, 60)  // extra bytes without the RR flag: ignored
    }

    @Test func bodySensorLocationAndBattery() {
        expectEqual(BodySensorLocation(value: [1]), .chest)
        expectEqual(BodySensorLocation(value: [5, 9]), .earLobe)
        expectNil(BodySensorLocation(value: [7]))
        expectNil(BodySensorLocation(value: [UInt8]()))
        for l in BodySensorLocation.allCases { #expect(BodySensorLocation(value: [l.rawValue]) == l && !l.label.isEmpty) }
        expectEqual(BatteryLevel.decode([87]), 87)
        expectEqual(BatteryLevel.decode([0]), 0)
        expectEqual(BatteryLevel.decode([100]), 100)
        expectNil(BatteryLevel.decode([101]))
        expectNil(BatteryLevel.decode([UInt8]()))
    }
}
