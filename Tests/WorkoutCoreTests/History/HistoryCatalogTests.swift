import Testing
import WorkoutCore

/// Conflict copies and copies of one recording are listed once, the same way on every machine.
struct HistoryCatalogTests {
    static let a = MachineTag(rawValue: "aaaaaa")!
    static let b = MachineTag(rawValue: "bbbbbb")!

    static func stamp(_ k: Int, modified: Double = 1_795_000_000) -> FileStamp {
        FileStamp(inode: UInt64(k), size: 1000, modifiedSeconds: Int64(modified), modifiedNanoseconds: 0)
    }

    static func version(_ id: WorkoutID, file: String? = nil, editedAt: Double?, by machine: MachineTag = a, activity: ActivityType = .running,
                        start: Double = 1_795_340_000, accepted: Int = 100, imported: Bool = false, inode: Int = 1) -> WorkoutVersion {
        var s = WorkoutSummary(id: id, activity: activity, startedAt: start)
        s.acceptedCount = accepted
        s.pointCount = accepted
        return WorkoutVersion(file: file ?? HistoryFileName.of(id), summary: s,
                              revision: editedAt.map { Revision(editedAt: $0, machine: machine, host: machine.rawValue) },
                              imported: imported, stamp: stamp(inode))
    }

    static let id = WorkoutID(start: 1_795_340_000, suffix: 1, machine: a)
    static let copyName = String(HistoryFileName.of(id).dropLast(5)) + ".sync-conflict-20261122-101500-ABCDEF7.json"

    // MARK: the winner of two versions

    @Test func theNewerEditWins() {
        let mine = Self.version(Self.id, editedAt: 100, by: Self.a, activity: .cycling)
        let theirs = Self.version(Self.id, file: Self.copyName, editedAt: 200, by: Self.b, activity: .walking)
        #expect(theirs.isPreferred(over: mine))
        #expect(!mine.isPreferred(over: theirs))
    }

    @Test func atTheSameTimeTheChoiceIsStillOneAndTheSameEverywhere() {
        var unrevised = Self.version(Self.id, file: "z.json", editedAt: nil)
        unrevised.stamp = Self.stamp(1, modified: 100)
        let versions = [
            Self.version(Self.id, editedAt: 100, by: Self.a),
            Self.version(Self.id, file: Self.copyName, editedAt: 100, by: Self.a),
            Self.version(Self.id, file: Self.copyName + "x", editedAt: 100, by: Self.b),
            unrevised,
        ]
        for x in versions {
            for y in versions where x.file != y.file {
                expectNotEqual(x.isPreferred(over: y), y.isPreferred(over: x), "\(x.file) vs \(y.file): exactly one is preferred")
            }
        }
        // Same time: a revision beats none, the higher machine tag, then the workout's own file.
        #expect(versions[2].isPreferred(over: versions[0]))
        #expect(versions[0].isPreferred(over: versions[1]))
        #expect(versions[1].isPreferred(over: versions[3]))
    }

    @Test func aFileWithoutRevisionIsDatedByItsModificationTime() {
        var old = Self.version(Self.id, editedAt: nil)
        old.stamp = Self.stamp(1, modified: 500)
        expectEqual(old.editedAt, 500)
        #expect(old.isPreferred(over: Self.version(Self.id, file: Self.copyName, editedAt: 400)))
        #expect(!old.isPreferred(over: Self.version(Self.id, file: Self.copyName, editedAt: 600)))
    }

    // MARK: conflicts

    @Test func aConflictListsOneVersionAndKeepsTheOtherAside() {
        var c = HistoryCatalog()
        expectEqual(c.put(Self.version(Self.id, editedAt: 100, activity: .cycling)), [.listed(Self.id)])
        let events = c.put(Self.version(Self.id, file: Self.copyName, editedAt: 200, by: Self.b, activity: .walking, inode: 2))
        expectEqual(events, [.conflict(Self.id, shown: Self.copyName, keptAside: [HistoryFileName.of(Self.id)]), .changed(Self.id)])
        expectEqual(c.listed.count, 1)
        expectEqual(c.listed[Self.id]?.activity, .walking)
        expectEqual(c.file(of: Self.id), Self.copyName)
        expectEqual(Set(c.files(of: Self.id)), [HistoryFileName.of(Self.id), Self.copyName])
        // The copy kept aside for an older edit: logged, nothing listed changes.
        var d = HistoryCatalog()
        _ = d.put(Self.version(Self.id, editedAt: 300, activity: .cycling))
        expectEqual(d.put(Self.version(Self.id, file: Self.copyName, editedAt: 200, by: Self.b, inode: 2)),
                [.conflict(Self.id, shown: HistoryFileName.of(Self.id), keptAside: [Self.copyName])])
        expectEqual(d.listed[Self.id]?.activity, .cycling)
    }

