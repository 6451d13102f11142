import Foundation
import Glibc
import Testing
import WorkoutCore
@testable import WorkoutDaemon
import WorkoutSystem

/// The daemon's import of one file with several workouts: a multisport FIT file (run,
/// transition, bike) written with our FITEncoder becomes one workout per session, the
/// transition dropped (docs/formats.md), with one result per workout.
@Suite struct ImportBatchTests {
    typealias F = FITEncoder.FieldDefinition
    static let t0: Int64 = 1_000_000_000  // FIT seconds: 2021-09-08

    /// Records 1 s apart moving north ~11 m/s; sessions (sport, first record, last record).
    static func multisport(records n: Int, sessions: [(sport: Int64, from: Int, to: Int)]) -> [UInt8] {
        var e = FITEncoder()
        e.define(local: 0, global: 0, [F(0, .enumeration), F(1, .uint16)])
        e.message(local: 0, [4, 255])
        e.define(local: 1, global: 20, [F(253, .uint32), F(0, .sint32), F(1, .sint32), F(3, .uint8)])
        for i in 0..<n { e.message(local: 1, [t0 + Int64(i), 600_000_000 + Int64(i) * 1200, 100_000_000, 120 + Int64(i % 5)]) }
        e.define(local: 2, global: 18, [F(253, .uint32), F(2, .uint32), F(5, .enumeration), F(7, .uint32), F(8, .uint32)])
        for s in sessions {
            e.message(local: 2, [t0 + Int64(s.to), t0 + Int64(s.from), s.sport, Int64(s.to - s.from) * 1000, Int64(s.to - s.from) * 1000])
        }
        return e.file()
    }

    /// A passed descriptor is the batch's to close, whatever becomes of it: refused before
    /// any read (a FIFO), kept open for a FIT file's streaming import, read whole otherwise.
    /// Issue 27 item 12: an eventfd (no file type) was refused as "not a regular file, not a
    /// regular file: refused".
    @Test func anEventfdIsNamedOnce() throws {
        // eventfd(2) is not in the Glibc module: a copy of one of the process's own (Dispatch's).
        _ = DispatchQueue.global().sync { 0 }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let anon = names.compactMap(Int32.init).first { n in
            ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(n)")) ?? "").hasPrefix("anon_inode:")
        }
        let fd = fcntl(try #require(anon, "no anonymous descriptor in \(names)"), F_DUPFD_CLOEXEC, 0)
        try #require(fd >= 0)
        let decoded = ImportBatch.decode(ImportBatch.Item(source: .descriptor(fd), file: "x.gpx"))
        guard case .failed(let why) = decoded else { Issue.record("not refused: \(decoded)"); return }
        #expect(why.contains("an anonymous descriptor (an eventfd") && why.contains("not a regular file"), "\(why)")
        #expect(why.components(separatedBy: "not a regular file").count == 2, "said once: \(why)")
        // The same words from the shared file reader (journal, config, path imports): it said
        // "x is not a regular file, not a regular file".
        let again = fcntl(anon!, F_DUPFD_CLOEXEC, 0)
        defer { close(again) }
        do {
            _ = try readRegularFile(fd: again, path: "x", limit: 100)
            Issue.record("read an eventfd")
        } catch {
            #expect(error.operation == "x is an anonymous descriptor (an eventfd, a timerfd ...), not a regular file", "\(error)")
        }
    }

    /// Regression: the FIT check refused a FIFO before the close was set up, leaking it.
    @Test func aRefusedDescriptorIsClosed() throws {
        let path = "/tmp/wib-fifo.\(getpid())"
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        try #require(fd >= 0)
        let decoded = ImportBatch.decode(ImportBatch.Item(source: .descriptor(fd), file: "x.fit"))
        guard case .failed(let why) = decoded else { Issue.record("not refused: \(decoded)"); return }
        #expect(why.contains("not a regular file"), "\(why)")
        // Closed: the number names nothing, or (reused by a test running beside) something else.
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) ?? ""
        #expect(target != path, "descriptor \(fd) still open on the FIFO")
    }

