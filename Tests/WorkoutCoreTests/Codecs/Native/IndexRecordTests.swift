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
        expectEqual(IndexRecord.parse(bytes[...]), records)
        for r in records { #expect(r.line.hasSuffix("\n") && r.line.filter { $0 == "\n" }.count == 1) }
    }

    @Test func damagedTornAndForeignLinesAreSkipped() {
        let good = IndexRecord.put(Self.entry(3))
        let text = "{\"put\": {\"id\": \"bro\n" + "\n" + "[1,2]\n" + "{\"del\":\"not an id\"}\n" + good.line.dropLast() + "\r\n" + "{\"put\":{\"id\":\"torn"
        expectEqual(IndexRecord.parse(Array(text.utf8)[...]), [good])
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

    /// A summary with every member the index writes set, text that needs escapes included.
    static func rich(_ k: Int) -> WorkoutSummary {
        var s = summary(k)
        s.endedAt = s.startedAt + 3000.25
        s.title = "Hill \"repeats\" — 6×400 m\nwindy"
        s.notes = "Left knee ok\tmostly"
        s.gear = "Pegasus 40"
        s.effort = 7
        s.elapsedSeconds = 3000.25; s.movingSeconds = 2900.5; s.distanceMeters = 10_012.125
        s.distanceSource = .device; s.gpsDistanceMeters = 10_100.5
        s.multisport = MultisportLeg(event: WorkoutID(rawValue: "20261121T093000Z-3f9a")!, leg: 2, legs: 3)
        s.swim = SwimSummary(poolLengthMeters: 25, poolUnit: .meters, lengths: 40, activeLengths: 38, strokes: 700, averageSwolf: 35.5,
                             pacePer100: 110.5, mainStroke: .freestyle)
        s.elevationGainMeters = 120.25; s.elevationLossMeters = 119.5
        s.pointCount = 3001; s.acceptedCount = 2990
        s.rejectedByReason = [.noFix: 4, RejectionReason.allCases.last!: 7]
        s.averageSpeed = 3.3375; s.movingAverageSpeed = 3.4512; s.currentSpeed = 2.5; s.maxSpeed = 5.1234
        s.calories = 612.5; s.caloriesMethod = .heartRate
        s.averageHeartRate = 151.5; s.maxHeartRate = 182; s.heartRate = 150; s.heartRateZone = 3
        s.heartRateZoneBounds = [100, 120, 140, 160, 180]; s.heartRateZoneSeconds = [10, 200.5, 900, 1500.25, 300, 89.5]
        s.averagePower = 250.5; s.maxPower = 612; s.averageCadence = 88.5
        s.normalizedPower = 262.5; s.intensityFactor = 0.875; s.trainingStress = 61.5; s.trainingStressMethod = .power; s.workKilojoules = 750.5
        s.powerZoneBounds = [0, 166, 226, 271, 316, 361, 451]; s.powerZoneSeconds = [1, 2, 3, 4, 5, 6, 7.5]
        s.powerCurve = [PowerCurvePoint(seconds: 5, watts: 600.5, startTime: s.startedAt + 10), PowerCurvePoint(seconds: 60, watts: 400, startTime: s.startedAt + 70.5)]
        s.power = 240; s.cadence = 90
        s.signalLostSeconds = 12.5
        s.warnings = ["fixes faster than running allows"]
        s.splitUnit = .mile
        s.bestEfforts = [BestEffort(distanceMeters: 1000, seconds: 250.5, startTime: s.startedAt + 100), BestEffort(distanceMeters: 5000, seconds: 1400, startTime: s.startedAt + 200)]
        return s
    }

    static func richLines() -> [String] {
        let stamp = FileStamp(inode: 1 << 40, size: 123_456, modifiedSeconds: 1_700_000_000, modifiedNanoseconds: 999_999_999)
        let revision = Revision(editedAt: 1_700_000_000.5, machine: MachineTag(rawValue: "k3m9xa")!, host: "pi \"north\"")
        let plain = summary(9)
        return [
            IndexRecord.put(IndexEntry(summary: rich(1), file: HistoryFileName.of(rich(1).id), stamp: stamp, revision: revision, imported: true)).line,
            IndexRecord.put(IndexEntry(summary: rich(2), file: String(HistoryFileName.of(rich(2).id).dropLast(5)) + ".sync-conflict-20261122-101500-ABCDEF7.json", stamp: stamp)).line,
            IndexRecord.put(IndexEntry(summary: plain, file: HistoryFileName.of(plain.id))).line,
            JSON.object(JSONObject([("put", plain.json())])).serialized() + "\n",  // a line written before stamps
        ]
    }

    /// Every kind of `put` line the store writes is read straight from its text (no tree), to
    /// the record the tree gives.
    @Test func writtenLinesAreReadWithoutATree() {
        for line in Self.richLines() {
            let bytes = Array(line.dropLast().utf8)
            let (written, tree) = bytes.withUnsafeBufferPointer { (IndexRecord.written($0), IndexRecord.tree($0)) }
            expectNotNil(written, "\(line)")
            #expect(tree.count == 1 && written == tree.first, "\(line)")
        }
        guard case .put(let e)? = IndexRecord.parse(Array(Self.richLines()[0].utf8)[...]).first else { Issue.record("no put"); return }
        let expected = Self.rich(1)
        #expect(e.summary == expected && e.imported && e.revision?.host == "pi \"north\"")
    }

    /// Lines in any other shape are left to the tree, which reads them as before: members in
    /// another order, a duplicate (the last wins), an unknown member, a key with an escape,
    /// spaces, a line with both `put` and `del`.
    @Test func otherShapesAreReadAsTrees() {
        let line = String(Self.richLines()[2].dropLast())
        let id = Self.summary(9).id.rawValue
        let shapes: [(String, Bool)] = [
            (line.replacingFirst("\"activity\":\"running\",", with: "") .replacingFirst("\"endedAt\"", with: "\"activity\":\"running\",\"endedAt\""), true),
            (line.replacingFirst("\"activity\"", with: "\"activity\":\"cycling\",\"activity\""), true),
            (line.replacingFirst("\"title\"", with: "\"mood\":\"good\",\"title\""), true),
            (line.replacingFirst("\"title\"", with: "\"\\u0074itle\""), true),
            (line.replacingFirst("{\"put\"", with: "{\"del\":\"\(id)\",\"put\""), true),
            (" " + line.replacingFirst(":", with: " : ").replacingFirst(",", with: " ,\t") + " ", false),
        ]
        for (shape, left) in shapes {
            let bytes = Array(shape.utf8)
            let (written, tree) = bytes.withUnsafeBufferPointer { (IndexRecord.written($0), IndexRecord.tree($0)) }
            if left { expectNil(written, "\(shape)") } else { #expect(written != nil && [written!] == tree, "\(shape)") }
            #expect(!tree.isEmpty, "\(shape)")
            expectEqual(IndexRecord.parse((bytes + [10])[...]), tree, "\(shape)")
        }
        // Not JSON at all: refused both ways (data after the object, an unclosed object).
        for bad in [line + "x", line + "}", line + ",", String(line.dropLast()), "[" + line + "]", line.replacingFirst("\"put\":", with: "\"put\"")] {
            let bytes = Array(bad.utf8)
            let (written, tree) = bytes.withUnsafeBufferPointer { (IndexRecord.written($0), IndexRecord.tree($0)) }
            #expect(written == nil && tree.isEmpty, "\(bad)")
        }
    }

    /// Whatever a line is changed into, reading it straight from the text never disagrees with
    /// the tree: 3,000 lines with a byte deleted, inserted or replaced (JSON's punctuation,
    /// digits, letters, an escape) anywhere in a written line.
    @Test func damagedLinesReadAsTheTreeReadsThem() {
        var rng = SplitMix64(seed: 29)
        let alphabet = Array("{}[],:\"\\ 0123456789.-eEtrunlfaxyz\u{7f}".utf8) + [0xC3, 0xFF, 0x00, 0x0A]
        let lines = Self.richLines().map { Array($0.dropLast().utf8) }
        var disagreements: [String] = []
        var readStraight = 0
        for k in 0..<3000 {
            var bytes = lines[k % lines.count]
            let at = Int(rng.next() % UInt64(bytes.count))
            switch rng.next() % 3 {
            case 0: bytes.remove(at: at)
            case 1: bytes.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: at)
            default: bytes[at] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
            }
            let (written, tree) = bytes.withUnsafeBufferPointer { (IndexRecord.written($0), IndexRecord.tree($0)) }
            if let written {
                readStraight += 1
                if tree != [written] { disagreements.append(String(decoding: bytes, as: UTF8.self)) }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(3))")
        expectGreater(readStraight, 300)  // many changed lines still have the written shape (a changed number, a letter in a title)
    }
}

private extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let r = firstRange(of: target) else { return self }
        var s = self
        s.replaceSubrange(r, with: replacement)
        return s
    }
}