    /// Issue 45 item 4: an edit replaces every version it has seen, whatever their clocks say;
    /// versions neither replaces are still chosen by the clock; the order of arrival changes
    /// nothing; the edit's revision names what it replaces (`lineage`).
    @Test func anEditOutranksEveryVersionItHasSeen() {
        let future = 1_893_499_200.0  // 2030-01-01T12:00:00Z, a copy from a clock far ahead
        let copy = Self.version(Self.id, file: Self.copyName, editedAt: future, by: Self.b, activity: .walking, inode: 2)
        var c = HistoryCatalog()
        _ = c.put(Self.version(Self.id, editedAt: 100, activity: .cycling))
        _ = c.put(copy)
        expectEqual(c.listed[Self.id]?.activity, .walking, "by the clock until an edit")
        let lineage = c.lineage(of: Self.id)
        expectEqual(lineage, ["bbbbbb@2030-01-01T12:00:00.000Z", "aaaaaa@1970-01-01T00:01:40.000Z"])
        var edit = Self.version(Self.id, editedAt: 1_795_400_000, activity: .hiking, inode: 3)
        edit.revision?.replaces = lineage
        expectEqual(c.put(edit), [.conflict(Self.id, shown: HistoryFileName.of(Self.id), keptAside: [Self.copyName]), .changed(Self.id)])
        expectEqual(c.listed[Self.id]?.activity, .hiking)
        // Any order of arrival lists the edit.
        for order in [[edit, copy], [copy, edit]] { expectEqual(HistoryCatalog(order).listed[Self.id]?.activity, .hiking) }
        // A third version that neither replaces (written elsewhere without seeing the edit): the clock.
        let other = WorkoutID(start: 1_795_340_000, suffix: 1, machine: Self.a)
        let third = Self.version(other, file: String(HistoryFileName.of(other).dropLast(5)) + ".sync-conflict-20261201-101500-BBBBBB7.json",
                                 editedAt: 1_795_500_000, by: Self.b, activity: .rowing, inode: 4)
        expectEqual(HistoryCatalog([edit, copy, third]).listed[Self.id]?.activity, .rowing)
        expectEqual(HistoryCatalog([edit, third, copy]).listed[Self.id]?.activity, .rowing)
        // The replaces round-trip through the file's and the index's JSON.
        expectEqual(Revision(json: edit.revision!.json()), edit.revision)
        expectEqual(edit.revision!.key, "aaaaaa@2026-11-23T02:13:20.000Z")
    }

    @Test func whenThePreferredVersionGoesTheOtherIsListed() {
        var c = HistoryCatalog()
        _ = c.put(Self.version(Self.id, editedAt: 100, activity: .cycling))
        _ = c.put(Self.version(Self.id, file: Self.copyName, editedAt: 200, activity: .walking, inode: 2))
        expectEqual(c.remove(file: Self.copyName), [.changed(Self.id)])
        expectEqual(c.listed[Self.id]?.activity, .cycling)
        expectEqual(c.remove(file: HistoryFileName.of(Self.id)), [.unlisted(Self.id)])
        expectEqual(c.listed.count, 0)
        expectNil(c.file(of: Self.id))
    }

    // MARK: copies of one recording

