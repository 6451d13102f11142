import Testing
@testable import WorkoutCore

/// What `workoutctl simulate` writes to the feed socket reads back through the daemon's decoder.
@Suite struct FeedLineTests {
    static func decode(_ line: String) -> (fixes: [Fix], decoder: FeedSocketDecoder) {
        var d = FeedSocketDecoder()
        let bytes = Array(line.utf8)
        let fixes = bytes.withUnsafeBufferPointer { d.decode(line: $0) }
        return (fixes, d)
    }

    @Test func aFixReadsBackEqual() throws {
        let full = Fix(time: 1_800_000_000.25, latitude: 48.137, longitude: 11.575, altitude: 520.5, speed: 3.2, course: 271,
                       heartRate: 142, cadence: 88, power: 250)
        let bare = Fix(time: 1_800_000_001, latitude: -33.9, longitude: 151.2)
        for f in [full, bare] {
            let back = try #require(Self.decode(FeedLine.fix(f)).fixes.first)
            expectEqual(back.time, f.time)
            expectEqual(back.latitude, f.latitude)
            expectEqual(back.longitude, f.longitude)
            expectEqual(back.altitude, f.altitude)
            expectEqual(back.speed, f.speed)
            expectEqual(back.course, f.course)
            expectEqual(back.heartRate, f.heartRate)
            expectEqual(back.cadence, f.cadence)
            expectEqual(back.power, f.power)
        }
        expectEqual(FeedLine.fix(bare), #"{"class":"FIX","time":"2027-01-15T08:00:01Z","lat":-33.9,"lon":151.2}"#)
    }

    @Test func headerSegmentAndRetiming() throws {
        let header = Self.decode(FeedLine.simulation(speed: 50, recordedTrack: true)).decoder
        expectEqual(header.replay, FeedReplay(speed: 50, origin: .device))
        expectEqual(Self.decode(FeedLine.simulation(speed: 2, recordedTrack: false)).decoder.replay, FeedReplay(speed: 2, origin: .receiver))
        #expect(FeedLine.isSimulationHeader(try JSON.parse(FeedLine.simulation(speed: 1, recordedTrack: false))))
        var segment = Self.decode(FeedLine.segmentBreak).decoder
        let broke = segment.takeSegmentBreak()
        #expect(broke)
        let moved = try #require(FeedLine.retimed(FeedLine.fix(Fix(time: 100, latitude: 1, longitude: 2)), to: 160.5))
        expectEqual(FeedLine.time(of: try JSON.parse(moved)), 160.5)
        expectEqual(FeedLine.retimed("not json", to: 1), nil)
    }
}
