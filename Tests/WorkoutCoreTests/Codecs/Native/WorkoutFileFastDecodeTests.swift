import Testing
@testable import WorkoutCore

/// `WorkoutFile.decode` reads points straight into `TrackPoint`s (`decodeFast`) and falls back to
/// the general JSON decoder for anything else: both must give the same workout, and the same
/// error, for every file.
struct WorkoutFileFastDecodeTests {
    static let t0 = 1_795_000_000.0

    /// Points with every optional field present or absent at random, rejected ones included.
    static func workout(seed: UInt64, count: Int = 400) -> Workout {
        var rng = SeededRandom(seed: seed)
        func maybe<T>(_ v: @autoclosure () -> T) -> T? { Bool.random(using: &rng) ? v() : nil }
        var points: [TrackPoint] = []
        for k in 0..<count {
            let fix = Fix(time: t0 + Double(k) + Double(Int.random(in: 0...999, using: &rng)) / 1000,
                          latitude: Double.random(in: -89...89, using: &rng), longitude: Double.random(in: -179...179, using: &rng),
                          altitude: maybe(Double.random(in: -400...8000, using: &rng)), speed: maybe(Double.random(in: 0...40, using: &rng)),
                          course: maybe(Double.random(in: 0..<360, using: &rng)), mode: [.noFix, .twoD, .threeD].randomElement(using: &rng)!,
                          quality: maybe(FixQuality.allCases.randomElement(using: &rng)!), satellites: maybe(Int.random(in: 0...40, using: &rng)),
                          hdop: maybe(Double.random(in: 0...20, using: &rng)), horizontalAccuracy: maybe(Double.random(in: 0...100, using: &rng)),
                          heartRate: maybe(Int.random(in: 40...220, using: &rng)), cadence: maybe(Int.random(in: 0...200, using: &rng)),
                          power: maybe(Int.random(in: 0...1500, using: &rng)), temperature: maybe(Int.random(in: -30...50, using: &rng)))
            points.append(TrackPoint(fix: fix, rejection: maybe(RejectionReason.allCases.randomElement(using: &rng)!), segment: k / 100))
        }
        let s = WorkoutSummary(id: WorkoutID(rawValue: "20261118T054640Z-0001")!, activity: .running, startedAt: t0, endedAt: t0 + Double(count))
        return Workout(summary: s, points: points, events: [WorkoutEvent(kind: .pause, time: t0 + 5, cause: .device),
                                                           WorkoutEvent(kind: .resume, time: t0 + 9)], source: "imported:x.fit")
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func fastAndGeneralDecodersAgree(_ seed: UInt64) throws {
        let w = Self.workout(seed: seed)
        let bytes = WorkoutFile.encode(w)
        expectNotNil(WorkoutFile.decodeFast(bytes), "a file we wrote takes the fast path")
        let fast = try WorkoutFile.decode(bytes)
        let general = try WorkoutFile.decodeGeneral(bytes)
        expectEqual(fast, general)
        expectEqual(fast.points.count, w.points.count)
        expectEqual(fast.events, w.events)
        expectEqual(WorkoutFile.encode(fast), bytes)
    }

    /// Inputs the fast path leaves to the general decoder: the results and errors are the same.
    @Test func unusualFilesGiveTheSameResultOrError() throws {
        let good = String(decoding: WorkoutFile.encode(Self.workout(seed: 9, count: 5)), as: UTF8.self)
        let first = good.range(of: "\"points\":[")!.upperBound
        let variants: [String] = [
            good.replacingCharacters(in: first..<first, with: "[1,2],"),  // a damaged first point
            good.replacingCharacters(in: first..<first, with: "[1795000000,1,2,null,null,null,3,null,null,null,null,null,0,null,null,null,null,7],"),  // 18 fields
            good.replacingCharacters(in: first..<first, with: "[1795000000,1,2,null,null,null,3,null,null,null,null,null,0,true],"),  // a bool
            good.replacingCharacters(in: first..<first, with: "[1795000000,1,2,null,null,null,3.5,null,null,null,null,null,0,null],"),  // mode 3.5
            good.replacingCharacters(in: first..<first, with: "[1795000000,1,2,null,null,null,3,null,null,null,null,null,0,\"nope\",\"x\"],"),
            good.replacingOccurrences(of: "\"points\":[", with: "\"points\":[],\"points\":["),  // repeated key
            good + "x",  // trailing garbage
            String(good.dropLast(3)),  // cut short
            good.replacingOccurrences(of: "\"points\":[", with: "\"points\": [ "),
            "[]", "{}", "{\"format\":\"workoutd-workout/1\"}",
        ]
        for v in variants {
            let bytes = Array(v.utf8)
            let a = Result { try WorkoutFile.decode(bytes) }
            let b = Result { try WorkoutFile.decodeGeneral(bytes) }
            switch (a, b) {
            case (.success(let x), .success(let y)): expectEqual(x, y, "\(v.prefix(80))")
            case (.failure(let x), .failure(let y)): expectEqual(String(describing: x), String(describing: y), "\(v.prefix(80))")
            default: Issue.record("fast and general decoders differ on \(v.prefix(120)): \(a) vs \(b)")
            }
        }
    }
}
