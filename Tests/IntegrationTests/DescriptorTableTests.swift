import Foundation
import Glibc
import Testing

/// Issue 43: `import` passes one descriptor per file, received on the event loop; the kernel
/// grew the daemon's descriptor table there (64 -> 1,024+ slots for 1,000 files), each growth
/// waiting for an RCU grace period with the loop blocked 7-16 ms. The real daemon now holds
/// a table of `DescriptorTable.maxSlots` (or the soft limit) from its start: a count of slots.
@Suite struct DescriptorTableDaemonTests {
    @Test func theDaemonStartsWithTheTableAnImportNeeds() throws {
        let d = try DaemonHarness(config: #"{"feeds":[]}"#)
        try d.start()
        defer { d.stop() }
        let pid = try #require(d.process?.processIdentifier)
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("FDSize:") })
        let slots = try #require(Int(line.dropFirst("FDSize:".count).trimmingCharacters(in: .whitespaces)))
        var limit = rlimit()
        _ = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        let want = min(4096, Int(clamping: limit.rlim_cur))  // the daemon inherits this limit
        #expect(slots >= want, "FDSize \(slots), soft limit \(limit.rlim_cur)")
    }
}
