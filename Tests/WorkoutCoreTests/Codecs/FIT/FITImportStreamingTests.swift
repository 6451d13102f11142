import Testing
import TestRequirements
@testable import WorkoutCore

/// The FIT import straight from the file (`FITImport`, issue 27 item 6: a 1.5 M-record file
/// peaked at ~800 MB, the whole file and every record held at once): two walks a window at a
/// time, every record decoded into its track's recorder. It gives what the tracks read whole
/// give (`Importer.readAll` + `Importer.imported`), the window moving or not, and memory is
/// bounded by refusing what one import cannot hold. The peak itself is a benchmark
/// (`workoutbench fit-memory`, BENCHMARKS.md).
@Suite struct FITImportStreamingTests {
    /// A source that reads in small pieces and remembers the largest span it was asked for.
    final class CountingSource: FITByteSource, @unchecked Sendable {
        let bytes: [UInt8]
        var largestRead = 0
        var reads = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        var count: Int { bytes.count }
        func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(FITError) -> Int {
            reads += 1
            largestRead = max(largestRead, buffer.count)
            // At most 4 KiB a call: a file read as a descriptor gives what it gives.
            return try FITBytes(bytes).read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(4096)), at: offset)
        }
    }

    /// The workouts both ways, compared field by field.
    static func compare(_ bytes: [UInt8], _ name: String, windowSize: Int = 1 << 20) throws {
        var k: UInt16 = 0
        let whole: [ImportedWorkout]
        do {
            whole = try Importer.readAll(bytes, fileName: name).map { t in
                k += 1
                return try Importer.imported(from: t, activity: nil, id: k, settings: MetricsSettings(), source: "imported:" + name)
            }
        } catch {
            #expect(throws: Importer.Failure.self, "\(name): streamed though the tracks are refused (\(error))") {
                _ = try FITImport.workouts(FITBytes(bytes), fileName: name, activity: nil, settings: MetricsSettings(), source: "", suffix: { 1 })
            }
            return
        }
        k = 0
        let source = CountingSource(bytes)
        let streamed = try FITImport.workouts(source, fileName: name, activity: nil, settings: MetricsSettings(), source: "imported:" + name,
                                              windowSize: windowSize, suffix: { k += 1; return k })
        expectLessOrEqual(source.largestRead, max(windowSize, 140_000), "\(name): read \(source.largestRead) bytes at once")
        expectEqual(streamed.count, whole.count, "\(name): \(streamed.count) workouts, the tracks give \(whole.count)")
        for (a, b) in zip(streamed, whole) {
            var sa = a.recorded.summary, sb = b.recorded.summary
            if sb.rejectedByReason[.outOfOrder, default: 0] > 0 {
                // Records stamped backwards (the Edge 500 file: 15): streamed, each record's
                // distance goes in just before its own fix, in file order; the tracks merge their
                // readings by time, so a backwards record's reading goes in before the fix ahead
                // of it. The intervals' windowed maximum speed may then differ; nothing else.
                for k in sa.splits.indices { sa.splits[k].maxSpeed = 0 }
                for k in sb.splits.indices { sb.splits[k].maxSpeed = 0 }
                for k in sa.laps.indices { sa.laps[k].maxSpeed = 0 }
                for k in sb.laps.indices { sb.laps[k].maxSpeed = 0 }
            }
            expectEqual(sa, sb, "\(name): summary differs in \(differences(sa, sb))")
            #expect(a.recorded.points.elementsEqual(b.recorded.points), "\(name): points")
            expectEqual(a.recorded.events, b.recorded.events, "\(name): events \(differences(a.recorded.events, b.recorded.events))")
            expectEqual(a.recorded.heartRate, b.recorded.heartRate, "\(name): heart rate \(differences(a.recorded.heartRate, b.recorded.heartRate))")
            expectEqual(a.recorded.odometer, b.recorded.odometer, "\(name): odometer \(differences(a.recorded.odometer, b.recorded.odometer))")
            expectEqual(a.recorded.device, b.recorded.device, "\(name): device")
            expectEqual(a.warnings, b.warnings, "\(name): warnings \(a.warnings) vs \(b.warnings)")
            #expect(a.leg?.number == b.leg?.number && a.leg?.of == b.leg?.of, "\(name): leg")
        }
    }

    /// Where two values differ: the first differing child (recursively), named by its path.
    static func differences(_ a: Any, _ b: Any, path: String = "") -> String {
        let ma = Mirror(reflecting: a), mb = Mirror(reflecting: b)
        if ma.children.isEmpty || ma.children.count != mb.children.count {
            return "\(path.isEmpty ? "value" : path): \(a) vs \(b)"
        }
        for (k, (ca, cb)) in zip(ma.children, mb.children).enumerated() where String(describing: ca.value) != String(describing: cb.value) {
            return differences(ca.value, cb.value, path: path + "." + (ca.label ?? String(k)))
        }
        return "nothing printable"
    }

    /// Walk 1 reads each record's kind alone (`RecordDecoder.kind`, issue 43: decoding the whole
    /// record for it was ~5 % of a FIT folder's import): the same bits as the decoded record's,
    /// record after record, in every shared file and the built ones (compressed distances, pools,
    /// records without a position, with a power of 0).
    /// Returns the records walked.
    @discardableResult
    static func expectKindsAsDecoded(_ bytes: [UInt8], _ name: String) -> Int {
        var alone = FITActivityFile.RecordDecoder(), whole = FITActivityFile.RecordDecoder()
        var records = 0, differing = 0
        _ = try? FITMessageDecoder.walk(FITBytes(bytes), windowSize: 1 << 20) { (m) throws(FITError) in
            guard m.global == 20 else { return }
            records += 1
            if alone.kind(m) != whole.decode(m, time: 0).kind { differing += 1 }
        }
        #expect(differing == 0, "\(name): \(differing) of \(records) records")
        return records
    }

    @Test func aRecordsKindReadAloneIsItsDecodedKind() {
        for (bytes, name) in [(FITTestFiles.triathlon, "triathlon"), (FITTestFiles.poolSwim(active: 114, rests: 52), "pool"),
                              (FITTestFiles.run(records: 600), "run")] {
            #expect(Self.expectKindsAsDecoded(bytes, name) > 0, "\(name): no record walked")
        }
    }

    @Test(.requires(.shared("data/fit")))
    func aSharedFilesRecordKindsReadAloneAreTheirDecodedKinds() throws {
        var records = 0
        for url in SharedData.files(in: "data/fit", ext: "fit") { records += Self.expectKindsAsDecoded(try SharedData.bytes(url), url.lastPathComponent) }
        #expect(records > 10_000, "\(records) records walked in all")
    }

    @Test(.requires(.shared("data/fit")))
    func everySharedFileGivesWhatTheTracksGive() throws {
        for url in SharedData.files(in: "data/fit", ext: "fit") { try Self.compare(try SharedData.bytes(url), url.lastPathComponent) }
    }

    @Test func builtFilesGiveWhatTheTracksGive() throws {
        try Self.compare(FITTestFiles.triathlon, "triathlon.fit")
        try Self.compare(FITTestFiles.poolSwim(active: 114, rests: 52), "pool.fit")
        try Self.compare(FITTestFiles.run(records: 600, stamped: [100: 0, 449: FITTestFiles.t0 + 100_000_000]), "outliers.fit")
        try Self.compare(FITTestFiles.run(records: 600, stamped: [0: 0], session: false), "first-outlier.fit")
        var crc = FITTestFiles.run(records: 600)
        crc[crc.count / 2] ^= 0x10
        try Self.compare(crc, "crc.fit")
        try Self.compare(Array(FITTestFiles.run(records: 600).dropLast(1000)), "cut.fit")
    }

    /// A file that names no activity (no session): its fixes walked once more and its speeds
    /// judged (`ActivityInference`), as a track read whole is; the warning says so.
    @Test func aFileWithoutActivityIsJudgedFromItsSpeeds() throws {
        let bytes = FITTestFiles.run(records: 600, session: false)
        try Self.compare(bytes, "untyped.fit")
        let w = try FITImport.workouts(FITBytes(bytes), fileName: "untyped.fit", activity: nil, defaultActivity: .walking,
                                       settings: MetricsSettings(), source: "", suffix: { 1 })
        expectEqual(w.first?.recorded.activity, .running)
        expectEqual(w.first?.warnings.contains { $0.hasPrefix("no activity in the file; it moves at 11 km/h") }, true, "\(w.first?.warnings ?? [])")
        let named = try FITImport.workouts(FITBytes(bytes), fileName: "untyped.fit", activity: .cycling, settings: MetricsSettings(), source: "", suffix: { 1 })
        #expect(named.first?.recorded.activity == .cycling && named.first?.warnings.contains { $0.hasPrefix("no activity") } == false)
    }

    /// A file much larger than the window: the window moves on hundreds of times (messages
    /// across its edge, the CRC counted as bytes leave it) and the workout is the same.
    @Test func aFileLargerThanTheWindowGivesTheSame() throws {
        let bytes = FITTestFiles.run(records: 60_000)
        expectGreater(bytes.count, 7 * 140_000)
        try Self.compare(bytes, "long.fit", windowSize: 140_000)
        var crc = bytes
        crc[bytes.count - 100] ^= 1  // the last record's bytes: the CRC fails at the very end
        let w = try FITImport.workouts(FITBytes(crc), fileName: "x.fit", activity: nil, settings: MetricsSettings(), source: "",
                                       windowSize: 140_000, suffix: { 1 })
        expectEqual(w.first?.warnings.contains { $0.contains("CRC mismatch") }, true)
    }

    /// More records than one import holds: refused in words after the first walk, before any
    /// workout is built (memory bounded whatever the file).
    @Test func aFileWithMoreRecordsThanTheLimitIsRefused() throws {
        var limits = FITActivityFile.Limits()
        limits.records = 500
        let bytes = FITTestFiles.run(records: 501)
        #expect(throws: Importer.Failure.file("FIT file with more than 500 records: more than one import holds (memory stays bounded whatever the file); not imported")) {
            _ = try FITImport.workouts(FITBytes(bytes), fileName: "big.fit", activity: nil, settings: MetricsSettings(), source: "",
                                       limits: limits, suffix: { 1 })
        }
        try expectEqual(FITImport.workouts(FITBytes(FITTestFiles.run(records: 500)), fileName: "ok.fit", activity: nil, settings: MetricsSettings(),
                                       source: "", limits: limits, suffix: { 1 }).count, 1)
        expectEqual(FITActivityFile.Limits().records, 1_800_000)
    }
}
