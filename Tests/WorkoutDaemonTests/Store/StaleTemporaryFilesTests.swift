import Foundation
import Glibc
import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// Issue 27 item 8: a kill during a save leaked its temporary file (`ID.json.tmp-PID`, 40 MiB)
/// for good. Start-up (the store's init) removes stale ones: only ours, only stale.
@Suite struct StaleTemporaryFilesTests {
    @Test func startUpRemovesOnlyOurStaleTemporaryFiles() throws {
        let dir = JournalTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let paths = Paths(environment: ["HOME": dir, "XDG_DATA_HOME": dir + "/d", "XDG_STATE_HOME": dir + "/s", "XDG_RUNTIME_DIR": dir + "/r"])
        _ = try HistoryStore(paths: paths, machine: MachineTag(rawValue: "test")!)
        let gone: pid_t = 4_194_305  // above pid_max: never a live process
        #expect(kill(gone, 0) != 0 && errno == ESRCH)
        let stale = [
            paths.workoutsDir + "/20261126T010203Z-0001.json.tmp-\(gone)",  // its process is gone
            paths.workoutsDir + "/20261126T010203Z-0002.json.tmp-\(getpid())",  // this very process: a reused number
            paths.workoutsDir + "/20261126T010203Z-0003.json.tmp-1",  // pid 1 is not a workoutd
            paths.workoutsDir + "/20261126T010203Z-0004.json.tmp-import",  // an import's, at start-up
            paths.indexFile + ".tmp-\(gone)",
            paths.machineFile + ".tmp-\(gone)",  // the machine tag's, written once by AtomicFile
        ]
        let kept = [
            paths.workoutsDir + "/notes.txt.tmp-\(gone)",  // not a name of ours
            paths.workoutsDir + "/20261126T010203Z-0005.json.tmp-abc",
            paths.workoutsDir + "/.json.tmp-\(gone)",
            paths.dataDir + "/other.jsonl.tmp-\(gone)",
            paths.trashDir + "/20261126T010203Z-0006.json.tmp-\(gone)",  // not a directory we write temporaries in
        ]
        for p in stale + kept { try Data(repeating: 7, count: 1000).write(to: URL(fileURLWithPath: p)) }
        // A symlink with our name is not a regular file of ours: left alone.
        let link = paths.workoutsDir + "/20261126T010203Z-0007.json.tmp-\(gone)"
        #expect(symlink("/etc/hostname", link) == 0)

        let store = try HistoryStore(paths: paths, machine: MachineTag(rawValue: "test")!)
        #expect(Set(store.removedAtStartup.files) == Set(stale))
        #expect(store.removedAtStartup.bytes == 6000)
        for p in stale { #expect(access(p, F_OK) != 0, "\(p) removed") }
        for p in kept + [link] {
            var st = stat()
            #expect(lstat(p, &st) == 0, "\(p) kept")
        }
        #expect(store.count == 0)
    }
}
