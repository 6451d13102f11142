import Testing
@testable import WorkoutCore

/// Indoor Bike Data (0x2AD2) values written by hand from the Fitness Machine Service 1.0 spec
/// (section 4.9), one per combination of the first ten flag bits, checked against the parser;
/// and a trainer's readings as rates.
@Suite struct IndoorBikeDataTests {
    /// 32.40 km/h, 91.5 rpm, 12,345 m, 240 W, 141 bpm, each field the flags announce.
    static func bytes(_ flags: Int) -> (bytes: [UInt8], fields: [(String, Int)]) {
        var b: [UInt8] = [UInt8(flags & 0xFF), UInt8(flags >> 8)]
        var fields: [(String, Int)] = [("flags", 2)]
        func add(_ name: String, _ v: [UInt8]) { b += v; fields.append((name, v.count)) }
        if flags & 0x001 == 0 { add("instantaneous speed", [0xA8, 0x0C]) }  // 3240
        if flags & 0x002 != 0 { add("average speed", [0x10, 0x0C]) }
        if flags & 0x004 != 0 { add("instantaneous cadence", [183, 0]) }
        if flags & 0x008 != 0 { add("average cadence", [170, 0]) }
        if flags & 0x010 != 0 { add("total distance", [0x39, 0x30, 0x00]) }  // 12345
        if flags & 0x020 != 0 { add("resistance level", [5, 0]) }
        if flags & 0x040 != 0 { add("instantaneous power", [240, 0]) }
        if flags & 0x080 != 0 { add("average power", [220, 0]) }
        if flags & 0x100 != 0 { add("expended energy", [100, 0, 0x20, 0x03, 12]) }
        if flags & 0x200 != 0 { add("heart rate", [141]) }
        return (b, fields)
    }

    @Test func everyCombinationOfTheFirstTenFlags() throws {
        for flags in 0..<0x400 {
            let (b, _) = Self.bytes(flags)
            let d = try IndoorBikeData.parse(b)
            expectEqual(d.speedCentiKmh, flags & 1 == 0 ? 3240 : nil, "flags \(flags)")
            expectEqual(d.cadence, flags & 4 != 0 ? 91.5 : nil)
            expectEqual(d.totalDistance, flags & 0x10 != 0 ? 12_345 : nil)
            expectEqual(d.watts, flags & 0x40 != 0 ? 240 : nil)
            expectEqual(d.heartRate, flags & 0x200 != 0 ? 141 : nil)
        }
    }

    @Test func whatItEncodesItReads() throws {
        let d = IndoorBikeData(speedCentiKmh: 3240, cadenceHalfRpm: 180, totalDistance: 70_000, watts: -12, heartRate: 150)
        expectEqual(try IndoorBikeData.parse(d.encoded()), d)
        // The stand-in trainer's value: flags 0x0044, speed, cadence, power.
        let peer = try IndoorBikeData.parse([0x44, 0x00, 0xB8, 0x0B, 0xB4, 0x00, 0xFA, 0x00])
        expectEqual(peer, IndoorBikeData(speedCentiKmh: 3000, cadenceHalfRpm: 180, watts: 250))
    }

    @Test func everyTruncationNamesTheField() {
        let (full, fields) = Self.bytes(0x3FE)
        #expect(throws: BikeSensorMeasurementError.empty) { try IndoorBikeData.parse([UInt8]()) }
        var start = 0
        for (name, size) in fields {
            for cut in start..<(start + size) where cut > 0 {
                #expect(throws: BikeSensorMeasurementError.truncated(field: name, needed: size, remaining: cut - start)) {
                    try IndoorBikeData.parse(full.prefix(cut))
                }
            }
            start += size
        }
    }

    @Test func aTrainersReadingsAsRates() {
        var rates = SensorRates()
        let first = rates.reading(.fitnessMachine(IndoorBikeData(speedCentiKmh: 3600, cadenceHalfRpm: 180, watts: 250)), at: 100)
        expectEqual(first, SensorReading(power: 250, cadence: 90, speed: 10, distance: 0))
        // No total distance: the previous speed over the time since, at most 5 s of it.
        let second = rates.reading(.fitnessMachine(IndoorBikeData(speedCentiKmh: 1800, watts: -5)), at: 102)
        expectEqual(second, SensorReading(power: 0, speed: 5, distance: 20))
        expectEqual(rates.reading(.fitnessMachine(IndoorBikeData(speedCentiKmh: 1800)), at: 200)?.distance, 25)
        // With a total distance: its growth, a restart adding nothing.
        var totals = SensorRates()
        expectEqual(totals.reading(.fitnessMachine(IndoorBikeData(totalDistance: 1000)), at: 0)?.distance, 0)
        expectEqual(totals.reading(.fitnessMachine(IndoorBikeData(totalDistance: 1009)), at: 1)?.distance, 9)
        expectEqual(totals.reading(.fitnessMachine(IndoorBikeData(totalDistance: 3)), at: 2)?.distance, 0)
    }

    @Test func aPowerMeterWinsOverTheTrainerAndTheTrainerOverAFootpod() {
        #expect(SensorSource.power.rank(for: .power) < SensorSource.trainer.rank(for: .power))
        #expect(SensorSource.csc.rank(for: .speed) < SensorSource.trainer.rank(for: .speed))
        #expect(SensorSource.trainer.rank(for: .speed) < SensorSource.rsc.rank(for: .speed))
        #expect(SensorSource.power.rank(for: .cadence) < SensorSource.trainer.rank(for: .cadence))
        expectEqual(SensorService.fitnessMachine.source, .trainer)
        expectEqual(SensorService.fitnessMachine.measurementUUID, "00002ad2-0000-1000-8000-00805f9b34fb")
    }
}