    /// Every session a workout, the transition too, linked as one event (`multisport`).
    @Test func aMultisportFileImportsOneWorkoutPerSession() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wib.\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let file = dir + "/tri.fit"
        try Data(Self.multisport(records: 30, sessions: [(1, 0, 9), (3, 10, 14), (2, 15, 29)])).write(to: URL(fileURLWithPath: file))
        let paths = Paths(environment: ["HOME": dir, "XDG_DATA_HOME": dir + "/d", "XDG_STATE_HOME": dir + "/s", "XDG_RUNTIME_DIR": dir + "/r"])
        let store = try HistoryStore(paths: paths, machine: MachineTag(rawValue: "test")!)
        let batch = ImportBatch(items: [ImportBatch.Item(source: .path(file), file: file, activity: nil, title: nil)],
                                activity: nil, settings: MetricsSettings())
        var results: [ImportBatch.Result] = []
        let cancelled = batch.run(store: store, stages: ImportStages(), cancel: CancelFlag()) { results += $0 }
        #expect(!cancelled)
        #expect(results.map(\.kind) == [.imported, .imported, .imported])
        #expect(results.map(\.activity) == [.running, .transition, .cycling])
        #expect(results.allSatisfy { $0.file == file })
        let saved = store.summaries().sorted { $0.startedAt < $1.startedAt }
        #expect(saved.map(\.activity) == [.running, .transition, .cycling])
        #expect(saved.map(\.acceptedCount) == [10, 5, 15])
        // Linked as the legs of one event: the first leg's id.
        let first = try #require(results.first?.id)
        #expect(saved.map(\.multisport) == (1...3).map { MultisportLeg(event: first, leg: $0, legs: 3) })
        // Imported again: each session is a duplicate of its own workout.
        var again: [ImportBatch.Result] = []
        _ = batch.run(store: store, stages: ImportStages(), cancel: CancelFlag()) { again += $0 }
        #expect(again.map(\.kind) == [.duplicate, .duplicate, .duplicate])
        #expect(again.map(\.id) == results.map(\.id))
    }

    /// A GPX track of `points` fixes 1 s apart, starting `start` seconds after 2024-01-01.
    static func gpx(start: Int, points: Int) -> String {
        var out = #"<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"#
        let iso = ISO8601DateFormatter()  // one for the file: a formatter per point was most of this suite's CPU
        for k in 0..<points {
            let t = 1_704_067_200 + start + k
            let d = Date(timeIntervalSince1970: Double(t))
            out += #"<trkpt lat="\#(48 + Double(k) * 3e-5)" lon="11.0"><ele>500</ele><time>\#(iso.string(from: d))</time></trkpt>"#
        }
        return out + "</trkseg></trk></gpx>"
    }

    /// Issue 43: files are measured on two threads, so a small file measured after a large one
    /// finishes first; the results, the duplicates and the saved workouts are still those of one
    /// file after another: each file's first copy in file order is imported, later ones are its
    /// duplicates, whichever measurer finished first.
    @Test func twoMeasurersKeepFileOrder() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wim.\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // Large and small, alternating, then each again: a copy of a large file is measured
        // beside a copy of a small one.
        var files: [String] = []
        for (k, (start, points)) in [(0, 3000), (7200, 20), (14_400, 2500), (21_600, 30)].enumerated() {
            let file = dir + "/\(k).gpx"
            try Self.gpx(start: start, points: points).write(toFile: file, atomically: false, encoding: .utf8)
            files.append(file)
        }
        let order = [0, 1, 1, 2, 3, 0, 3, 2]
        let items = order.map { ImportBatch.Item(source: .path(files[$0]), file: files[$0], activity: .running, title: nil) }
        let paths = Paths(environment: ["HOME": dir, "XDG_DATA_HOME": dir + "/d", "XDG_STATE_HOME": dir + "/s", "XDG_RUNTIME_DIR": dir + "/r"])
        let store = try HistoryStore(paths: paths, machine: MachineTag(rawValue: "test")!)
        let stages = ImportStages(measurers: 2)
        #expect(stages.measure.count == 2)
        var results: [ImportBatch.Result] = []
        _ = ImportBatch(items: items, activity: nil, settings: MetricsSettings()).run(store: store, stages: stages, cancel: CancelFlag()) { results += $0 }
        #expect(results.map(\.file) == order.map { files[$0] }, "one result per file, in file order")
        #expect(results.map(\.kind) == [.imported, .imported, .duplicate, .imported, .imported, .duplicate, .duplicate, .duplicate])
        let first = Dictionary(zip(order, results).filter { $0.1.kind == .imported }.map { ($0.0, $0.1.id) }, uniquingKeysWith: { a, _ in a })
        #expect(zip(order, results).allSatisfy { k, r in r.id == first[k] }, "each copy names its file's first import")
        #expect(store.count == 4)
        #expect(stages.shutDown(seconds: 30))
    }

    /// Issue 27 item 7: with 456 KiB free on the data disk, a batch of 336 files imported none
    /// on every retry (a group of 64 failed together when its index lines did not fit; one at
    /// a time got 50 in). Now a group gives up only the files that do not fit: the others are
    /// committed, listed, and still there after a restart; no unlisted file is left behind.
    @Test func aNearlyFullDiskStillTakesTheFilesThatFit() throws {
        guard let disk = SmallDisk.mount(size: "2m") else { return }
        defer { disk.unmount() }
        let src = FileManager.default.temporaryDirectory.appendingPathComponent("wif.\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: src) }
        try FileManager.default.createDirectory(atPath: src, withIntermediateDirectories: true)
        var items: [ImportBatch.Item] = []
        for k in 0..<336 {
            let file = src + "/\(k).gpx"
            try Self.gpx(start: k * 3600, points: 40).write(toFile: file, atomically: false, encoding: .utf8)
            items.append(ImportBatch.Item(source: .path(file), file: file, activity: .running, title: nil))
        }
        // The history and the state dir (its index) on the same nearly full disk.
        let paths = Paths(environment: ["HOME": disk.path, "XDG_DATA_HOME": disk.path + "/d", "XDG_STATE_HOME": disk.path + "/s", "XDG_RUNTIME_DIR": src + "/r"])
        let machine = MachineTag(rawValue: "test")!
        let store = try HistoryStore(paths: paths, machine: machine)
        var vfs = statvfs()
        statvfs(disk.path, &vfs)
        let free = Int(vfs.f_bavail) * Int(vfs.f_bsize)
        let fd = open(disk.path + "/filler", O_WRONLY | O_CREAT, 0o600)
        #expect(posix_fallocate(fd, 0, off_t(free - 456 * 1024)) == 0)
        close(fd)

        var batch = ImportBatch(items: items, activity: nil, settings: MetricsSettings())
        batch.maxGroupAge = 600  // groups of 64, as a release build makes them (not cut by time)
        var results: [ImportBatch.Result] = []
        _ = batch.run(store: store, stages: ImportStages(), cancel: CancelFlag()) { results += $0 }
        let imported = results.filter { $0.kind == .imported }
        let errors = results.filter { $0.kind == .error }
        print("import with 456 KiB free: \(imported.count) of \(items.count) imported, \(errors.count) errors (\(errors.first?.error ?? "-"))")
        #expect(results.count == 336)
        #expect(imported.count >= 20, "the files that fit are imported (before: 0)")
        #expect(errors.allSatisfy { $0.error?.contains("No space left on device") == true })
        #expect(store.count == imported.count)
        let onDisk = Set(try FileManager.default.contentsOfDirectory(atPath: paths.workoutsDir).filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) })
        #expect(onDisk == Set(imported.compactMap { $0.id?.rawValue }), "every imported file is there, no other")
        #expect(try HistoryStore(paths: paths, machine: machine).count == imported.count, "and listed after a restart")
    }
}
