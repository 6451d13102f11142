import Testing
@testable import WorkoutCore

/// Issue 15 item 11 on the feed socket: JSON fix lines with implausible values are rejected and
/// counted in `gps.rejectedInput`; NMEA lines there count under the same keys as a raw NMEA source.
@Suite struct FeedSocketDecoderTests {
    static func decode(_ d: inout FeedSocketDecoder, _ line: String) -> [Fix] {
        Array(line.utf8).withUnsafeBufferPointer { d.decode(line: $0) }
    }

    @Test func implausibleAltitudeIsRejectedAndCounted() {
        var d = FeedSocketDecoder()
        #expect(Self.decode(&d, #"{"class":"FIX","time":"2026-11-21T09:30:00Z","lat":48.1,"lon":11.5,"alt":1e15}"#).isEmpty)
        #expect(Self.decode(&d, #"{"class":"FIX","time":"2026-11-21T09:30:01Z","lat":48.1,"lon":11.5,"alt":1e308}"#).isEmpty)
        #expect(Self.decode(&d, #"{"class":"FIX","time":"2026-11-21T09:30:02Z","lat":48.1,"lon":11.5,"hr":5000}"#).isEmpty)
        expectEqual(Self.decode(&d, #"{"class":"FIX","time":"2026-11-21T09:30:03Z","lat":48.1,"lon":11.5,"alt":530}"#).count, 1)
        expectEqual(d.rejected, ["implausible_altitude": 2, "implausible_heart_rate": 1])
    }

    /// Power and cadence on fix lines reach the fix (a bike computer or `simulate` of a file
    /// with power); out-of-range power rejects the line like any implausible field.
    @Test func powerAndCadenceOnFixLines() {
        var d = FeedSocketDecoder()
        let f = Self.decode(&d, #"{"class":"FIX","time":"2026-11-21T09:30:00Z","lat":48.1,"lon":11.5,"cad":88,"power":231}"#)
        #expect(f.first?.power == 231 && f.first?.cadence == 88)
        #expect(Self.decode(&d, #"{"class":"FIX","time":"2026-11-21T09:30:01Z","lat":48.1,"lon":11.5,"power":65535}"#).isEmpty)
        expectEqual(d.rejected, ["implausible_power": 1])
    }

    @Test func nmeaOnTheFeedSocketUsesTheNMEAKeys() {
        var d = FeedSocketDecoder()
        _ = Self.decode(&d, "$GPGGA,100000.00,4806.000,N,01130.000,E,1,08,1.0,520.0,M,47.0,M,,*00")
        _ = Self.decode(&d, "$GPGGA,100000.00,4806.000,N")
        var s = NMEADecoder.Stats()
        s.badChecksum = 1
        s.missingChecksum = 1
        expectEqual(d.rejected, s.rejectionCounts)
        expectEqual(d.rejected["nmea_bad_checksum"], 1)
    }
}

@Suite struct FeedSocketDecoderHeartRateTests {
    func feed(_ d: inout FeedSocketDecoder, _ line: String) -> [Fix] {
        Array(line.utf8).withUnsafeBufferPointer { d.decode(line: $0) }
    }

    @Test func heartRateLinesAreCollectedBesideFixes() {
        var d = FeedSocketDecoder()
        #expect(feed(&d, #"{"class":"HR","time":"2026-11-21T09:30:00Z","bpm":142,"rr":[0.5]}"#).isEmpty)
        expectEqual(feed(&d, #"{"class":"FIX","time":"2026-11-21T09:30:01Z","lat":48.1,"lon":11.5,"hr":143}"#).first?.heartRate, 143)
        #expect(feed(&d, #"{"class":"HR","time":"2026-11-21T09:30:02Z","bpm":144}"#).isEmpty)
        #expect(feed(&d, #"{"class":"HR","time":"2026-11-21T09:30:03Z","bpm":-4}"#).isEmpty)
        #expect(feed(&d, #"{"class":"HR","bpm":100}"#).isEmpty)
        let t = ISO8601.parse("2026-11-21T09:30:00Z")!
        expectEqual(d.takeHeartRates(), [HeartRateReading(time: t, bpm: 142, rr1024: [512]), HeartRateReading(time: t + 2, bpm: 144)])
        #expect(d.takeHeartRates().isEmpty)
        expectEqual(d.rejected, ["hr_bad_bpm": 1, "hr_bad_time": 1])
    }
}
