import Testing
import TestRequirements
@testable import WorkoutCore

/// The import's FIT path (`read(_:keeping: .fixesOnly)`: fixes and heart rate straight from the
/// record messages, per-definition field reads, tracks split without a records array) against the
/// way it was done before: every record kept as a `FITRecord`, read field by field with
/// `Message.int`/`sint`, made a fix by `FITRecord.fix`, and split into sessions by sorting the
/// records (`referenceTracks`). Every track field must be the same, on every shared FIT file and
/// on files built here (multisport with heart-rate-only records, ties, chained files).
struct FITActivityFileTracksTests {
    typealias F = FITEncoder.FieldDefinition
    static let t0: Int64 = 1_000_000_000

    /// The tracks from `records` (every record read field by field with `Message.int`/`sint`,
    /// made a fix by `FITRecord.fix`, its distance a reading) split into sessions the old way:
    /// records sorted by time, each session taking those in its span; then the rules of
    /// `tracks()` (legs, distances, pools) on what each session took.
    static func referenceTracks(_ file: FITActivityFile) -> [Importer.Track] {
        var derived = file
        derived.fixes = file.records.compactMap(\.fix)
        derived.heartRateOnly = file.records.filter { $0.fix == nil }.map { HeartRateSample(time: $0.time, bpm: $0.heartRate) }
        derived.odometer = file.records.compactMap { r in r.distance.map { OdometerReading(time: r.time, meters: $0) } }
        let tracks = derived.tracks()
        // The old split: records sorted by time, each session its span's.
        let ordered = file.sessions.sorted { $0.startTime < $1.startTime }
        if ordered.count > 1 {
            let recs = file.records.sorted { $0.time < $1.time }
            var r = 0
            var expected: [[Fix]] = []
            for (k, s) in ordered.enumerated() {
                while r < recs.count, recs[r].time < s.startTime { r += 1 }
                let from = r
                // To its end and a second, short of the next session's start (issue 39 item 4).
                let next = k + 1 < ordered.count ? ordered[k + 1].startTime : .infinity
                while r < recs.count, recs[r].time <= s.endTime + FITActivityFile.sessionEndSlack, recs[r].time < next { r += 1 }
                expected.append(recs[from..<r].compactMap(\.fix))
            }
            let got = tracks.map(\.fixes)
            expectEqual(expected.filter { !$0.isEmpty }, got.filter { !$0.isEmpty }, "sessions take the records of their span")
        }
        return tracks
    }

    /// Every field of two lists of tracks is the same.
    static func expectSame(_ a: [Importer.Track], _ b: [Importer.Track], _ name: String) {
        expectEqual(a.count, b.count, "\(name): \(a.count) tracks, reference \(b.count)")
        for (x, y) in zip(a, b) {
            expectEqual(x.fixes, y.fixes, "\(name): fixes (\(x.fixes.count) vs \(y.fixes.count))")
            #expect(x.segments == y.segments && x.heartRate == y.heartRate, "\(name): segments or heart rate")
            #expect(x.activity == y.activity && x.origin == y.origin && x.format == y.format, "\(name): activity, origin, format")
            #expect(x.startTime == y.startTime && x.endTime == y.endTime, "\(name): start/end")
            #expect(x.pauses == y.pauses && x.lapEnds == y.lapEnds, "\(name): pauses or laps")
            #expect(x.label == y.label && x.notes == y.notes, "\(name): label or notes")
            #expect(x.odometer == y.odometer && x.device == y.device && x.leg?.number == y.leg?.number, "\(name): distance, device, leg")
        }
    }

