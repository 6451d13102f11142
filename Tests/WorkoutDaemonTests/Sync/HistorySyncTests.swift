import Glibc
import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// The history folder followed while files arrive, change and vanish by another hand (what a
/// sync engine does), on a real loop with real inotify, in a short temp dir.
@Suite(.serialized) struct HistorySyncTests {
    /// A store and its sync service on a loop; the log events it reported.
    final class Rig {
        let loop: EventLoop
        let dir: String
        let paths: Paths
        let store: HistoryStore
        var sync: HistorySync!
        var logged: [SyncLogEvent] = []
        static let other = MachineTag(rawValue: "other1")!

        init() throws {
            loop = try EventLoop()
            var template = Array("/tmp/hs.XXXXXX".utf8CString)
            dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
            paths = Paths(environment: ["HOME": dir, "XDG_DATA_HOME": dir + "/d", "XDG_STATE_HOME": dir + "/s", "XDG_RUNTIME_DIR": dir + "/r"])
            store = try HistoryStore(paths: paths, machine: MachineTag(rawValue: "here00")!)
            sync = HistorySync(loop: loop, store: store) { [weak self] in self?.logged += $0 }  // stop() in deinit reports
        }

        deinit {
            sync.stop()
            _ = system("rm -rf '\(dir)'")
        }

        /// Runs the loop until `condition` holds (checked every 20 ms) or `seconds` pass.
        @discardableResult
        func run(until seconds: Double = 10, _ condition: @escaping () -> Bool) -> Bool {
            var met = condition()
            guard !met else { return true }
            let timer = loop.every(0.02) { [loop] in if condition() { met = true; loop.stop() } }
            loop.after(seconds) { [loop] in loop.stop() }
            try? loop.run()
            timer.cancel()
            return met
        }

        /// A workout as another machine writes it: under a sync engine's temporary name, then
        /// renamed into place.
        func arrive(_ w: Workout, editedAt: Double, name: String? = nil) throws {
            let file = name ?? HistoryFileName.of(w.id)
            let tmp = paths.workoutsDir + "/.syncthing." + file + ".tmp"
            let bytes = WorkoutFile.encode(w, revision: Revision(editedAt: editedAt, machine: Rig.other, host: "pi"))
            try AtomicFile.write(bytes, to: tmp)
            #expect(rename(tmp, paths.workoutsDir + "/" + file) == 0)
        }

        static func workout(_ start: Double, activity: ActivityType = .running, points: Int = 5, suffix: UInt16 = 1,
                            source: String = "recorded") -> Workout {
            let id = WorkoutID(start: start, suffix: suffix, machine: other)
            var s = WorkoutSummary(id: id, activity: activity, startedAt: start, endedAt: start + 600)
            s.elapsedSeconds = 600
            s.pointCount = points
            s.acceptedCount = points
            let pts = (0..<points).map { k in TrackPoint(fix: Fix(time: start + Double(k), latitude: 48, longitude: 11 + Double(k) * 1e-4, mode: .threeD), rejection: nil, segment: 0) }
            return Workout(summary: s, points: pts, source: source)
        }
    }

    @Test func aWorkoutArrivingIsListedWithoutARestart() throws {
        let rig = try Rig()
        rig.sync.start()
        let w = Rig.workout(1_795_340_000)
        try rig.arrive(w, editedAt: 1_795_340_700)
        #expect(rig.run { rig.store.summary(w.id) != nil }, "listed")
        // Logged after a second (arrivals within it are counted together).
        #expect(rig.run { rig.logged.contains { if case .arrived(let id, let host) = $0 { return id == w.id.rawValue && host == "pi" } else { return false } } })
        // Its revision is kept; what `list` shows comes from the file.
        #expect(rig.store.loaded.state.withLock { $0.versions[HistoryFileName.of(w.id)]?.revision?.machine } == Rig.other)
        #expect(try rig.store.load(w.id).points.count == 5)
    }

    /// Regression: a service stopped and released within a second of a change (a SIGTERM just
    /// after a save) was reached later through an unowned reference by its pending timers: the
    /// daemon aborted at shutdown (ShutdownTests saw exit status 6 once).
    @Test func stoppingRightAfterAChangeIsSafe() throws {
        let rig = try Rig()
        var sync: HistorySync? = HistorySync(loop: rig.loop, store: rig.store) { _ in }
        sync?.start()
        try rig.arrive(Rig.workout(1_795_340_000), editedAt: 1)
        var waited = false
        rig.loop.after(0.05) { sync?.stop(); sync = nil }  // events read, their timer pending
        rig.run(until: 1.5) { waited = true; return false }
        #expect(waited && sync == nil)
    }

