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

    @Test func reservingGrowsTheTableOnceAndForAll() throws {
        let before = try #require(Self.tableSize())
        let want = min(Self.softLimit, max(2 * before, 512))
        try #require(want > before, "the soft limit (\(Self.softLimit)) leaves no room to grow a table of \(before)")
        #expect(DescriptorTable.reserve(slots: want) == want)
        let after = try #require(Self.tableSize())
        #expect(after >= want, "FDSize \(before) -> \(after), \(want) asked")
        // Nothing is left open: the next descriptor is a low number.
        let fd = open("/", O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        #expect(fd < before)
    }

    @Test func neverBeyondTheSoftLimit() {
        #expect(DescriptorTable.reserve(slots: Self.softLimit + 100) <= Self.softLimit)
    }
}
