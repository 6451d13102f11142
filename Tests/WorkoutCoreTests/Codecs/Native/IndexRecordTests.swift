import Testing
@testable import WorkoutCore

/// index.jsonl lines: what the store writes parses back; damaged, torn and foreign lines are
/// skipped; a `put` leaves the splits and laps to the workout file.
@Suite struct IndexRecordTests {
    static func summary(_ k: Int) -> WorkoutSummary {
        var s = WorkoutSummary(id: WorkoutID(start: 1_700_000_000 + Double(k) * 3600, suffix: UInt16(k)), activity: .running,
                               startedAt: 1_700_000_000 + Double(k) * 3600)
        s.distanceMeters = 5012.5
        return s
    }

    static func entry(_ k: Int) -> IndexEntry { IndexEntry(summary: summary(k), file: HistoryFileName.of(summary(k).id)) }

    @Test func linesParseBackToTheirRecords() {
        let stamped = IndexEntry(summary: Self.summary(5), file: String(HistoryFileName.of(Self.summary(5).id).dropLast(5)) + ".sync-conflict-20261122-101500-ABCDEF7.json",
                                 stamp: FileStamp(inode: 77, size: 1234, modifiedSeconds: 1_700_000_000, modifiedNanoseconds: 5),
                                 revision: Revision(editedAt: 1_700_000_000.5, machine: MachineTag(rawValue: "k3m9xa")!, host: "pi"), imported: true)
        let records: [IndexRecord] = [.put(Self.entry(1)), .del(file: Self.entry(1).file), .put(Self.entry(2)), .put(stamped), .del(file: stamped.file)]
        let bytes = Array(records.map(\.line).joined().utf8)
        #expect(IndexRecord.parse(bytes[...]) == records)
        for r in records { #expect(r.line.hasSuffix("\n") && r.line.filter { $0 == "\n" }.count == 1) }
    }

    @Test func damagedTornAndForeignLinesAreSkipped() {
        let good = IndexRecord.put(Self.entry(3))
        let text = "{\"put\": {\"id\": \"bro\n" + "\n" + "[1,2]\n" + "{\"del\":\"not an id\"}\n" + good.line.dropLast() + "\r\n" + "{\"put\":{\"id\":\"torn"
        #expect(IndexRecord.parse(Array(text.utf8)[...]) == [good])
    }

    @Test func aPutLeavesSplitsAndLapsToTheWorkoutFile() {
        var s = Self.summary(4)
        s.laps = [LapSummary(index: 1, trigger: .manual, startTime: s.startedAt, endTime: s.startedAt + 60, elapsedSeconds: 60, movingSeconds: 60, distanceMeters: 200)]
        let back = IndexRecord.parse(Array(IndexRecord.put(IndexEntry(summary: s, file: HistoryFileName.of(s.id))).line.utf8)[...])
        guard case .put(let entry)? = back.first else { Issue.record("no put read back"); return }
        let read = entry.summary
        #expect(read.laps.isEmpty && read.splits.isEmpty)
        #expect(read.id == s.id && read.distanceMeters == s.distanceMeters)
    }
}
