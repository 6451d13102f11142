import Testing
@testable import WorkoutCore
@testable import WorkoutDaemon

@Suite struct FeedSocketDecoderTests {
    func feed(_ d: inout FeedSocketDecoder, _ line: String) -> [Fix] {
        Array(line.utf8).withUnsafeBufferPointer { d.decode(line: $0) }
    }

    @Test func heartRateLinesAreCollectedBesideFixes() {
        var d = FeedSocketDecoder()
        #expect(feed(&d, #"{"class":"HR","time":"2026-11-21T09:30:00Z","bpm":142,"rr":[0.5]}"#).isEmpty)
        #expect(feed(&d, #"{"class":"FIX","time":"2026-11-21T09:30:01Z","lat":48.1,"lon":11.5,"hr":143}"#).first?.heartRate == 143)
        #expect(feed(&d, #"{"class":"HR","time":"2026-11-21T09:30:02Z","bpm":144}"#).isEmpty)
        #expect(feed(&d, #"{"class":"HR","time":"2026-11-21T09:30:03Z","bpm":-4}"#).isEmpty)
        #expect(feed(&d, #"{"class":"HR","bpm":100}"#).isEmpty)
        let t = ISO8601.parse("2026-11-21T09:30:00Z")!
        #expect(d.takeHeartRates() == [HeartRateReading(time: t, bpm: 142, rr1024: [512]), HeartRateReading(time: t + 2, bpm: 144)])
        #expect(d.takeHeartRates().isEmpty)
        #expect(d.rejected == ["hr_bad_bpm": 1, "hr_bad_time": 1])
    }
}
