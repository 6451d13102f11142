import Testing
@testable import WorkoutCore

/// `PowerCurveFile`: the curves kept between runs come back as written; anything else is no file.
struct PowerCurveFileTests {
    static let entries: [PowerCurveFile.Entry] = [
        .init(id: WorkoutID(rawValue: "20261118T054640Z-0001")!,
              key: PowerCurveKey(endedAt: 1_795_000_600.5, pointCount: 3600, activity: .cycling, workKilojoules: 720.25, averagePower: 200.5),
              curve: [PowerCurvePoint(seconds: 1, watts: 612.5, startTime: 1_795_000_100), PowerCurvePoint(seconds: 1200, watts: 251.125, startTime: 1_795_000_200)]),
        .init(id: WorkoutID(rawValue: "20261119T054640Z-0002-abcdef")!,
              key: PowerCurveKey(endedAt: nil, pointCount: 0, activity: .indoorCycling, workKilojoules: nil, averagePower: nil),
              curve: []),
    ]

    @Test func whatIsWrittenIsReadBack() throws {
        let bytes = PowerCurveFile.encode(Self.entries)
        #expect(PowerCurveFile.decode(bytes) == Self.entries)
        #expect(PowerCurveFile.decode(PowerCurveFile.encode([])) == [])
    }

    /// Cut anywhere, a byte changed in a count or a name, another format: no entries at all.
    @Test func aDamagedFileIsNoFile() {
        let bytes = PowerCurveFile.encode(Self.entries)
        for cut in [0, 3, 4, 8, 20, bytes.count - 1] { #expect(PowerCurveFile.decode(Array(bytes.prefix(cut))) == nil, "cut at \(cut)") }
        #expect(PowerCurveFile.decode(bytes + [0]) == nil)
        var other = bytes
        other[0] = UInt8(ascii: "X")
        #expect(PowerCurveFile.decode(other) == nil)
        var huge = bytes
        huge[7] = 0xFF  // an entry count of billions
        #expect(PowerCurveFile.decode(huge) == nil)
        // A curve longer than is ever written (4,096 points) is not this file's either.
        let long = PowerCurveFile.Entry(id: Self.entries[0].id, key: Self.entries[0].key,
                                        curve: (1...4097).map { PowerCurvePoint(seconds: $0, watts: 100, startTime: 0) })
        var longBytes = PowerCurveFile.encode([long])
        longBytes.replaceSubrange((longBytes.count - 4096 * 20 - 2)..<(longBytes.count - 4096 * 20), with: [0x01, 0x10])  // count 4097
        longBytes += [UInt8](repeating: 0, count: 20)
        #expect(PowerCurveFile.decode(longBytes) == nil)
        var badID = bytes
        badID[9] = UInt8(ascii: "/")  // inside the first ID
        #expect(PowerCurveFile.decode(badID) == nil)
    }

    @Test func theKeyIsTheSummarysFigures() {
        var s = WorkoutSummary(id: WorkoutID(rawValue: "20261118T054640Z-0001")!, activity: .cycling, startedAt: 0, endedAt: 10)
        s.pointCount = 10
        s.averagePower = 180
        let key = PowerCurveKey(s)
        #expect(key == PowerCurveKey(endedAt: 10, pointCount: 10, activity: .cycling, workKilojoules: nil, averagePower: 180))
        s.averagePower = 181
        #expect(PowerCurveKey(s) != key)
    }
}