    /// The import's tracks and the reference's from the same bytes; both refuse alike.
    static func compare(_ bytes: [UInt8], _ name: String) throws {
        let full: FITActivityFile
        do { full = try FITActivityFile.read(bytes) } catch {
            #expect(throws: FITError.self, "\(name): the import reads what read(_:) refuses") {
                _ = try FITActivityFile.read(bytes, keeping: .fixesOnly)
            }
            return
        }
        let lean = try FITActivityFile.read(bytes, keeping: .fixesOnly)
        #expect(lean.records.isEmpty)
        expectEqual(full.fixes, full.records.compactMap(\.fix), "\(name): fixes are the records' fixes")
        expectEqual(full.heartRateOnly, full.records.filter { $0.fix == nil }.map { HeartRateSample(time: $0.time, bpm: $0.heartRate) })
        #expect(lean.fixes == full.fixes && lean.heartRateOnly == full.heartRateOnly && lean.recordCount == full.records.count, "\(name)")
        #expect(lean.laps == full.laps && lean.sessions == full.sessions && lean.timerEvents == full.timerEvents && lean.truncatedAt == full.truncatedAt)
        #expect(lean.odometer == full.odometer && lean.lengths == full.lengths && lean.damage == full.damage)
        expectSame(lean.tracks(), referenceTracks(full), name)
    }

    @Test(.requires(.shared("data/fit")))
    func everySharedFileGivesTheReferenceTracks() throws {
        let files = SharedData.files(in: "data/fit", ext: "fit")
        expectGreaterOrEqual(files.count, 10)
        for url in files { try Self.compare(try SharedData.bytes(url), url.lastPathComponent) }
    }

    /// Multisport, in both byte orders: sessions listed out of order, one sharing a boundary, a
    /// transition; heart-rate-only records (some without heart rate) between the fixes, records
    /// stamped out of order and on the same second, positions out of range.
    @Test(arguments: [false, true])
    func multisportWithHeartRateRecordsGivesTheReferenceTracks(_ big: Bool) throws {
        var e = FITEncoder()
        e.define(local: 0, global: 0, [F(0, .enumeration)], bigEndian: big)
        e.message(local: 0, [4])
        e.define(local: 1, global: 20, [F(253, .uint32), F(0, .sint32), F(1, .sint32), F(3, .uint8), F(2, .uint16), F(6, .uint16), F(13, .sint8)],
                 bigEndian: big)
        e.define(local: 2, global: 20, [F(253, .uint32), F(3, .uint8), F(4, .uint8), F(7, .uint16)], bigEndian: !big)
        for i in 0..<120 {
            let t = Self.t0 + Int64(i) - (i % 13 == 0 ? 2 : 0)
            if i % 4 == 1 {
                e.message(local: 2, [t, i % 3 == 0 ? nil : 100 + Int64(i % 40), 80, 150])
            } else {
                e.message(local: 1, [t, i % 17 == 0 ? 1_500_000_000 : 600_000_000 + Int64(i) * 1200, 100_000_000, 120 + Int64(i % 5),
                                     i % 5 == 0 ? nil : 2600 + Int64(i), Int64(i * 10), -5 + Int64(i % 9)])
            }
        }
        e.define(local: 3, global: 18, [F(253, .uint32), F(2, .uint32), F(5, .enumeration), F(7, .uint32)], bigEndian: big)
        for (sport, from, to) in [(2, 60, 99), (1, 0, 40), (3, 41, 59), (1, 99, 119)] as [(Int64, Int64, Int64)] {
            e.message(local: 3, [Self.t0 + to, Self.t0 + from, sport, (to - from) * 1000])
        }
        e.define(local: 4, global: 19, [F(253, .uint32), F(2, .uint32), F(7, .uint32)], bigEndian: big)
        for k in stride(from: Int64(0), to: 120, by: 15) { e.message(local: 4, [Self.t0 + k + 15, Self.t0 + k, 15_000]) }
        let bytes = e.file()
        try Self.compare(bytes, "multisport")
        let tracks = try Importer.readAll(bytes, fileName: "m.fit")
        expectEqual(tracks.map(\.label), ["session 1 of 4 (running)", "session 2 of 4 (transition)", "session 3 of 4 (cycling)",
                                          "session 4 of 4 (running)"])
        #expect(tracks.allSatisfy { !$0.heartRate.isEmpty && !$0.fixes.isEmpty })
        // Every truncation of it too (what is whole is kept).
        for n in stride(from: 0, to: bytes.count, by: 7) { try Self.compare(Array(bytes[..<n]), "multisport cut at \(n)") }
    }

    /// Regression: a chained file's record definition is its own, even when it takes the place
    /// (local type, order) of the first file's. The layout of the record fields is worked out per
    /// definition and was once reused for the second file's first definition, whose fields lie
    /// elsewhere: its positions read as absent.
    @Test func chainedFilesWithDifferentRecordLayoutsReadEachTheirOwn() throws {
        var a = FITEncoder()
        a.define(local: 0, global: 0, [F(0, .enumeration)])
        a.message(local: 0, [4])
        a.define(local: 1, global: 20, [F(253, .uint32), F(3, .uint8), F(7, .uint16)])  // no position
        for i in 0..<5 { a.message(local: 1, [Self.t0 + Int64(i), 130, 200]) }
        var b = FITEncoder()
        b.define(local: 0, global: 0, [F(0, .enumeration)])
        b.message(local: 0, [4])
        b.define(local: 1, global: 20, [F(253, .uint32), F(0, .sint32), F(1, .sint32), F(3, .uint8)])
        for i in 5..<10 { b.message(local: 1, [Self.t0 + Int64(i), 600_000_000 + Int64(i) * 1200, 100_000_000, 140]) }
        let bytes = a.file() + b.file()
        let f = try FITActivityFile.read(bytes, keeping: .fixesOnly)
        expectEqual(f.files, 2)
        expectEqual(f.heartRateOnly.map(\.bpm), Array(repeating: 130, count: 5))
        #expect(f.fixes.count == 5 && f.fixes.allSatisfy { $0.heartRate == 140 && $0.mode == .twoD })
        try Self.compare(bytes, "chained")
    }

    /// `Message.int(FieldRead)` gives what `int(number)` gives, and with `signedOnly` what
    /// `sint(number)` gives, for every base type (integers of every size, their `z` forms, bytes,
    /// strings, floats, unknown types), arrays, fields too short for their type, repeated field
    /// numbers and absent ones, in both byte orders, on values that are often the invalid ones.
    @Test func fieldReadsGiveWhatIntAndSintGive() throws {
        var rng = SeededRandom(seed: 23)
        let types: [UInt8] = [0x00, 0x01, 0x02, 0x83, 0x84, 0x85, 0x86, 0x07, 0x88, 0x89, 0x0A, 0x8B, 0x8C, 0x0D, 0x8E, 0x8F, 0x90, 0x1F]
        let natural: [UInt8: UInt8] = [0x83: 2, 0x84: 2, 0x85: 4, 0x86: 4, 0x88: 4, 0x89: 8, 0x8B: 2, 0x8C: 4, 0x8E: 8, 0x8F: 8, 0x90: 8]
        var checked = 0
        for big in [false, true] {
            var fields: [(number: UInt8, size: UInt8, type: UInt8)] = []
            for (k, t) in types.enumerated() {
                let n = natural[t] ?? 1
                fields.append((UInt8(k), n, t))
                fields.append((UInt8(40 + k), n * 3, t))  // an array: its first element reads
                if n > 1 { fields.append((UInt8(80 + k), n - 1, t)) }  // too short for its type
            }
            fields.append((3, 1, 0x02))  // a repeated number: the first field counts
            var data: [UInt8] = [0x40, 0, big ? 1 : 0] + (big ? [0, 20] : [20, 0]) + [UInt8(fields.count)]
            for f in fields { data += [f.number, f.size, f.type] }
            for _ in 0..<200 {
                data.append(0)
                for f in fields {
                    // The first element often holds an invalid value: all ones, zero (the `z`
                    // types), or the signed maximum in the definition's byte order.
                    var v = (0..<Int(f.size)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                    let n = min(Int(natural[f.type] ?? 1), v.count)
                    switch Int.random(in: 0..<6, using: &rng) {
                    case 0: for k in 0..<n { v[k] = 0xFF }
                    case 1: for k in 0..<n { v[k] = 0 }
                    case 2: for k in 0..<n { v[k] = 0xFF }; v[big ? 0 : n - 1] = 0x7F
                    case 3: v[big ? 0 : n - 1] |= 0x80  // negative, or above Int64.max unsigned
                    default: break
                    }
                    data += v
                }
            }
            let bytes = FITDecoderTests.wrap(data)
            _ = try bytes.withUnsafeBufferPointer { buf in
                try FITMessageDecoder.walk(buf) { m in
                    for n in 0...255 {
                        let number = UInt8(n)
                        expectEqual(m.int(m.reader(number)), m.int(number), "field \(n), big-endian \(big)")
                        expectEqual(m.int(m.reader(number, signedOnly: true)), m.sint(number), "field \(n) signed, big-endian \(big)")
                        checked += 1
                    }
                }
            }
        }
        expectEqual(checked, 2 * 200 * 256)
    }
}
