import Testing
@testable import WorkoutCore

/// The FIT decoder on files built here: endianness, compressed timestamps, chained files,
/// multisport, developer fields, and damage (CRC, header, every truncation, random bytes).
struct FITDecoderTests {
    typealias F = FITEncoder.FieldDefinition
    static let t0: Int64 = 1_000_000_000  // FIT seconds: 2021-09-08

    /// A small activity: one session of `sport`, n records 1 s apart moving north ~11 m/s.
    static func activity(records n: Int = 10, bigEndian: Bool = false, sessions: [(sport: Int64, from: Int, to: Int)]? = nil) -> [UInt8] {
        var e = FITEncoder()
        e.define(local: 0, global: 0, [F(0, .enumeration), F(1, .uint16)], bigEndian: bigEndian)
        e.message(local: 0, [4, 255])
        e.define(local: 1, global: 20, [F(253, .uint32), F(0, .sint32), F(1, .sint32), F(3, .uint8), F(7, .uint16)], bigEndian: bigEndian)
        for i in 0..<n {
            e.message(local: 1, [t0 + Int64(i), 600_000_000 + Int64(i) * 1200, 100_000_000, 120 + Int64(i % 5), 200])
        }
        e.define(local: 2, global: 18, [F(253, .uint32), F(2, .uint32), F(5, .enumeration), F(7, .uint32), F(8, .uint32)], bigEndian: bigEndian)
        for s in sessions ?? [(1, 0, n - 1)] {
            e.message(local: 2, [t0 + Int64(s.to), t0 + Int64(s.from), s.sport, Int64(s.to - s.from) * 1000, Int64(s.to - s.from) * 1000])
        }
        return e.file()
    }

    @Test(arguments: [false, true])
    func bothArchitecturesDecodeTheSame(_ big: Bool) throws {
        let f = try FITActivityFile.read(Self.activity(bigEndian: big))
        expectEqual(f.records.count, 10)
        #expect(f.records[3].heartRate == 123 && f.records[3].power == 200)
        expectLess(abs(f.records[0].latitude! - 600_000_000 * 180 / 2_147_483_648), 1e-12)
        expectEqual(f.records[9].time, Double(Self.t0 + 9) + fitEpochOffset)
        #expect(f.sessions.count == 1 && f.sessions[0].sport == 1)
    }

    @Test func compressedTimestampHeadersAddTheirOffsetAndRollOver() throws {
        var e = FITEncoder()
        e.define(local: 0, global: 0, [F(0, .enumeration)])
        e.message(local: 0, [4])
        e.define(local: 1, global: 20, [F(253, .uint32), F(0, .sint32), F(1, .sint32)])
        let base: Int64 = 1_000_000_030  // low 5 bits: 30
        e.message(local: 1, [base, 1000, 2000])
        e.define(local: 2, global: 20, [F(0, .sint32), F(1, .sint32)])
        // Compressed headers (bit 7, local type 2 in bits 5-6): offsets 31 then 1 (rolls over).
        var data = e.data
        for off: UInt8 in [31, 1, 3] {
            data.append(0x80 | 2 << 5 | off)
            data += [0xE8, 0x03, 0, 0, 0xD0, 0x07, 0, 0]
        }
        let file = Self.wrap(data)
        let f = try FITActivityFile.read(file)
        expectEqual(f.records.map { Int64($0.time - fitEpochOffset) }, [base, base + 1, base + 3, base + 5])
    }

    /// A FIT file around raw message bytes (header CRC and file CRC computed).
    static func wrap(_ data: [UInt8]) -> [UInt8] {
        var e = FITEncoder()
        e.appendRaw(data)
        return e.file()
    }

    @Test func chainedFilesAreReadInTurn() throws {
        let one = Self.activity(records: 5)
        let f = try FITActivityFile.read(one + one)
        expectEqual(f.files, 2)
        expectEqual(f.records.count, 10)
    }

