import Synchronization
import Testing
@testable import WorkoutCore

/// A workout read for its page (`WorkoutFile.decodeThinned`): every n-th point and the last,
/// everything else whole, the decoder's progress reported; the same result for a file the fast
/// path cannot read (`thinned`).
struct WorkoutFileThinningTests {
    static func decode(_ bytes: [UInt8], maxPoints: Int, progress: (@Sendable (Int) -> Void)? = nil) throws -> (workout: Workout, every: Int)? {
        try bytes.withUnsafeBufferPointer { try WorkoutFile.decodeThinned($0, thinning: WorkoutFile.Thinning(maxPoints: maxPoints, consumed: progress)) }
    }

    @Test func everyNthPointAndTheLastTheRestWhole() throws {
        var w = WorkoutFileFastDecodeTests.workout(seed: 7, count: 1001)
        w.summary.pointCount = 1001
        let bytes = WorkoutFile.encode(w)
        let whole = try WorkoutFile.decode(bytes)
        let (thin, every) = try #require(try Self.decode(bytes, maxPoints: 100))
        expectEqual(every, 11)  // ceil(1001 / 100)
        expectEqual(thin.points, whole.points.indices.filter { $0 % 11 == 0 || $0 == 1000 }.map { whole.points[$0] })
        expectEqual(thin.summary, whole.summary)
        expectEqual(thin.events, whole.events)
        expectEqual(thin.source, whole.source)
        // Under the limit: every point, the same workout as `decode`.
        let (all, one) = try #require(try Self.decode(bytes, maxPoints: 5000))
        expectEqual(one, 1)
        expectEqual(all, whole)
        // The same for a file decoded whole first.
        let (after, k) = WorkoutFile.thinned(whole, maxPoints: 100)
        expectEqual(k, 11)
        expectEqual(after.points, thin.points)
    }

    @Test func progressIsReportedAsThePointsAreRead() throws {
        var w = WorkoutFileFastDecodeTests.workout(seed: 8, count: 140_000)
        w.summary.pointCount = 140_000
        let bytes = WorkoutFile.encode(w)
        let seen = Mutex<[Int]>([])
        _ = try #require(try Self.decode(bytes, maxPoints: 1000) { offset in seen.withLock { $0.append(offset) } })
        let offsets = seen.withLock { $0 }
        expectEqual(offsets.count, 2)  // every 65,536 points
        #expect(offsets == offsets.sorted() && offsets.allSatisfy { $0 > 0 && $0 < bytes.count })
    }

    /// A file the fast path does not read (a point of another shape) gives nil: the caller
    /// decodes it whole; a file that is not a workout is an error, as with `decode`.
    @Test func otherFilesAreLeftToTheWholeDecoder() throws {
        var text = String(decoding: WorkoutFile.encode(WorkoutFileFastDecodeTests.workout(seed: 9, count: 10)), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"points\":[[", with: "\"points\":[ [")
        let odd = Array(text.replacingOccurrences(of: "]]", with: ", {\"x\": 1}]]").utf8)
        #expect(try Self.decode(odd, maxPoints: 5) == nil)
        #expect(throws: WorkoutFile.DecodeError.self) { _ = try Self.decode(Array(#"{"format":"other/1","points":[]}"#.utf8), maxPoints: 5) }
    }

    @Test func countsAndOrdinals() {
        expectEqual(WebFormat.count(2_000_000), "2,000,000")
        expectEqual(WebFormat.count(999), "999")
        expectEqual(WebFormat.count(-12345), "-12,345")
        expectEqual(["\(1)\(ordinalSuffix(1))", "\(2)\(ordinalSuffix(2))", "\(3)\(ordinalSuffix(3))", "\(11)\(ordinalSuffix(11))", "\(21)\(ordinalSuffix(21))", "\(10)\(ordinalSuffix(10))"],
                    ["1st", "2nd", "3rd", "11th", "21st", "10th"])
    }

    /// A summary over `PowerCurve.wholeCurvePoints` stands in for the curve of a multi-day file.
    @Test func aHugeWorkoutsSummaryStandsInForItsCurve() {
        var s = WorkoutSummary(id: WorkoutID(rawValue: "20261118T054640Z-0001")!, activity: .cycling, startedAt: 0, endedAt: 1)
        s.pointCount = PowerCurve.wholeCurvePoints
        #expect(!PowerCurve.standsInForCurve(s))
        s.pointCount += 1
        #expect(PowerCurve.standsInForCurve(s))
    }
}
