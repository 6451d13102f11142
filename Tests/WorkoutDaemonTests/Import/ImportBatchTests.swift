import Foundation
import Glibc
import Testing
import WorkoutCore
@testable import WorkoutDaemon

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
}