    @Test func aFileStillBeingWrittenIsNotReadUntilItIsWhole() throws {
        let rig = try Rig()
        rig.sync.start()
        let w = Rig.workout(1_795_340_000)
        let bytes = WorkoutFile.encode(w, revision: Revision(editedAt: 1, machine: Rig.other, host: "pi"))
        let path = rig.paths.workoutsDir + "/" + HistoryFileName.of(w.id)
        // Copied in place by hand, cut short (closed: inotify reports it).
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, bytes.count / 2) }
        close(fd)
        // A sync engine's temporary file is never read.
        try AtomicFile.write(bytes, to: rig.paths.workoutsDir + "/~syncthing~other.json.tmp")
        rig.run(until: 0.6) { false }
        #expect(rig.store.count == 0)
        #expect(rig.logged.isEmpty, "a file being written is not an error: \(rig.logged)")
        // The rest arrives: listed.
        let fd2 = open(path, O_WRONLY | O_APPEND)
        _ = bytes.withUnsafeBytes { write(fd2, $0.baseAddress! + bytes.count / 2, bytes.count - bytes.count / 2) }
        close(fd2)
        #expect(rig.run { rig.store.summary(w.id) != nil })
    }

    @Test func anEditAndADeleteByAnotherHandAreFollowed() throws {
        let rig = try Rig()
        let w = Rig.workout(1_795_340_000)
        try rig.store.save(w)
        rig.sync.start()
        var edited = w
        edited.summary.activity = .walking
        try rig.arrive(edited, editedAt: SystemClock().wall() + 5)
        #expect(rig.run { rig.store.summary(w.id)?.activity == .walking }, "the edit shows")
        #expect(rig.run { rig.logged.contains { if case .changed(let id, _) = $0 { return id == w.id.rawValue } else { return false } } })
        #expect(unlink(rig.paths.workoutsDir + "/" + HistoryFileName.of(w.id)) == 0)
        #expect(rig.run { rig.store.summary(w.id) == nil }, "the delete shows")
        #expect(rig.run { rig.logged.contains { if case .removed(let id) = $0 { return id == w.id.rawValue } else { return false } } })
    }

    /// Issue 30: deleted here while edited on another machine; the sync engine brings the edit
    /// back. The edit is listed (nothing lost) and logged as a delete overridden, not as a new
    /// arrival; the same version coming back (an undelete by hand) is an arrival.
    @Test func anEditElsewhereWinsOverADeleteHere() throws {
        let rig = try Rig()
        let w = Rig.workout(1_795_340_000, activity: .cycling)
        try rig.store.save(w)
        rig.sync.start()
        try rig.store.delete(w.id)
        #expect(rig.store.count == 0)
        var edited = w
        edited.summary.activity = .mountainBiking
        try rig.arrive(edited, editedAt: SystemClock().wall() + 5)
        #expect(rig.run { rig.store.summary(w.id)?.activity == .mountainBiking }, "the edit is listed")
        #expect(rig.run { rig.logged.contains { if case .deleteOverridden(let id, let host) = $0 { return id == w.id.rawValue && host == "pi" } else { return false } } },
                "\(rig.logged)")
        #expect(!rig.logged.contains { if case .arrived = $0 { return true } else { return false } })
        #expect(try rig.store.load(w.id).activity == .mountainBiking)
    }

    @Test func ownSavesAreNotReportedAsArrivals() throws {
        let rig = try Rig()
        rig.sync.start()
        let w = Rig.workout(1_795_340_000)
        try rig.store.save(w)
        var edited = w
        edited.summary.activity = .hiking
        try rig.store.replace(edited)
        try rig.store.delete(w.id)
        rig.run(until: 0.5) { false }
        rig.sync.rescan()
        rig.sync.drain()
        rig.run(until: 0.1) { false }
        #expect(rig.logged.isEmpty, "\(rig.logged)")
    }

    @Test func aSyncConflictListsTheNewerEditOnceAndKeepsTheOtherAside() throws {
        let rig = try Rig()
        var w = Rig.workout(1_795_340_000, activity: .cycling)
        try rig.store.save(w)  // edited here now
        rig.sync.start()
        w.summary.activity = .walking
        let copy = String(HistoryFileName.of(w.id).dropLast(5)) + ".sync-conflict-20261122-101500-ABCDEF7.json"
        try rig.arrive(w, editedAt: SystemClock().wall() + 60, name: copy)  // the other machine's edit is newer
        #expect(rig.run { rig.store.summary(w.id)?.activity == .walking })
        #expect(rig.store.count == 1)
        #expect(rig.store.list(ListFilter()).map(\.id) == [w.id])
        #expect(try rig.store.load(w.id).activity == .walking, "show reads the listed version")
        #expect(rig.logged.contains { if case .conflict(let id, let shown, let aside, _) = $0 {
            return id == w.id.rawValue && shown == copy && aside == [HistoryFileName.of(w.id)] } else { return false } })
        // Deleting it moves both versions: none comes back in its place.
        try rig.store.delete(w.id)
        #expect(rig.store.count == 0)
        #expect(access(rig.paths.trashDir + "/" + copy, F_OK) == 0)
        rig.sync.rescan()
        rig.sync.drain()
        rig.run(until: 0.2) { false }
        #expect(rig.store.count == 0)
    }

    /// Regression: the start-up check compared names only, so a workout edited on another
    /// machine while this daemon was down kept its old summary until it was saved again.
    @Test func aFileChangedWhileTheDaemonWasDownIsReadAgain() throws {
        let rig = try Rig()
        var w = Rig.workout(1_795_340_000, activity: .cycling)
        try rig.store.save(w)
        w.summary.activity = .rowing
        try rig.arrive(w, editedAt: SystemClock().wall() + 5)  // no sync service running: unseen
        let restarted = try HistoryStore(paths: rig.paths, machine: MachineTag(rawValue: "here00")!)
        #expect(restarted.summary(w.id)?.activity == .cycling, "the index as it was")
        let sync = HistorySync(loop: rig.loop, store: restarted) { _ in }
        sync.start()
        defer { sync.stop() }
        #expect(rig.run { restarted.summary(w.id)?.activity == .rowing })
    }

    @Test func aRescanFindsWhatNoEventReported() throws {
        let rig = try Rig()
        let w = Rig.workout(1_795_340_000)
        try rig.arrive(w, editedAt: 1)
        rig.sync.rescan()  // not started: no inotify, as on a network file system
        rig.sync.drain()
        #expect(rig.store.summary(w.id) != nil)
    }

    @Test func theSameImportOnTwoMachinesIsListedOnce() throws {
        let rig = try Rig()
        rig.sync.start()
        let mine = Rig.workout(1_795_340_000, points: 30, suffix: 9, source: "imported:run.gpx")
        try rig.store.save(mine)
        var theirs = Rig.workout(1_795_340_000.4, points: 30, suffix: 2, source: "imported:run.gpx")
        theirs.summary.id = WorkoutID(start: 1_795_340_000, suffix: 2, machine: MachineTag(rawValue: "zzzzzz")!)
        try rig.arrive(theirs, editedAt: 2)
        #expect(rig.run { rig.logged.contains { if case .duplicateHidden = $0 { return true } else { return false } } })
        #expect(rig.store.count == 1)
        let listed = min(mine.id, theirs.id)
        #expect(rig.store.summary(listed) != nil, "the smaller ID is listed, on every machine alike")
    }

    @Test func anIndexLeftInTheHistoryFolderIsTakenOver() throws {
        let rig = try Rig()
        let w = Rig.workout(1_795_340_000)
        try rig.store.save(w)
        // As versions before historyDir kept it: in the data directory, one summary a line.
        var compact = w.summary
        compact.splits = []; compact.laps = []
        try AtomicFile.write(Array((#"{"put":"# + compact.json().serialized() + "}\n").utf8), to: rig.paths.legacyIndexFile)
        unlink(rig.paths.indexFile)
        let restarted = try HistoryStore(paths: rig.paths, machine: MachineTag(rawValue: "here00")!)
        #expect(restarted.summary(w.id) != nil)
        restarted.compactIndexIfLarge()  // on the sync queue after the first look
        #expect(access(rig.paths.legacyIndexFile, F_OK) != 0, "no index left in a folder other machines share")
        let text = String(decoding: try readFile(rig.paths.indexFile), as: UTF8.self)
        #expect(text.contains("\"stamp\""), "stamped from its file: \(text)")
        // Nothing to read again at the first look: the stamps are the files'.
        #expect(restarted.changes(in: HistorySync.scan(rig.paths.workoutsDir) ?? [:]).read.isEmpty)
    }

    /// Regression: a daemon stopped within a second of its first start after an upgrade left
    /// the old index in the history folder, so every later start stamped every workout file
    /// again (`workoutbench startup`, 10,000 workouts: 56 -> 540 ms). Stopping the follower
    /// right after its start now leaves the index written, stamped, and the old one gone.
    @Test func stoppingAtOnceStillTakesTheOldIndexOver() throws {
        let rig = try Rig()
        var lines = ""
        for k in 0..<1000 {  // files written as a sync engine leaves them (no fsync: fast)
            let w = Rig.workout(1_795_340_000 + Double(k) * 3600)
            let f = fopen(rig.paths.workoutsDir + "/" + HistoryFileName.of(w.id), "w")
            let bytes = WorkoutFile.encode(w)
            _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
            fclose(f)
            var compact = w.summary
            compact.splits = []; compact.laps = []
            lines += #"{"put":"# + compact.json().serialized() + "}\n"
        }
        try AtomicFile.write(Array(lines.utf8), to: rig.paths.legacyIndexFile)
        unlink(rig.paths.indexFile)
        let restarted = try HistoryStore(paths: rig.paths, machine: MachineTag(rawValue: "here00")!)
        #expect(restarted.count == 1000)
        let sync = HistorySync(loop: rig.loop, store: restarted) { _ in }
        sync.start()
        sync.stop()  // before the queue got far: a stop right after the start
        #expect(access(rig.paths.legacyIndexFile, F_OK) != 0, "the old index is gone")
        let again = try HistoryStore(paths: rig.paths, machine: MachineTag(rawValue: "here00")!)
        #expect(again.count == 1000)
        #expect(again.loaded.indexLines.withLock { !$0.rewrite }, "the next start has nothing to take over or stamp")
        #expect(again.changes(in: HistorySync.scan(rig.paths.workoutsDir) ?? [:]).read.isEmpty, "and reads no file at its first look")
        sync.drain()
    }
}
