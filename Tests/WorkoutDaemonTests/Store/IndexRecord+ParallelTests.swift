import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// The index read in pieces on several threads gives exactly what one pass gives.
@Suite struct IndexRecordParallelTests {
    /// An index as the store writes it, with deletes, a damaged line, a CRLF line, an empty
    /// line and a torn last line (a crash mid-append) mixed in.
    static func index(workouts: Int, seed: UInt64) -> (bytes: [UInt8], ids: [WorkoutID]) {
        var rng = SplitMix64(seed: seed)
        var text = "", ids: [WorkoutID] = []
        for k in 0..<workouts {
            var s = WorkoutSummary(id: WorkoutID(start: 1_700_000_000 + Double(k) * 3600, suffix: UInt16(k % 60_000)),
                                   activity: ActivityType.allCases[Int(rng.next() % UInt64(ActivityType.allCases.count))],
                                   startedAt: 1_700_000_000 + Double(k) * 3600)
            s.distanceMeters = Double(rng.next() % 100_000) / 10
            ids.append(s.id)
            var line = HistoryStore.indexLine(put: s)
            if k % 7 == 3 { line = String(line.dropLast()) + "\r\n" }
            text += line
            switch rng.next() % 20 {
            case 0: text += #"{"del":"\#(ids[Int(rng.next() % UInt64(ids.count))].rawValue)"}"# + "\n"
            case 1: text += #"{"put": {"id": "bro"# + "\n"
            case 2: text += "\n"
            default: break
            }
        }
        text += #"{"put":{"id":"torn"#
        return (Array(text.utf8), ids)
    }

    static func describe(_ records: [IndexRecord]) -> [String] {
        records.map { r in
            switch r {
            case .put(let s): return "put \(s.id.rawValue) \(s.activity.rawValue) \(s.distanceMeters)"
            case .del(let id): return "del \(id.rawValue)"
            }
        }
    }

    @Test(arguments: [1, 2, 3, 4, 7])
    func piecesParseToTheSameRecordsAsOnePass(pieces: Int) {
        let (bytes, _) = Self.index(workouts: 600, seed: UInt64(pieces))
        let one = Self.describe(IndexRecord.parseAll(bytes, pieces: 1))
        let many = Self.describe(IndexRecord.parseAll(bytes, pieces: pieces))
        #expect(one.count > 600)  // every put and some deletes
        #expect(one.contains { $0.hasPrefix("del ") })
        #expect(many == one)
    }

    @Test func piecesTileTheFileAndEndAfterNewlines() {
        var rng = SplitMix64(seed: 9)
        for _ in 0..<200 {
            let n = Int(rng.next() % 400)
            let bytes = (0..<n).map { _ in rng.next() % 9 == 0 ? UInt8(10) : UInt8(65) }
            let count = 1 + Int(rng.next() % 6)
            let cuts = IndexRecord.pieces(of: bytes, count: count)
            #expect(cuts.first?.lowerBound == 0)
            #expect(cuts.last?.upperBound == bytes.count)
            #expect(cuts.count <= count)
            for (a, b) in zip(cuts, cuts.dropFirst()) {
                #expect(a.upperBound == b.lowerBound)
                #expect(!a.isEmpty && bytes[a.upperBound - 1] == 10, "a piece must end just after a newline")
            }
        }
    }

    @Test func smallIndexesStayOnOneThread() {
        #expect(IndexRecord.threads(for: 200 << 10) == 1)
        #expect(IndexRecord.threads(for: 5 << 20) >= 1 && IndexRecord.threads(for: 5 << 20) <= 4)
    }
}