    /// Every session a leg, the transition kept as such (before: dropped with its records).
    @Test func multisportGivesOneWorkoutPerSessionTransitionsIncluded() throws {
        // run 0-9, transition 10-14, bike 15-29.
        let bytes = Self.activity(records: 30, sessions: [(1, 0, 9), (3, 10, 14), (2, 15, 29)])
        let tracks = try Importer.readAll(bytes, fileName: "tri.fit")
        expectEqual(tracks.map(\.activity), [.running, .transition, .cycling])
        expectEqual(tracks.map(\.fixes.count), [10, 5, 15])
        expectEqual(tracks.map(\.label), ["session 1 of 3 (running)", "session 2 of 3 (transition)", "session 3 of 3 (cycling)"])
        #expect(tracks.map { $0.leg?.number } == [1, 2, 3] && tracks.allSatisfy { $0.leg?.of == 3 })
        let w = try Importer.workout(from: tracks[2], activity: nil, id: 1, settings: MetricsSettings(), source: "")
        expectEqual(w.summary.startedAt, Double(Self.t0 + 15) + fitEpochOffset)
        expectEqual(w.summary.elapsedSeconds, 14)
    }

    @Test func developerFieldsAreSkipped() throws {
        var e = FITEncoder()
        e.define(local: 0, global: 0, [F(0, .enumeration)])
        e.message(local: 0, [4])
        // Definition with the developer flag: 1 normal field, 2 developer fields of 3 and 2 bytes.
        var data = e.data
        data += [0x40 | 0x20 | 1, 0, 0, 20, 0, 3, 253, 4, 0x86, 0, 4, 0x85, 1, 4, 0x85, 2, 7, 3, 0, 9, 2, 0]
        for i in 0..<3 {
            data += [1] + [UInt8(i), 0x9A, 0x9A, 0x3B] + [0x10, 0, 0, 0] + [0x20, 0, 0, 0] + [1, 2, 3, 4, 5]
        }
        let f = try FITActivityFile.read(Self.wrap(data))
        expectEqual(f.records.count, 3)
        #expect(f.records.allSatisfy { $0.latitude != nil })
    }

    /// A damaged byte in a record's value: the CRC fails, every message is still read (as the
    /// SDK reads them) and the damage is said.
    @Test func aCorruptByteKeepsEveryMessageAndSaysTheCRCFailed() throws {
        var bytes = Self.activity()
        // Header 14, file_id definition 12 and message 4, record definition 21, records of 16
        // bytes: a latitude byte of record 3.
        bytes[14 + 12 + 4 + 21 + 3 * 16 + 6] ^= 0x01
        let f = try FITActivityFile.read(bytes)
        #expect(f.records.count == 10 && f.sessions.count == 1)
        guard case .fileCRC(let at, _, _)? = f.damage.first else { Issue.record("no CRC damage: \(f.damage)"); return }
        expectEqual(at, bytes.count - 2)
        expectEqual(f.damage.count, 1)
        #expect(f.damage[0].description.contains("CRC mismatch") && f.damage[0].description.contains("kept every message"))
        let tracks = try Importer.readAll(bytes, fileName: "crc.fit")
        #expect(tracks.count == 1 && tracks[0].fixes.count == 10)
        #expect(tracks[0].notes.contains { $0.contains("CRC mismatch") })
    }

    @Test func aDamagedHeaderCRCIsReadAsItStands() throws {
        var bytes = Self.activity()
        bytes[12] ^= 0x01  // the header's own CRC
        let f = try FITActivityFile.read(bytes)
        expectEqual(f.records.count, 10)
        guard case .headerCRC(0, _, _)? = f.damage.first else { Issue.record("\(f.damage)"); return }
    }

    @Test func aDamagedFirstHeaderIsRefused() {
        var sig = Self.activity()
        sig[9] = UInt8(ascii: "G")
        #expect(throws: FITError.badHeader(offset: 0, why: "no \".FIT\" signature")) { _ = try FITActivityFile.read(sig) }
        #expect(throws: FITError.notFIT) { _ = try FITActivityFile.read([1, 2, 3]) }
    }

