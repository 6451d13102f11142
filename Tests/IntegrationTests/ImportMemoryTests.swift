import Foundation
import Glibc
import Testing
import TestRequirements

/// Bulk work keeps the memory it frees for the next file (MemoryPolicy): before, every file of a
/// batch faulted fresh, zeroed pages in again (1,230 page faults per MB of NMEA imported; 722,000
/// and 2.5 s of kernel time for the 1,000-file FIT benchmark). Counted in the daemon's own
/// `/proc/PID/stat` over an import of eight 1.5 MB logs (bundg_zeus_9 re-timed over 3 hours,
/// each on another day): with the policy about 260 per MB; the bound is 600. The real process (its
/// page faults are the point); the test awaits the python re-timings and the import
/// (`writeSuspending`, `ctlSuspending`): it holds no pool thread meanwhile.
@Suite(.serialized, .requires(.sharedData, .program(.python3)))
struct ImportMemoryTests {
    /// Minor page faults of a process so far (field 10 of /proc/PID/stat).
    static func minorFaults(_ pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The command name (field 2) is in parentheses and may hold spaces: count after it.
        let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
        return try #require(Int(fields[7]))
    }

    @Test func aBatchReusesFreedMemoryInsteadOfFaultingItInAgain() async throws {
        let d = try DaemonHarness()
        try d.start()
        defer { d.stop() }
        let folder = d.dir + "/logs"
        let bytes = try await RetimedLogs.writeSuspending(capture: "bundg_zeus_9.log", seconds: 10800, copies: 8, into: folder)
        let pid = try #require(d.process?.processIdentifier)
        let before = try Self.minorFaults(pid)
        let r = try await d.ctlSuspending(["import", folder])
        #expect(r.status == 0 && r.stdout.contains("8 imported"), "\(r.stdout) \(r.stderr)")
        let faults = try Self.minorFaults(pid) - before
        let perMB = Double(faults) / (Double(bytes) / 1e6)
        print("import of \(bytes) bytes: \(faults) minor page faults in the daemon, \(Int(perMB)) per MB")
        #expect(perMB < 600, "\(faults) page faults for \(bytes) bytes: freed memory is given back and faulted in again")
    }
}
