import Testing
@testable import WorkoutCore

@Suite struct HeartRateReadingTests {
    func decode(_ s: String) -> Result<HeartRateReading, HeartRateReading.Problem> { HeartRateReading.decode(try! JSON.parse(s)) }

    @Test func decodesLinesAndRefusesBadOnes() throws {
        let t = ISO8601.parse("2026-11-21T09:30:00Z")!
        expectEqual(decode(#"{"class":"HR","time":"2026-11-21T09:30:00Z","bpm":142}"#), .success(HeartRateReading(time: t, bpm: 142)))
        expectEqual(decode(#"{"class":"HR","time":"2026-11-21T09:30:00Z","bpm":142,"rr":[0.5,0.4219]}"#), .success(HeartRateReading(time: t, bpm: 142, rr1024: [512, 432])))
        expectEqual(decode(#"{"class":"HR","time":"2026-11-21T09:30:00Z","bpm":142,"rr":null}"#), .success(HeartRateReading(time: t, bpm: 142)))
        expectEqual(decode(#"{"class":"HR","bpm":142}"#), .failure(.badTime))
        expectEqual(decode(#"{"class":"HR","time":"yesterday","bpm":142}"#), .failure(.badTime))
        expectEqual(decode(#"{"class":"HR","time":"2026-11-21T09:30:00Z","bpm":142.5}"#), .failure(.badBPM))
        expectEqual(decode(#"{"class":"HR","time":"2026-11-21T09:30:00Z","bpm":0}"#), .failure(.badBPM))
        expectEqual(decode(#"{"class":"HR","time":"2026-11-21T09:30:00Z","bpm":"142"}"#), .failure(.badBPM))
        expectEqual(decode(#"{"class":"HR","time":"2026-11-21T09:30:00Z","bpm":301}"#), .failure(.badBPM))
        expectEqual(decode(#"{"class":"HR","time":"2026-11-21T09:30:00Z","bpm":142,"rr":[-1]}"#), .failure(.badRR))
        expectEqual(decode(#"{"class":"HR","time":"2026-11-21T09:30:00Z","bpm":142,"rr":0.5}"#), .failure(.badRR))
    }

    @Test func lineRoundTrips() throws {
        let r = HeartRateReading(time: 1_795_000_000.25, bpm: 99, rr1024: [1, 512, 65535])
        try expectEqual(HeartRateReading.decode(JSON.parse(r.line)).get(), r)
        expectEqual(HeartRateReading(time: ISO8601.parse("2026-11-18T05:46:40Z")!, bpm: 60).line, #"{"class":"HR","time":"2026-11-18T05:46:40Z","bpm":60}"#)
    }
}
