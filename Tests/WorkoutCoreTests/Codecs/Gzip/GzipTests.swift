import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// Our inflate and gzip against the real `gzip` (every file of ../shared/data at -1, -6 and -9,
/// one file of each kind at every level from -1 to -9, compressed into a temporary directory at
/// test time) and python's zlib (stored, fixed and dynamic blocks), then damage: CRC, ISIZE,
/// truncation at every length, the size cap.
@Suite(.requires(.sharedData, .program(.gzip)))
struct GzipSharedDataTests {
    static let files: [URL] = {
        let root = SharedData.url("data")
        let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var out: [URL] = []
        while let u = e?.nextObject() as? URL { if (try? u.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true { out.append(u) } }
        return out.sorted { $0.path < $1.path }
    }()

    /// One file of each kind: a large FIT and a small one, NMEA text and its gpsd check file, a
    /// GPX, a TCX, a README.
    static let sample: [URL] = ["fit/2019-02-17-062644-ELEMNT-297E-195-0.fit", "fit/Activity.fit", "nmea/bundg_zeus_9.log",
                                "nmea/bundg_zeus_9.log.chk", "gpx/garminconnect.gpx", "tcx/bike.tcx", "README.md"].map { SharedData.url("data/" + $0) }

    /// gzip's three ways of matching over every shared file: -1 (the fast matcher, greedy),
    /// -6 (the default, lazy) and -9 (lazy over the longest chains). Levels 2 to 5, 7 and 8 tune
    /// the same two matchers; the inflater sees only blocks, lengths and distances, which the
    /// sample at every level covers (`aSampleOfEachKindRoundTripsAtEveryLevel`). Before: every
    /// file at all nine levels, 7 s of CPU (half of it gzip's own).
    @Test(arguments: [1, 6, 9])
    func everySharedFileRoundTripsThroughGzipAtThisLevel(_ level: Int) throws {
        expectGreater(Self.files.count, 20)
        try Self.roundTrip(Self.files, level: level)
    }

    @Test(arguments: [2, 3, 4, 5, 7, 8])
    func aSampleOfEachKindRoundTripsAtEveryLevel(_ level: Int) throws {
        for f in Self.sample { #expect(Self.files.map(\.path).contains(f.path), "\(f.path) is no longer in ../shared/data") }
        try Self.roundTrip(Self.sample, level: level)
    }

    /// Each file gzipped by the real gzip at `level`, inflated back by ours, equal byte for byte.
    static func roundTrip(_ files: [URL], level: Int) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gz\(level)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // One shell for every file (gzip each to DIR/K.gz): not a shell and an env per file.
        let r = try SharedData.run(["sh", "-c", "d=$0; k=0; for f; do gzip -\(level) -c \"$f\" > \"$d/$k.gz\" || exit 1; k=$((k + 1)); done",
                                    dir.path] + files.map(\.path))
        expectEqual(r.status, 0, "\(r.stderr)")
        var total = 0, compressed = 0
        for (k, f) in files.enumerated() {
            let out = dir.appendingPathComponent("\(k).gz")
            let gz = try SharedData.bytes(out)
            let original = try SharedData.bytes(f)
            let back = try Gzip.decompress(gz, limit: original.count)
            // memcmp: the generic == of the unoptimized test build took a quarter of the CPU.
            #expect(SharedData.same(back, original), "\(f.lastPathComponent) at -\(level): \(back.count) bytes back of \(original.count)")
            total += original.count
            compressed += gz.count
        }
        print("gzip -\(level): \(files.count) files, \(total) bytes -> \(compressed), all inflated back equal")
    }

    @Test func concatenatedMembersAreOneFile() throws {
        let a = try SharedData.bytes(SharedData.url("data/README.md"))
        let b = try SharedData.bytes(SharedData.url("data/fit/LICENSE.fitparse"))
        let r1 = try SharedData.run(["sh", "-c", "gzip -c '\(SharedData.url("data/README.md").path)'; gzip -c '\(SharedData.url("data/fit/LICENSE.fitparse").path)'"])
        expectEqual(r1.status, 0)
        // The shell's output came back as text: compress through files instead.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gzm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("m.gz")
        let r = try SharedData.run(["sh", "-c", "(gzip -c '\(SharedData.url("data/README.md").path)'; gzip -9 -c '\(SharedData.url("data/fit/LICENSE.fitparse").path)') > '\(out.path)'"])
        expectEqual(r.status, 0)
        let gz = try SharedData.bytes(out)
        try expectEqual(Gzip.decompress(gz, limit: 1 << 20), a + b)
        // gzip itself agrees.
        let z = try SharedData.run(["sh", "-c", "gzip -t '\(out.path)'"])
        expectEqual(z.status, 0)
    }

    @Test func gzippedGPXAndTCXImportLikeThePlainFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gzi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["gpx/garminconnect.gpx", "tcx/bike.tcx"] {
            let src = SharedData.url("data/" + name)
            let out = dir.appendingPathComponent(src.lastPathComponent + ".gz")
            try expectEqual(SharedData.run(["sh", "-c", "gzip -c '\(src.path)' > '\(out.path)'"]).status, 0)
            let a = try Importer.readAll(try SharedData.bytes(out), fileName: out.lastPathComponent)
            let b = try Importer.readAll(try SharedData.bytes(src), fileName: src.lastPathComponent)
            #expect(a.count == b.count && a[0].fixes == b[0].fixes && a[0].lapEnds == b[0].lapEnds)
        }
    }
}

