import Glibc
import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// `StartupIndex`: what start-up reads instead of the index, used only while it is the index's
/// own (stale, damaged or missing: the index is read), and the same answers either way.
@Suite(.serialized) struct StartupIndexTests {
    /// A history in a short temp dir.
    final class Rig {
        let dir: String
        let paths: Paths
        static let here = MachineTag(rawValue: "here00")!

        init() {
            var template = Array("/tmp/si.XXXXXX".utf8CString)
            dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
            paths = Paths(environment: ["HOME": dir, "XDG_DATA_HOME": dir + "/d", "XDG_STATE_HOME": dir + "/s", "XDG_RUNTIME_DIR": dir + "/r"])
        }

        deinit { _ = system("rm -rf '\(dir)'") }

        /// The store a daemon starting now opens.
        func open() throws -> HistoryStore { try HistoryStore(paths: paths, machine: Rig.here) }

        static func workout(_ start: Double, activity: ActivityType, seconds: Double, meters: Double, suffix: UInt16) -> Workout {
            var s = WorkoutSummary(id: WorkoutID(start: start, suffix: suffix, machine: here), activity: activity, startedAt: start, endedAt: start + seconds)
            s.elapsedSeconds = seconds
            s.distanceMeters = meters
            return Workout(summary: s)
        }

        /// Saves `count` workouts a day apart, of every activity in turn.
        func save(_ count: Int, into store: HistoryStore, from start: Double = 1_790_000_000) throws -> [Workout] {
            let cases = ActivityType.allCases
            return try (0..<count).map { k in
                let w = Rig.workout(start + Double(k) * 86_400, activity: cases[k % cases.count], seconds: 600 + Double(k), meters: 1000.5 * Double(k),
                                    suffix: UInt16(k))
                try store.save(w)
                return w
            }
        }
    }

    /// Whether `store` has read its index (it answers start-up's questions without it while not).
    static func hasRead(_ store: HistoryStore) -> Bool {
        switch store.phase.withLock({ $0 }) {
        case .reading: return false
        case .loaded: return true
        }
    }

    /// What the catalog says start-up needs.
    static func fromCatalog(_ store: HistoryStore) -> [StreakWorkout] { store.summaries { StreakWorkout($0, utcOffset: nil) } }

