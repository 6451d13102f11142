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
            let stamp = FileStamp(inode: UInt64(k), size: 1000 + Int64(k), modifiedSeconds: 1_700_000_000 + Int64(k), modifiedNanoseconds: 5)
            let revision = k % 3 == 0 ? nil : Revision(editedAt: 1_700_000_000 + Double(k), machine: MachineTag(rawValue: "abcdef")!, host: "pi")
            var line = IndexRecord.line(put: WorkoutVersion(file: HistoryFileName.of(s.id), summary: s, revision: revision, imported: k % 2 == 0, stamp: stamp))
            if k % 11 == 5 { line = #"{"put":"# + s.json().serialized() + "}\n" }  // written before stamps
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
            case .put(let e): return "put \(e.file) \(e.summary.activity.rawValue) \(e.summary.distanceMeters) \(String(describing: e.stamp)) \(String(describing: e.revision)) \(e.imported)"
            case .del(let file): return "del \(file)"
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

    /// A line carries the version's file, stamp, revision and import flag; a line written
    /// before them reads as the workout's own file, unstamped.
    @Test func versionLinesRoundTrip() {
        var s = WorkoutSummary(id: WorkoutID(start: 1_700_000_000, suffix: 7, machine: MachineTag(rawValue: "k3m9xa")!), activity: .cycling, startedAt: 1_700_000_000)
        s.distanceMeters = 1234.5
        let copy = String(HistoryFileName.of(s.id).dropLast(5)) + ".sync-conflict-20261122-101500-ABCDEF7.json"
        let v = WorkoutVersion(file: copy, summary: s, revision: Revision(editedAt: 1_700_000_100.25, machine: MachineTag(rawValue: "zzzzzz")!, host: "laptop"),
                               imported: true, stamp: FileStamp(inode: 123_456_789, size: 42, modifiedSeconds: 1_700_000_100, modifiedNanoseconds: 250_000_000))
        let records = IndexRecord.parse(Array((IndexRecord.line(put: v) + IndexRecord.line(delete: copy) + #"{"put":{"id":"\#(s.id.rawValue)","activity":"running","startedAt":"2023-11-14T22:13:20Z"}}"# + "\n" + #"{"del":"\#(s.id.rawValue)"}"# + "\n").utf8)[...])
        #expect(records.count == 4)
        guard records.count == 4, case .put(let e) = records[0], case .del(let gone) = records[1], case .put(let old) = records[2], case .del(let oldGone) = records[3] else { return }
        #expect(e.file == copy && e.stamp == v.stamp && e.revision == v.revision && e.imported && e.summary.distanceMeters == 1234.5)
        #expect(gone == copy)
        #expect(old.file == HistoryFileName.of(s.id) && old.stamp == nil && old.revision == nil && !old.imported)
        #expect(oldGone == HistoryFileName.of(s.id))
    }

    /// A line whose file name does not hold its summary's workout is dropped.
    @Test func aLineNamingAnotherWorkoutsFileIsDropped() {
        let s = WorkoutSummary(id: WorkoutID(start: 1_700_000_000, suffix: 7), activity: .cycling, startedAt: 1_700_000_000)
        let v = WorkoutVersion(file: "20200101T000000Z-0001.json", summary: s, revision: nil, imported: false,
                               stamp: FileStamp(inode: 1, size: 1, modifiedSeconds: 1, modifiedNanoseconds: 0))
        #expect(IndexRecord.parse(Array(IndexRecord.line(put: v).utf8)[...]).isEmpty)
    }

    @Test func smallIndexesStayOnOneThread() {
        #expect(IndexRecord.threads(for: 200 << 10) == 1)
        #expect(IndexRecord.threads(for: 5 << 20) >= 1 && IndexRecord.threads(for: 5 << 20) <= 4)
    }
}