@Suite(.requires(.program(.python3)))
struct InflateBlockTests {
    /// Raw deflate of `data` by zlib with the given level and strategy (0 default, 4 Z_FIXED).
    static func deflate(_ data: [UInt8], level: Int, strategy: Int) throws -> [UInt8] {
        let script = "import sys, zlib\nc = zlib.compressobj(\(level), zlib.DEFLATED, -15, 9, \(strategy))\nsys.stdout.buffer.write(c.compress(sys.stdin.buffer.read()) + c.flush())"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [SharedData.python, "-c", script]
        let inp = Pipe(), out = Pipe()
        p.standardInput = inp
        p.standardOutput = out
        try p.run()
        inp.fileHandleForWriting.write(Data(data))
        try inp.fileHandleForWriting.close()
        let d = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return [UInt8](d)
    }

    static func sample() -> [UInt8] {
        var rng = SeededRandom(seed: 1951)
        var out: [UInt8] = []
        let words = ["lat", "lon", "<trkpt>", "</trkpt>\n", "47.1", "8.5", "ele", "time", "2026-11-23T10:00:00Z"].map { Array($0.utf8) }
        while out.count < 200_000 {
            if Int.random(in: 0..<10, using: &rng) == 0 {
                out += (0..<Int.random(in: 1...300, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            } else {
                out += words[Int.random(in: 0..<words.count, using: &rng)]
            }
        }
        return out
    }

    static func inflate(_ d: [UInt8], limit: Int = 1 << 24) throws -> [UInt8] {
        var out: [UInt8] = []
        _ = try d.withUnsafeBufferPointer { (b) throws(InflateError) -> Int in try Inflate.inflate(b, from: 0, into: &out, limit: limit) }
        return out
    }

    @Test(arguments: [(0, 0, "stored"), (6, 4, "fixed"), (1, 0, "dynamic -1"), (9, 0, "dynamic -9")])
    func blocksOfEveryKindInflate(_ level: Int, _ strategy: Int, _ kind: String) throws {
        let data = Self.sample()
        let d = try Self.deflate(data, level: level, strategy: strategy)
        #expect(!d.isEmpty)
        let first = (d[0] >> 1) & 3
        expectEqual(first, (kind == "stored" ? 0 : kind == "fixed" ? 1 : 2), "\(kind): first block type \(first)")
        try expectEqual(Self.inflate(d), data, "\(kind)")
        #expect(try Self.inflate(try Self.deflate([], level: level, strategy: strategy)) == [])
    }

    @Test func theCapStopsABomb() throws {
        let zeros = [UInt8](repeating: 0, count: 10_000_000)
        let d = try Self.deflate(zeros, level: 9, strategy: 0)
        expectLess(d.count, 20_000)
        #expect(throws: InflateError.tooLarge(limit: 1_000_000)) { _ = try Self.inflate(d, limit: 1_000_000) }
        try expectEqual(Self.inflate(d, limit: 10_000_000).count, 10_000_000)
    }

    @Test func everyTruncationAndRandomDamageFailsCleanly() throws {
        let data = Array(Self.sample().prefix(20_000))
        let d = try Self.deflate(data, level: 6, strategy: 0)
        for n in stride(from: 0, to: d.count, by: max(1, d.count / 500)) {
            #expect(throws: InflateError.self) { _ = try Self.inflate(Array(d[..<n])) }
        }
        var rng = SeededRandom(seed: 7)
        for _ in 0..<300 {
            var bad = d
            bad[Int.random(in: 0..<bad.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
            _ = try? Self.inflate(bad)  // any result or error, never a crash or a hang
        }
    }
}

/// gzip framing without any peer: stored blocks built by hand.
struct GzipFramingTests {
    /// A gzip member around a single stored block of `data`, with optional header fields.
    static func member(_ data: [UInt8], flags: UInt8 = 0, crc: UInt32? = nil, size: UInt32? = nil) -> [UInt8] {
        var h: [UInt8] = [0x1F, 0x8B, 8, flags, 0, 0, 0, 0, 0, 3]
        if flags & 4 != 0 { h += [3, 0, 1, 2, 3] }
        if flags & 8 != 0 { h += Array("name.gpx".utf8) + [0] }
        if flags & 16 != 0 { h += Array("a comment".utf8) + [0] }
        if flags & 2 != 0 {
            let c = CRC32.checksum(h) & 0xFFFF
            h += [UInt8(c & 0xFF), UInt8(c >> 8)]
        }
        let n = data.count
        var body: [UInt8] = [1, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)] + data
        let c = crc ?? CRC32.checksum(data)
        let s = size ?? UInt32(n)
        for k in 0..<4 { body.append(UInt8((c >> UInt32(8 * k)) & 0xFF)) }
        for k in 0..<4 { body.append(UInt8((s >> UInt32(8 * k)) & 0xFF)) }
        return h + body
    }

    @Test(arguments: [0, 1, 2, 4, 8, 16, 30] as [UInt8])
    func headerFlagsAreHonoured(_ flags: UInt8) throws {
        let data = Array("hello, gzip".utf8)
        try expectEqual(Gzip.decompress(Self.member(data, flags: flags), limit: 100), data)
    }

    @Test func damageIsRefusedInWords() throws {
        let data = Array("hello, gzip".utf8)
        #expect(throws: GzipError.crc(member: 0)) { _ = try Gzip.decompress(Self.member(data, crc: 1), limit: 100) }
        #expect(throws: GzipError.size(member: 0)) { _ = try Gzip.decompress(Self.member(data, size: 3), limit: 100) }
        #expect(throws: GzipError.reservedFlags) { _ = try Gzip.decompress(Self.member(data, flags: 0x20), limit: 100) }
        var badHeaderCRC = Self.member(data, flags: 2)
        badHeaderCRC[10] ^= 1
        #expect(throws: GzipError.headerCRC) { _ = try Gzip.decompress(badHeaderCRC, limit: 100) }
        #expect(throws: GzipError.self) { _ = try Gzip.decompress(Self.member(data) + [1, 2, 3], limit: 100) }
        try expectEqual(Gzip.decompress(Self.member(data) + [0, 0, 0], limit: 100), data)
        try expectEqual(Gzip.decompress(Self.member(data) + Self.member(data), limit: 100), data + data)
        #expect(throws: GzipError.inflate(.tooLarge(limit: 5))) { _ = try Gzip.decompress(Self.member(data), limit: 5) }
        let m = Self.member(data, flags: 30)
        for n in 0..<m.count { #expect(throws: GzipError.self) { _ = try Gzip.decompress(Array(m[..<n]), limit: 100) } }
        expectEqual(GzipError.crc(member: 0).description, "gzip: CRC-32 mismatch in member 1: the file is corrupt")
    }
}