    @Test func bytesReadBackAsWrittenAndAnythingElseIsRefused() throws {
        let stamp = FileStamp(inode: 77, size: 123_456, modifiedSeconds: 1_790_000_000, modifiedNanoseconds: 999_999_999)
        var workouts = ActivityType.allCases.enumerated().map { k, a in
            StreakWorkout(startedAt: 1_790_000_000.125 + Double(k), durationSeconds: 0.1 * Double(k), activity: a, distanceMeters: 1e-3 * Double(k))
        }
        workouts.append(StreakWorkout(startedAt: -1.5, durationSeconds: 0, activity: nil, distanceMeters: 0))
        let index = StartupIndex(indexStamp: stamp, workouts: workouts)
        let bytes = index.encoded()
        #expect(bytes.count == StartupIndex.headerSize + workouts.count * StartupIndex.recordSize)
        #expect(StartupIndex(decoding: bytes) == index)
        #expect(StartupIndex(decoding: StartupIndex(indexStamp: stamp, workouts: []).encoded()) == StartupIndex(indexStamp: stamp, workouts: []))
        for cut in 0..<bytes.count { #expect(StartupIndex(decoding: Array(bytes[..<cut])) == nil, "cut at \(cut)") }
        #expect(StartupIndex(decoding: bytes + [0]) == nil)
        var magic = bytes
        magic[7] ^= 1
        #expect(StartupIndex(decoding: magic) == nil)
        var activity = bytes
        activity[StartupIndex.headerSize + 24] = UInt8(ActivityType.allCases.count)
        #expect(StartupIndex(decoding: activity) == nil)
        var notFinite = bytes
        withUnsafeBytes(of: Double.nan.bitPattern.littleEndian) { for (k, b) in $0.enumerated() { notFinite[StartupIndex.headerSize + k] = b } }
        #expect(StartupIndex(decoding: notFinite) == nil)
    }

    @Test func aStartAfterAStopAnswersFromItAndReadsTheIndexOnlyWhenAsked() throws {
        let rig = Rig()
        let first = try rig.open()
        let saved = try rig.save(30, into: first)
        try first.delete(saved[3].id)
        first.writeStartupIndexIfStale()  // the daemon's stop
        let expected = Self.fromCatalog(first)
        #expect(expected.count == 29)

        let restarted = try rig.open()
        #expect(restarted.count == 29)
        #expect(restarted.streakWorkouts() == expected)
        #expect(!Self.hasRead(restarted), "start-up's questions did not read the index")
        // Anything else reads it, and the answers agree.
        #expect(restarted.list(ListFilter()).count == 29)
        #expect(Self.hasRead(restarted))
        #expect(restarted.streakWorkouts() == expected)
        #expect(restarted.streakWorkouts(excluding: saved[0].id) == Array(expected.dropFirst()))
        #expect(restarted.count == 29)
    }

    @Test func aChangedIndexMakesItStaleUntilWrittenAgain() throws {
        let rig = Rig()
        let first = try rig.open()
        _ = try rig.save(5, into: first)
        first.writeStartupIndexIfStale()
        let index = try readFile(rig.paths.startupIndexFile)
        _ = try rig.save(2, into: first, from: 1_800_000_000)  // appended after it was written (a crash: no stop)

        let second = try rig.open()
        #expect(!Self.hasRead(second))
        #expect(second.count == 7, "stale: the index was read")
        #expect(Self.hasRead(second))
        #expect(second.streakWorkouts() == Self.fromCatalog(second))
        second.writeStartupIndexIfStale()
        #expect(try readFile(rig.paths.startupIndexFile) != index, "written anew")

        let third = try rig.open()
        #expect(third.count == 7)
        #expect(third.streakWorkouts() == Self.fromCatalog(second))
        #expect(!Self.hasRead(third))
        // Nothing changed since: a stop writes nothing and reads nothing.
        third.writeStartupIndexIfStale()
        #expect(!Self.hasRead(third))
    }

    @Test func aDamagedOrMissingOneIsIgnoredAndRebuilt() throws {
        let rig = Rig()
        let first = try rig.open()
        _ = try rig.save(12, into: first)
        first.writeStartupIndexIfStale()
        let expected = Self.fromCatalog(first)
        var bytes = try readFile(rig.paths.startupIndexFile)
        bytes.removeLast(5)  // torn
        try AtomicFile.write(bytes, to: rig.paths.startupIndexFile)
        let damaged = try rig.open()
        #expect(damaged.count == 12)
        #expect(Self.hasRead(damaged))
        damaged.writeStartupIndexIfStale()
        #expect(StartupIndex(decoding: try readFile(rig.paths.startupIndexFile))?.workouts == expected)

        unlink(rig.paths.startupIndexFile)
        let missing = try rig.open()
        #expect(missing.streakWorkouts() == expected)
        #expect(Self.hasRead(missing))
        missing.writeStartupIndexIfStale()
        #expect(!Self.hasRead(try rig.open()))

        // The index rewritten whole (same lines, a new file): stale.
        try AtomicFile.write(try readFile(rig.paths.indexFile), to: rig.paths.indexFile)
        let rewritten = try rig.open()
        #expect(rewritten.count == 12)
        #expect(Self.hasRead(rewritten))
    }

    @Test func aConflictCopyIsCountedOnceAsTheCatalogListsIt() throws {
        let rig = Rig()
        let first = try rig.open()
        var w = try rig.save(2, into: first)[1]
        // Another machine's newer edit, kept aside by a sync engine, applied as the sync finds it.
        w.summary.activity = .walking
        w.summary.distanceMeters = 4321
        let copy = String(HistoryFileName.of(w.id).dropLast(5)) + ".sync-conflict-20261122-101500-ABCDEF7.json"
        try AtomicFile.write(WorkoutFile.encode(w, revision: Revision(editedAt: SystemClock().wall() + 60, machine: MachineTag(rawValue: "other1")!, host: "pi")),
                             to: rig.paths.workoutsDir + "/" + copy)
        _ = first.apply(HistorySync.observe([copy], in: rig.paths.workoutsDir))
        #expect(first.count == 2)
        first.writeStartupIndexIfStale()

        let restarted = try rig.open()
        #expect(restarted.count == 2)
        let workouts = restarted.streakWorkouts()
        #expect(!Self.hasRead(restarted))
        #expect(workouts.last?.activity == .walking && workouts.last?.distanceMeters == 4321, "the listed version's")
        #expect(workouts == Self.fromCatalog(first))
    }
}
