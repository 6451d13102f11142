import Glibc
import Testing
@testable import WorkoutDaemon

/// The descriptor table sized ahead (issue 43): a count of slots, read from the kernel.
@Suite struct DescriptorTableTests {
    /// The slots of this process's descriptor table (`FDSize` in /proc/self/status).
    static func tableSize(of pid: String = "self") -> Int? {
        let fd = open("/proc/\(pid)/status", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &chunk, chunk.count)
            guard n > 0 else { break }
            bytes += chunk[0..<n]
        }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("FDSize:") {
            return Int(line.dropFirst("FDSize:".count).trimmingPrefix(while: { $0 == " " || $0 == "\t" }))
        }
        return nil
    }

    static var softLimit: Int {
        var limit = rlimit()
        _ = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        return Int(clamping: limit.rlim_cur)
    }

    /// The table holds at least what was asked (other tests of this process may have grown it
    /// already; the daemon's own start is checked on a fresh process: DescriptorTableDaemonTests).
    @Test func reservingLeavesTheTableAtLeastAsLargeAsAsked() throws {
        let want = min(Self.softLimit, 512)
        #expect(DescriptorTable.reserve(slots: want) == want)
        let after = try #require(Self.tableSize())
        #expect(after >= want, "FDSize \(after), \(want) asked")
    }

    @Test func neverBeyondTheSoftLimit() {
        #expect(DescriptorTable.reserve(slots: Self.softLimit + 100) <= Self.softLimit)
    }
}
