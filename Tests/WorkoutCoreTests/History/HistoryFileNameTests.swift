import Testing
@testable import WorkoutCore

/// Names in the history folder: saved workouts, sync conflict copies, files still being written.
struct HistoryFileNameTests {
    let id = WorkoutID(rawValue: "20261121T093000Z-3f9a-k3m9xa")!

    @Test func savedWorkout() {
        expectEqual(HistoryFileName("20261121T093000Z-3f9a-k3m9xa.json"), .workout(id))
        expectEqual(HistoryFileName("20261121T093000Z-3f9a.json"), .workout(WorkoutID(rawValue: "20261121T093000Z-3f9a")!))
        expectEqual(HistoryFileName("20261121T093000Z-3f9a-k3m9xa.json").workoutID, id)
    }

    @Test func syncthingConflictCopy() {
        let name = HistoryFileName("20261121T093000Z-3f9a-k3m9xa.sync-conflict-20261122-101500-ABCDEF7.json")
        guard case .conflictCopy(let c) = name else { Issue.record("\(name)"); return }
        expectEqual(c.id, id)
        expectEqual(c.stamp, "20261122-101500")
        expectEqual(c.device, "ABCDEF7")
        expectEqual(name.workoutID, id)
    }

    @Test func aCopyOfACopyIsACopyOfTheWorkout() {
        let name = HistoryFileName("20261121T093000Z-3f9a.sync-conflict-20261122-101500-ABCDEF7.sync-conflict-20261123-080000-ZZZZZZZ.json")
        guard case .conflictCopy(let c) = name else { Issue.record("\(name)"); return }
        expectEqual(c.id.rawValue, "20261121T093000Z-3f9a")
        expectEqual(c.stamp, "20261122-101500")
    }

    @Test(arguments: [
        "20261121T093000Z-3f9a.sync-conflict-2026112-101500-ABCDEF7.json",   // 7-digit date
        "20261121T093000Z-3f9a.sync-conflict-20261122-1015-ABCDEF7.json",    // short time
        "20261121T093000Z-3f9a.sync-conflict-20261122-101500-.json",         // no device
        "20261121T093000Z-3f9a.sync-conflict-20261122-101500-AB/C.json",     // not a name
        "20261121T093000Z-3f9a.sync-conflict-20261122-101500-ABCDEF7.gpx",   // not a workout file
        "bad id!.sync-conflict-20261122-101500-ABCDEF7.json",
        "notes.txt", ".stfolder", ".stignore", "index.jsonl", ".json", "a.b.json",
    ])
    func unrelatedNames(_ name: String) {
        expectEqual(HistoryFileName(name), .unrelated, "\(name)")
        expectNil(HistoryFileName(name).workoutID)
    }

    @Test(arguments: [
        ".syncthing.20261121T093000Z-3f9a.json.tmp",
        "~syncthing~20261121T093000Z-3f9a.json.tmp",
        "20261121T093000Z-3f9a.json.tmp-4242",
        "20261121T093000Z-3f9a.json.tmp-import",
    ])
    func filesStillBeingWritten(_ name: String) {
        expectEqual(HistoryFileName(name), .inFlight, "\(name)")
        #expect(HistoryFileName.isInFlight(name))
        #expect(!ImportFolderFile.isImportable(name))
    }

    /// The byte matcher finds `.tmp-` exactly where `String.contains` does, on every name made
    /// of three pieces among the marker's prefixes and other text: each partial match followed
    /// by another partial or a whole one, and multi-byte letters around them.
    @Test func temporaryMarkerMatchesWhereContainsDoes() {
        let pieces = ["", ".", ".t", ".tm", ".tmp", ".tmp-", "x", "é", "-", "p", "tmp-", "..", "ü.t"]
        var mismatches: [String] = []
        var found = 0
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let name = a + b + c
                    let expected = name.contains(".tmp-")
                    if expected { found += 1 }
                    if HistoryFileName.hasTemporaryMarker(name) != expected { mismatches.append(name) }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        expectGreater(found, 100)  // the set holds names with the marker, not only names without
    }

    @Test func ownFileName() {
        expectEqual(HistoryFileName.of(id), "20261121T093000Z-3f9a-k3m9xa.json")
    }
}

/// Which files an import folder imports.
struct ImportFolderFileTests {
    @Test(arguments: ["run.gpx", "Ride.TCX", "2026-11-21-09-30-00.FIT", "a.fit.gz", "b.GPX.GZ", "x y.tcx"])
    func tracks(_ name: String) { #expect(ImportFolderFile.isImportable(name), "\(name)") }

    @Test(arguments: [
        "run.gpx.part", "run.gpx.crdownload", "run.fit.download", "run.tcx.tmp", "Unconfirmed 123.crdownload",
        "._2026-11-21.fit", ".hidden.gpx", ".syncthing.run.gpx.tmp", "~syncthing~run.gpx.tmp",
        "notes.txt", "track.nmea", "fit", ".fit", "archive.gz", "run.gpx.bak", "run.fitx",
    ])
    func notTracks(_ name: String) { #expect(!ImportFolderFile.isImportable(name), "\(name)") }
}
