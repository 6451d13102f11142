import Glibc
import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// The shell's half of config validation: files that must exist, zones this machine has.
@Suite struct ConfigLoaderTests {
    private func withConfig(_ text: String, _ body: (String) throws -> Void) throws {
        var template = Array("/tmp/cfg.XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        try #require(fd >= 0)
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        try body(path)
    }

    @Test func unknownZoneIsRefusedNamingTheKey() throws {
        try withConfig(#"{"timeZone":"Mars/Olympus"}"#) { path in
            guard case .failure(let e) = ConfigLoader.load(path: path) else { Issue.record("Mars/Olympus accepted"); return }
            #expect(e.key == "timeZone")
            #expect(e.problem.contains("Mars/Olympus"))
            #expect(DaemonCommandLine.main(["workoutd", "--config", path, "--check-config"]) == 78)
        }
    }

    @Test func knownZonesAndPosixStringsAreAccepted() throws {
        let berlin = access(ConfigLoader.zoneDirectory + "Europe/Berlin", R_OK) == 0
        try withConfig(#"{"timeZone":"CET-1CEST,M3.5.0,M10.5.0/3"}"#) { path in
            guard case .success(let c) = ConfigLoader.load(path: path) else { Issue.record("POSIX zone refused"); return }
            #expect(c.timeZone == "CET-1CEST,M3.5.0,M10.5.0/3")
        }
        guard berlin else { return }  // no tzdata on this machine: only the POSIX form can be checked
        try withConfig(#"{"timeZone":"Europe/Berlin"}"#) { path in
            guard case .success(let c) = ConfigLoader.load(path: path) else { Issue.record("Europe/Berlin refused"); return }
            #expect(c.timeZone == "Europe/Berlin")
            #expect(DaemonCommandLine.main(["workoutd", "--config", path, "--check-config"]) == 0)
        }
    }

    @Test func namedFileMustExistButDefaultFileMayBeAbsent() {
        let missing = "/nonexistent-\(getpid()).json"
        guard case .failure(let e) = ConfigLoader.load(path: missing, mustExist: true) else { Issue.record("missing file accepted"); return }
        #expect(e.problem.contains("does not exist"))
        #expect(DaemonCommandLine.main(["workoutd", "--config", missing, "--check-config"]) == 78)
        guard case .success(let c) = ConfigLoader.load(path: missing) else { Issue.record("absent default file refused"); return }
        #expect(c == Config())
    }
}