    /// A data message whose local type has no definition: its size is unknown, so the walk
    /// stops there and keeps what came before (as the SDK does), saying how much was lost.
    @Test func anUndefinedLocalTypeMidFileKeepsTheMessagesBeforeIt() throws {
        var e = FITEncoder()
        e.define(local: 0, global: 0, [F(0, .enumeration)])
        e.message(local: 0, [4])
        e.define(local: 1, global: 20, [F(253, .uint32), F(0, .sint32), F(1, .sint32)])
        for i in 0..<6 { e.message(local: 1, [Self.t0 + Int64(i), 600_000_000 + Int64(i) * 1200, 100_000_000]) }
        let at = e.data.count + 14
        e.appendRaw([7, 1, 2, 3, 4])  // local type 7: never defined
        for i in 6..<9 { e.message(local: 1, [Self.t0 + Int64(i), 600_000_000 + Int64(i) * 1200, 100_000_000]) }
        let bytes = e.file()
        let f = try FITActivityFile.read(bytes)
        expectEqual(f.records.count, 6)
        expectEqual(f.damage, [.undefinedLocalType(offset: at, local: 7, lost: bytes.count - at)])
        let tracks = try Importer.readAll(bytes, fileName: "undefined.fit")
        expectEqual(tracks[0].fixes.count, 6)
        expectEqual(tracks[0].notes, [f.damage[0].description])
        #expect(tracks[0].notes[0].contains("local type 7 without a definition"))
    }

    /// A chained file whose header is damaged: the files before it are kept.
    @Test func aDamagedChainedHeaderKeepsTheFilesBeforeIt() throws {
        let one = Self.activity(records: 5)
        var two = Self.activity(records: 5)
        two[8] = 0  // no ".FIT"
        let f = try FITActivityFile.read(one + two)
        #expect(f.records.count == 5 && f.files == 1)
        guard case .badChainedHeader(let at, _, let lost)? = f.damage.first else { Issue.record("\(f.damage)"); return }
        #expect(at == one.count && lost == two.count)
    }

    @Test func everyTruncationKeepsWholeRecordsOrRefuses() throws {
        let bytes = Self.activity(records: 20)
        for n in 0..<bytes.count {
            do {
                let f = try FITActivityFile.read(Array(bytes[..<n]))
                expectNotNil(f.truncatedAt)
                expectLessOrEqual(f.records.count, 20)
            } catch {
                #expect(!error.description.isEmpty)  // a FITError (typed throws)
            }
        }
    }

    @Test func randomBytesAfterAValidHeaderNeverCrash() {
        var rng = SeededRandom(seed: 16)
        for _ in 0..<300 {
            var body = (0..<Int.random(in: 0...400, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if !body.isEmpty { body[0] = 0x40 }  // start with a definition
            _ = try? FITActivityFile.read(Self.wrap(body))
            _ = try? Importer.readAll(Self.wrap(body), fileName: "r.fit")
        }
    }

    @Test func crcMatchesTheProtocolsExample() {
        // The FIT SDK's CRC of the 12-byte header of its Activity.fit example is 0x... : we
        // check the defining property instead: appending the CRC (little-endian) gives 0.
        let data: [UInt8] = Array("123456789".utf8)
        let c = FITCRC.checksum(data)
        expectEqual(c, 0xBB3D)  // CRC-16/ARC of "123456789"
        expectEqual(FITCRC.checksum(data + [UInt8(c & 0xFF), UInt8(c >> 8)]), 0)
    }
}

extension FITDecoderTests {
    /// `checksum` (eight bytes at a time) is the protocol's nibble-at-a-time CRC for every length,
    /// start and initial value.
    @Test func fastCRCMatchesTheProtocolsNibbleForm() {
        var rng = SeededRandom(seed: 16)
        let data = (0..<300).map { _ in UInt8.random(in: 0...255, using: &rng) }
        for _ in 0..<2_000 {
            let from = Int.random(in: 0...data.count, using: &rng)
            let to = Int.random(in: from...data.count, using: &rng)
            let initial = UInt16.random(in: 0...UInt16.max, using: &rng)
            var reference = initial
            for k in from..<to { reference = FITCRC.update(reference, data[k]) }
            let fast = data.withUnsafeBufferPointer { FITCRC.checksum($0, from: from, to: to, initial: initial) }
            expectEqual(fast, reference, "bytes \(from)..<\(to) from \(initial)")
            if fast != reference { return }
        }
    }
}
