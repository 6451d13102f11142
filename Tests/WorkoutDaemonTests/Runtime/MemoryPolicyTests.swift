import Glibc
import Testing
import WorkoutSystem

@Suite struct MemoryPolicyTests {
    /// `RssFile` of /proc/self/status, in kB.
    static func residentFileKB() -> Int {
        guard let status = try? readRegularFile("/proc/self/status", limit: 1 << 20) else { return -1 }
        let line = String(decoding: status, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("RssFile:") }
        return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? -1
    }

    /// The executable's code pages are handed back (resident file pages drop) and code runs on:
    /// what runs next is mapped again.
    @Test func codePagesAreReleasedAndCodeRunsOn() {
        let before = MemoryPolicyTests.residentFileKB()
        let released = MemoryPolicy.releaseCodePages()
        let after = MemoryPolicyTests.residentFileKB()
        #expect(released > 1 << 20, "\(released) bytes of code")
        #expect(before > 0 && after < before, "RssFile \(before) kB -> \(after) kB")
        #expect([3, 1, 2].sorted() == [1, 2, 3] && MemoryPolicyTests.residentFileKB() > 0)
    }
}
