import Testing
@testable import WorkoutCore

/// RSC Measurement (0x2A53) values written by hand from the Running Speed and Cadence Service 1.0
/// spec, one per flag byte (all 256), checked against the parser.
@Suite struct RSCMeasurementTests {
    static func bytes(_ flags: Int) -> (bytes: [UInt8], fields: [(String, Int)]) {
        // 3.25 m/s = 832/256, 172 steps/min, stride 113 cm, total 0x01020304 dm
        var b: [UInt8] = [UInt8(flags), 0x40, 0x03, 172]
        var fields: [(String, Int)] = [("flags", 1), ("instantaneous speed", 2), ("instantaneous cadence", 1)]
        if flags & 0x01 != 0 { b += [113, 0]; fields.append(("instantaneous stride length", 2)) }
        if flags & 0x02 != 0 { b += [0x04, 0x03, 0x02, 0x01]; fields.append(("total distance", 4)) }
        return (b, fields)
    }

    @Test func everyFlagByte() throws {
        for flags in 0...0xFF {
            let b = Self.bytes(flags).bytes
            let m = try RSCMeasurement.parse(b)
            #expect(m.speed == 3.25 && m.cadence == 172)
            expectEqual(m.strideLengthCentimetres, (flags & 1 != 0 ? 113 : nil))
            expectEqual(m.totalDistanceDecimetres, (flags & 2 != 0 ? 0x0102_0304 : nil))
            expectEqual(m.isRunning, (flags & 4 != 0))
            expectEqual(m.reservedFlags, UInt8(flags & 0xF8))
            expectEqual(m.encoded(), b, "flags \(flags)")
        }
    }

    @Test func everyTruncationNamesTheField() {
        let (full, fields) = Self.bytes(0x03)
        #expect(throws: BikeSensorMeasurementError.empty) { try RSCMeasurement.parse([UInt8]()) }
        var start = 0
        for (name, size) in fields {
            for cut in start..<(start + size) where cut > 0 {
                #expect(throws: BikeSensorMeasurementError.truncated(field: name, needed: size, remaining: cut - start)) {
                    try RSCMeasurement.parse(full.prefix(cut))
                }
            }
            start += size
        }
        // extra bytes (a later version's fields) are ignored
        #expect((try? RSCMeasurement.parse(full + [9, 9]))?.totalDistanceDecimetres == 0x0102_0304)
    }

    @Test func whatTheStandInSends() throws {
        // dbus-peers' footpod at 12 km/h: flags 0x07, speed round(3.333 x 256), 170 spm, stride, total dm
        let m = try RSCMeasurement.parse([0x07, 0x55, 0x03, 170, 118, 0, 0x2A, 0, 0, 0])
        #expect(m.speed256 == 853 && m.cadence == 170 && m.strideLengthCentimetres == 118 && m.totalDistanceDecimetres == 42 && m.isRunning)
    }
}
