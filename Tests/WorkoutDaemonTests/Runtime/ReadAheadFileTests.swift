import Foundation
import Glibc
import Testing
import WorkoutSystem

/// `ReadAheadFile`: a file read through a window, the pages behind the reader given back, and a
/// file cut short while read seen as zeros, never a fault.
@Suite struct ReadAheadFileTests {
    static func file(_ bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "readahead-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func readsAheadOfTheReaderAndLetsGoBehindIt() throws {
        // 12 MiB of k * 31 + 7 (period 256): one period, doubled by whole-array appends. Before:
        // a closure per byte, then a compare and a sum per byte, 1.4 s of CPU at -Onone.
        var bytes = (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        while bytes.count < 12 << 20 { bytes += bytes }
        bytes.removeLast(bytes.count - (12 << 20))
        let path = try Self.file(bytes)
        defer { unlink(path) }
        let f = try ReadAheadFile(path, window: 2 << 20)
        #expect(f.count == bytes.count)
        var mismatched: [Int] = []
        f.withBytes { buf in
            // Only the window is read at first: its end is zeros until the reader gets near.
            #expect(buf[(2 << 20) - 1] == bytes[(2 << 20) - 1] && buf[(4 << 20) + 5] == 0)
            // The reader goes through the file in order, a MiB at a time, telling the file
            // where it is before each MiB; each MiB compared whole (memcmp).
            bytes.withUnsafeBytes { expected in
                for k in stride(from: 0, to: buf.count, by: 1 << 20) {
                    f.advance(to: k)
                    let n = min(1 << 20, buf.count - k)
                    if memcmp(buf.baseAddress! + k, expected.baseAddress! + k, n) != 0 { mismatched.append(k >> 20) }
                }
            }
        }
        #expect(mismatched.isEmpty, "MiB \(mismatched) read wrong")
        // What the reader left behind is given back (reads as zeros now).
        f.advance(to: f.count)
        f.withBytes { buf in #expect(buf[0] == 0 && buf[(10 << 20) + 3] == 0 && bytes[0] != 0) }
    }

    @Test func aFileCutShortWhileReadIsZerosNotAFault() throws {
        let bytes = [UInt8](repeating: 0x61, count: 3 << 20)
        let path = try Self.file(bytes)
        defer { unlink(path) }
        let f = try ReadAheadFile(path, window: 1 << 20)
        #expect(truncate(path, 1 << 19) == 0)
        f.advance(to: 1 << 19)
        f.withBytes { buf in
            #expect(buf[(1 << 19) + 5] == 0x61)  // read before the cut
            #expect(buf[5] == 0)  // behind the reader: given back
            #expect(buf[(1 << 20) + 10] == 0)
            #expect(buf[buf.count - 1] == 0)
        }
    }

    @Test func refusesWhatIsNotARegularFileAndLinksWhenAsked() throws {
        #expect(throws: SystemError.self) { _ = try ReadAheadFile("/dev/null") }
        #expect(throws: SystemError.self) { _ = try ReadAheadFile(NSTemporaryDirectory()) }
        let target = try Self.file([1, 2, 3])
        defer { unlink(target) }
        let link = target + ".link"
        #expect(symlink(target, link) == 0)
        defer { unlink(link) }
        #expect(throws: SystemError.self) { _ = try ReadAheadFile(link, links: .refuse) }
        let followed = try ReadAheadFile(link)
        #expect(followed.withBytes { Array($0) } == [1, 2, 3])
    }
}
