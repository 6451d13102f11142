import Foundation
import Glibc
import Testing
import TestRequirements
import WorkoutCore
@testable import WorkoutDaemon
import WorkoutSystem

/// `../shared` beside the project root (real tracks): skipped without it, failing when CI=true.
private enum SharedData {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
        }
        return url.deletingLastPathComponent().appendingPathComponent("shared")
    }()
    static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }
}

/// The workout an import saved last is kept in memory for an export right after it: the
/// export is byte for byte what a daemon started afresh (a new store, reading the file) gives,
/// and an edit, a delete or a file changed on disk is never answered from memory.
@Suite(.requires(.sharedData))
struct RecentWorkoutTests {
    static func tempStore() throws -> (HistoryStore, Paths, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wrw.\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let paths = Paths(environment: ["HOME": dir, "XDG_DATA_HOME": dir + "/d", "XDG_STATE_HOME": dir + "/s", "XDG_RUNTIME_DIR": dir + "/r"])
        return (try HistoryStore(paths: paths, machine: MachineTag(rawValue: "test")!), paths, dir)
    }

    static func importFile(_ relative: String, into store: HistoryStore) -> [ImportBatch.Result] {
        let file = SharedData.url("data/" + relative).path
        let batch = ImportBatch(items: [ImportBatch.Item(source: .path(file), file: file, activity: nil, title: nil)], activity: nil, settings: MetricsSettings())
        var results: [ImportBatch.Result] = []
        _ = batch.run(store: store, stages: ImportStages(), cancel: CancelFlag()) { results += $0 }
        return results
    }

    static func exports(_ w: Workout) -> [ExportFormat: [UInt8]] {
        var out: [ExportFormat: [UInt8]] = [:]
        for f in ExportFormat.allCases where Exporter.refusal(w, f) == nil { out[f] = Exporter.bytes(w, f) }
        return out
    }

    /// An NMEA log, a FIT file with heart rate, a GPX and a TCX file: every export format of the
    /// workout just imported (served from memory) equals the one read from its file afresh.
    @Test func exportRightAfterImportEqualsAColdDaemons() throws {
        for relative in ["nmea/bundg_zeus_9.log", "fit/2019-02-17-062644-ELEMNT-297E-195-0.fit", "gpx/garmin-edge-800-output.gpx", "tcx/bike.tcx"] {
            let (store, paths, dir) = try Self.tempStore()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let results = Self.importFile(relative, into: store)
            guard let id = results.last?.id, results.last?.kind == .imported else { Issue.record("\(relative): \(results)"); continue }
            #expect(store.recent.withLock { $0?.id } == id, "\(relative): kept in memory")
            let warm = try store.load(id)
            let again = try store.load(id)  // the second use: already in its saved form
            let cold = try HistoryStore(paths: paths, machine: MachineTag(rawValue: "test")!).load(id)
            #expect(store.recent.withLock { $0?.id } == id)
            let coldExports = Self.exports(cold)
            #expect(!coldExports.isEmpty)
            #expect(Self.exports(warm) == coldExports, "\(relative): exports from memory differ from a cold daemon's")
            #expect(Self.exports(again) == coldExports, "\(relative)")
            #expect(WorkoutFile.encode(warm) == WorkoutFile.encode(cold), "\(relative): native bytes")
        }
    }

    /// Edit (replace), delete, undelete and a file rewritten by hand: never answered from memory.
    @Test func changesAreNeverAnsweredFromMemory() throws {
        let (store, paths, dir) = try Self.tempStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        guard let id = Self.importFile("gpx/garmin-edge-800-output.gpx", into: store).last?.id else { Issue.record("not imported"); return }
        // Edited: the new activity, from the file written by the edit.
        let old = try store.load(id)
        let edited = Importer.edited(old, activity: .walking, settings: MetricsSettings())
        try store.replace(edited)
        #expect(store.recent.withLock { $0 } == nil)
        #expect(try store.load(id).activity == .walking)
        #expect(try HistoryStore(paths: paths, machine: MachineTag(rawValue: "test")!).load(id).activity == .walking)

        // A file changed on disk after the import: the file's content is what load gives.
        let (store2, _, dir2) = try Self.tempStore()
        defer { try? FileManager.default.removeItem(atPath: dir2) }
        guard let id2 = Self.importFile("gpx/garmin-edge-800-output.gpx", into: store2).last?.id else { Issue.record("not imported"); return }
        var onDisk = try WorkoutFile.decode(try readFile(store2.path(of: id2)))
        onDisk.source = "changed by hand"
        try AtomicFile.write(WorkoutFile.encode(onDisk), to: store2.path(of: id2))
        #expect(try store2.load(id2).source == "changed by hand")

        // Deleted: not found (the file is in the trash), whatever memory held.
        guard let id3 = Self.importFile("tcx/bike.tcx", into: store2).last?.id else { Issue.record("not imported"); return }
        #expect(store2.recent.withLock { $0?.id } == id3)
        try store2.delete(id3)
        #expect(store2.recent.withLock { $0 } == nil)
        #expect(throws: (any Error).self) { try store2.load(id3) }
        try store2.undelete(id3)
        #expect(try store2.load(id3).source.hasPrefix("imported:bike.tcx"))
    }

    /// The worker's idle hook drops it.
    @Test func forgottenWhenTheWorkerIdles() throws {
        let (store, _, dir) = try Self.tempStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let worker = BulkWorker(idleSeconds: 1) { store.forgetRecent() }
        let done = DispatchSemaphore(value: 0)
        worker.async {
            _ = Self.importFile("gpx/garmin-edge-800-output.gpx", into: store)
            done.signal()
        }
        done.wait()
        #expect(store.recent.withLock { $0 } != nil)
        pollUntil(seconds: 10, every: 0.05) { store.recent.withLock { $0 } == nil }
        #expect(store.recent.withLock { $0 } == nil)
    }
}