    @Test func anImportOnTwoMachinesIsListedOnce() {
        let onA = WorkoutID(start: 1_795_340_000, suffix: 9, machine: Self.a)
        let onB = WorkoutID(start: 1_795_340_000, suffix: 4, machine: Self.b)
        let first = min(onA, onB), second = max(onA, onB)
        var c = HistoryCatalog()
        expectEqual(c.put(Self.version(second, editedAt: 1, imported: true)), [.listed(second)])
        expectEqual(c.put(Self.version(first, editedAt: 2, imported: true, inode: 2)), [.listed(first), .duplicateHidden(second, copyOf: first)])
        expectEqual(c.listed.count, 1)
        expectNotNil(c.listed[first])
        expectEqual(c.hidden, [second: first])
        expectEqual(Set(c.files(of: first)), [HistoryFileName.of(first), HistoryFileName.of(second)], "a delete takes both")
        // Deleting the listed one by another hand lists the copy until it goes too.
        expectEqual(c.remove(file: HistoryFileName.of(first)), [.unlisted(first), .listed(second)])
        expectEqual(c.remove(file: HistoryFileName.of(second)), [.unlisted(second)])
    }

    @Test func twoRecordingsInTheSameSecondAreBothListed() {
        // Two machines recording at the same moment (no fixes: treadmill) are two workouts.
        let onA = WorkoutID(start: 1_795_340_000, suffix: 9, machine: Self.a)
        let onB = WorkoutID(start: 1_795_340_000, suffix: 4, machine: Self.b)
        var c = HistoryCatalog()
        _ = c.put(Self.version(onA, editedAt: 1, accepted: 0))
        _ = c.put(Self.version(onB, editedAt: 1, accepted: 0, inode: 2))
        expectEqual(c.listed.count, 2)
        #expect(c.hidden.isEmpty)
    }

    @Test func theOrderOfArrivalDoesNotChangeWhatIsListed() {
        var rng = SeededRandom(seed: 11)
        var versions: [WorkoutVersion] = []
        for k in 0..<40 {
            let start = 1_795_340_000 + Double(k / 4) * 3600
            let id = WorkoutID(start: start, suffix: UInt16(k % 4), machine: k % 2 == 0 ? Self.a : Self.b)
            versions.append(Self.version(id, editedAt: Double(rng.next() % 5), by: k % 3 == 0 ? Self.a : Self.b, start: start,
                                         accepted: k % 3 == 0 ? 0 : 50, imported: k % 3 != 0, inode: k))
            if k % 5 == 0 {
                versions.append(Self.version(id, file: String(HistoryFileName.of(id).dropLast(5)) + ".sync-conflict-20261122-101500-X\(k).json",
                                             editedAt: Double(rng.next() % 5), by: Self.b, activity: .walking, start: start,
                                             accepted: k % 3 == 0 ? 0 : 50, imported: k % 3 != 0, inode: 1000 + k))
            }
        }
        let reference = HistoryCatalog(versions)
        for _ in 0..<50 {
            var shuffled = versions
            for i in shuffled.indices.reversed() { shuffled.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
            let c = HistoryCatalog(shuffled)
            var oneByOne = HistoryCatalog()  // as files arrive one at a time
            for v in shuffled { _ = oneByOne.put(v) }
            for built in [c, oneByOne] {
                expectEqual(built.listed.byID, reference.listed.byID)
                expectEqual(built.hidden, reference.hidden)
                for id in reference.listed.byID.keys { expectEqual(built.file(of: id), reference.file(of: id)) }
            }
        }
        #expect(reference.listed.count < 40 && reference.listed.count > 10)
    }

    // MARK: looking at the folder

    @Test func changesReadsNewAndChangedFilesAndDropsGoneOnes() {
        var c = HistoryCatalog()
        let kept = Self.version(Self.id, editedAt: 1)
        let other = WorkoutID(start: 1_795_400_000, suffix: 2)
        _ = c.put(kept)
        _ = c.put(Self.version(other, editedAt: 1, start: 1_795_400_000, inode: 5))
        _ = c.markUnreadable("bad.json", Self.stamp(9))
        let found = [HistoryFileName.of(Self.id): kept.stamp, "new.json": Self.stamp(7), "bad.json": Self.stamp(9)]
        let (read, gone) = c.changes(in: found)
        expectEqual(read, ["new.json"])
        expectEqual(gone, [HistoryFileName.of(other)])
        expectEqual(c.changes(in: [HistoryFileName.of(Self.id): Self.stamp(3), "bad.json": Self.stamp(10)]).read, [HistoryFileName.of(Self.id), "bad.json"])
    }
}
