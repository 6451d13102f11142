import Testing
@testable import WorkoutCore

/// Cycling Power Measurement (0x2A63) and CSC Measurement (0x2A5B) values written by hand from
/// the Cycling Power Service 1.1 and Cycling Speed and Cadence Service 1.0 specs, one per flag
/// combination (all 65,536 power flag words, all 256 CSC flag bytes), checked against the parsers.
@Suite struct BikeSensorMeasurementTests {
    static func le16(_ v: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)] }

    /// The value a power meter sends for `flags`, with fixed field values, and the field names in order.
    static func powerBytes(_ flags: Int) -> (bytes: [UInt8], fields: [(String, Int)]) {
        var b = le16(flags) + le16(-123)  // flags, -123 W
        var fields: [(String, Int)] = [("flags", 2), ("instantaneous power", 2)]
        func add(_ bit: Int, _ name: String, _ v: [UInt8]) { if flags & bit != 0 { b += v; fields.append((name, v.count)) } }
        add(0x0001, "pedal power balance", [111])  // 55.5 %
        add(0x0004, "accumulated torque", le16(0x1234))
        add(0x0010, "wheel revolution data", le16(0x0304) + le16(0x0102) + le16(0xABCD))
        add(0x0020, "crank revolution data", le16(0x0FED) + le16(0x1357))
        add(0x0040, "extreme force magnitudes", le16(500) + le16(-200))
        add(0x0080, "extreme torque magnitudes", le16(256) + le16(-64))
        add(0x0100, "extreme angles", [0x23, 0xC1, 0xAB])  // max 0x123, min 0xABC
        add(0x0200, "top dead spot angle", le16(20))
        add(0x0400, "bottom dead spot angle", le16(200))
        add(0x0800, "accumulated energy", le16(987))
        return (b, fields)
    }

    @Test func everyCyclingPowerFlagCombination() throws {
        for flags in 0...0xFFFF {
            let bytes = Self.powerBytes(flags).bytes
            let m = try CyclingPowerMeasurement.parse(bytes)
            func has(_ bit: Int) -> Bool { flags & bit != 0 }
            var ok = m.watts == -123
            ok = ok && m.pedalPowerBalancePercent == (has(0x0001) ? 55.5 : nil) && m.balanceReferenceIsLeft == has(0x0002)
            ok = ok && m.accumulatedTorque == (has(0x0004) ? 0x1234 : nil) && m.torqueSourceIsCrank == has(0x0008)
            ok = ok && m.wheel == (has(0x0010) ? RevolutionData(revolutions: 0x0102_0304, eventTime: 0xABCD, ticksPerSecond: 2048) : nil)
            ok = ok && m.crank == (has(0x0020) ? RevolutionData(revolutions: 0x0FED, eventTime: 0x1357, ticksPerSecond: 1024) : nil)
            ok = ok && m.extremeForces.map { [$0.max, $0.min] } == (has(0x0040) ? [500, -200] : nil)
            ok = ok && m.extremeTorques.map { [$0.max, $0.min] } == (has(0x0080) ? [256, -64] : nil)
            ok = ok && m.extremeAngles.map { [$0.max, $0.min] } == (has(0x0100) ? [0x123, 0xABC] : nil)
            ok = ok && m.topDeadSpotAngle == (has(0x0200) ? 20 : nil) && m.bottomDeadSpotAngle == (has(0x0400) ? 200 : nil)
            ok = ok && m.accumulatedEnergyKilojoules == (has(0x0800) ? 987 : nil) && m.offsetCompensation == has(0x1000)
            ok = ok && m.reservedFlags == UInt16(flags & 0xE000)
            // every bit is a field or a kept flag: encoding gives the very bytes back
            ok = ok && m.encoded() == bytes
            if !ok { Issue.record("flags 0x\(String(flags, radix: 16)): \(bytes) -> \(m)"); return }
        }
    }

    @Test func everyCyclingPowerTruncationNamesTheField() {
        let (full, fields) = Self.powerBytes(0x0FFF)
        #expect(throws: BikeSensorMeasurementError.empty) { try CyclingPowerMeasurement.parse([UInt8]()) }
        var start = 0
        for (name, size) in fields {
            for cut in start..<(start + size) where cut > 0 {
                #expect(throws: BikeSensorMeasurementError.truncated(field: name, needed: size, remaining: cut - start), "cut at \(cut)") {
                    try CyclingPowerMeasurement.parse(full.prefix(cut))
                }
            }
            start += size
        }
        #expect(start == full.count && full.count == 34)
        #expect((try? CyclingPowerMeasurement.parse(full + [9, 9]))?.accumulatedEnergyKilojoules == 987)  // later fields ignored
    }

    @Test func everyCSCFlagCombination() throws {
        for flags in 0...255 {
            var bytes: [UInt8] = [UInt8(flags)]
            if flags & 0x01 != 0 { bytes += Self.le16(0x5678) + Self.le16(0x0001) + Self.le16(0x2000) }
            if flags & 0x02 != 0 { bytes += Self.le16(0x00FF) + Self.le16(0xFFF0) }
            let m = try CSCMeasurement.parse(bytes)
            expectEqual(m.wheel, (flags & 0x01 != 0 ? RevolutionData(revolutions: 0x0001_5678, eventTime: 0x2000, ticksPerSecond: 1024) : nil))
            expectEqual(m.crank, (flags & 0x02 != 0 ? RevolutionData(revolutions: 0xFF, eventTime: 0xFFF0, ticksPerSecond: 1024) : nil))
            expectEqual(m.reservedFlags, UInt8(flags & 0xFC))
            expectEqual(m.encoded(), bytes, "flags \(flags)")
        }
        #expect(throws: BikeSensorMeasurementError.empty) { try CSCMeasurement.parse([UInt8]()) }
        #expect(throws: BikeSensorMeasurementError.truncated(field: "wheel revolution data", needed: 6, remaining: 5)) { try CSCMeasurement.parse([0x03, 1, 2, 3, 4, 5]) }
        #expect(throws: BikeSensorMeasurementError.truncated(field: "crank revolution data", needed: 4, remaining: 3)) { try CSCMeasurement.parse([0x02, 1, 2, 3]) }
    }

    /// Cadence and wheel speed from two reports: counters and event times wrap around; a report
    /// whose event time did not move is a repeat (no new revolution: nil, not 0 rpm).
    @Test func revolutionsPerMinuteAcrossWrapAround() {
        let a = RevolutionData(revolutions: 65535, eventTime: 65000, ticksPerSecond: 1024)
        let b = RevolutionData(revolutions: 1, eventTime: 65000 &+ 1024, ticksPerSecond: 1024)  // +2 revolutions in 1 s, both wrapped
        expectEqual(b.revolutionsPerMinute(since: a, counterBits: 16), 120)
        expectNil(a.revolutionsPerMinute(since: a, counterBits: 16))
        let w0 = RevolutionData(revolutions: 0xFFFF_FFFE, eventTime: 100, ticksPerSecond: 2048)
        let w1 = RevolutionData(revolutions: 3, eventTime: 100 + 4096, ticksPerSecond: 2048)  // 5 revolutions in 2 s
        expectEqual(w1.revolutionsPerMinute(since: w0, counterBits: 32), 150)
        expectNil(w1.revolutionsPerMinute(since: RevolutionData(revolutions: 0, eventTime: 0, ticksPerSecond: 1024), counterBits: 32))
    }
}
