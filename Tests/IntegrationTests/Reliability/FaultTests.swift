import Foundation
import Glibc
import Testing
import TestRequirements
@testable import WorkoutDaemon

extension ReliabilitySuite {
    /// Faults under a running workout, made real where this machine allows it: the data directory
    /// on a tmpfs that is remounted read-only or filled up (root), and a crash followed by a
    /// restart with the clock an hour behind. The daemon is embedded on a `ManualClock`: the
    /// fixes are dated on it, the save's retries (backoff 1, 2, 4 s) are the test's clock moving,
    /// and a crash is what it leaves on disk (`EmbeddedDaemon(copyingStateOf:)`).
    /// gpsd killed and restarted mid-workout is GpsdIntegrationTests.recordingContinuesAfterGpsdRestarts.
    @Suite struct FaultTests {
        static func summary(_ status: [String: Any]) -> [String: Any] { status["workout"] as? [String: Any] ?? [:] }

        /// An ISO-8601 time from a reply (whole or fractional seconds), as seconds since 1970; 0 if absent.
        static func seconds(_ v: Any?) -> Double {
            guard let s = v as? String else { return 0 }
            let f = ISO8601DateFormatter()
            if let d = f.date(from: s) { return d.timeIntervalSince1970 }
            f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return f.date(from: s)?.timeIntervalSince1970 ?? 0
        }

        /// A daemon on a `ManualClock` whose data directory (XDG_DATA_HOME) is a fresh tmpfs of `size`.
        static func daemonOnTmpfs(size: String) throws -> (EmbeddedDaemon, String) {
            let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}]}"#, clock: ManualClock())
            let mount = d.dir + "/d"
            try Reliability.mountTmpfs(mount, size: size)
            return (d, mount)
        }

        /// Records a 1 s walk (20 fixes), stops it, and returns its id.
        static func recordAndStop(_ d: EmbeddedDaemon) throws -> String {
            let id = (summary(try d.request(#"{"command":"start","activity":"walking"}"#))["id"] as? String) ?? "?"
            _ = try ShutdownRestartTests.feedFixes(d, start: d.clock?.wall() ?? 0, seconds: 1, rate: 20)
            _ = try d.request(#"{"command":"stop"}"#)
            return id
        }

        /// After the fault is gone: the next retry (the clock moved a second at a time, at most
        /// 15 s) saves the workout whole, indexed, and the journal is removed.
        static func expectSavedWhole(_ d: EmbeddedDaemon, _ id: String) throws {
            func idle() throws -> Bool { try d.request(#"{"command":"status"}"#)["state"] as? String == "idle" }
            var moved = 0.0
            while try !idle(), moved < 15 {
                d.advance(1)
                moved += 1
                try pollUntil(seconds: 2) { try idle() }
            }
            let done = try d.request(#"{"command":"status"}"#)
            #expect(done["state"] as? String == "idle", "\(done)")
            let file = d.dataDir + "/workouts/\(id).json"
            let saved = try DaemonHarness.parse(String(contentsOfFile: file, encoding: .utf8))
            #expect(((saved["points"] as? [Any])?.count ?? 0) >= 5, "the saved file holds the fixes")
            let index = (try? String(contentsOfFile: d.stateDir + "/index.jsonl", encoding: .utf8)) ?? ""
            #expect(index.contains(id), "indexed")
            let leftovers = ((try? FileManager.default.contentsOfDirectory(atPath: d.dataDir + "/workouts")) ?? []).filter { !$0.hasSuffix(".json") }
            #expect(leftovers.isEmpty, "no temporary files left behind: \(leftovers)")
            #expect(!FileManager.default.fileExists(atPath: d.stateDir + "/current.journal"))
        }

        /// While the fault lasts: saving, the error in words, the journal kept (a `start` meanwhile
        /// is not refused: SaveFailureTests).
        static func expectHeldBack(_ d: some DaemonUnderTest, _ id: String, error: String) throws {
            let failing = try d.waitForStatus(seconds: 5) { ($0["saveError"] as? String) != nil }
            #expect(failing["state"] as? String == "saving")
            #expect((failing["saveError"] as? String)?.contains(error) == true, "saveError: \(failing["saveError"] ?? "none")")
            #expect(FileManager.default.fileExists(atPath: d.stateDir + "/current.journal"), "the workout stays in the journal")
            #expect(!FileManager.default.fileExists(atPath: d.dataDir + "/workouts/\(id).json"))
        }

        @Test(.requires(.root))
        func dataDirectoryTurningReadOnly() throws {
            guard Reliability.requireRoot() else { return }
            let (d, mount) = try Self.daemonOnTmpfs(size: "16m")
            defer { Reliability.unmount(mount) }
            try d.start()
            defer { d.stop() }
            let id = (Self.summary(try d.request(#"{"command":"start","activity":"walking"}"#))["id"] as? String) ?? "?"
            let t0 = d.clock?.wall() ?? 0
            _ = try ShutdownRestartTests.feedFixes(d, start: t0, seconds: 1, rate: 20)
            try Reliability.remount(mount, readOnly: true)  // mid-workout
            _ = try ShutdownRestartTests.feedFixes(d, start: t0 + 1, index0: 20, before: 20, seconds: 1, rate: 20)
            _ = try d.request(#"{"command":"stop"}"#)
            try Self.expectHeldBack(d, id, error: "Read-only file system")
            #expect(d.isRunning)
            try Reliability.remount(mount, readOnly: false)
            try Self.expectSavedWhole(d, id)
            #expect(d.stderrText().contains("event=workout.save_failed"))
        }

        @Test(.requires(.root))
        func diskFilling() throws {
            guard Reliability.requireRoot() else { return }
            let (d, mount) = try Self.daemonOnTmpfs(size: "1m")
            defer { Reliability.unmount(mount) }
            try d.start()
            defer { d.stop() }
            // Fill what is left (dd stops at ENOSPC).
            _ = try Reliability.run(["/bin/dd", "if=/dev/zero", "of=\(mount)/filler", "bs=4k"])
            var fs = statvfs()
            #expect(statvfs(mount, &fs) == 0 && fs.f_bavail == 0, "the tmpfs is full")
            let id = try Self.recordAndStop(d)
            try Self.expectHeldBack(d, id, error: "No space left on device")
            let leftovers = ((try? FileManager.default.contentsOfDirectory(atPath: d.dataDir + "/workouts")) ?? []).filter { !$0.hasSuffix(".json") }
            #expect(leftovers.isEmpty, "a failed save leaves no partial file: \(leftovers)")
            try FileManager.default.removeItem(atPath: mount + "/filler")
            try Self.expectSavedWhole(d, id)
        }

        // MARK: - Wall clock steps

        // The wall clock stepping an hour forward and two back during a workout is
        // DaemonTimeTests.wallClockStepsDuringAWorkoutChangeNoDuration (in-process, driven clock).

        /// A crash, then a restart with the clock an hour behind (a wrong RTC at boot, fixed later by
        /// NTP). What holds: the workout comes back paused with its recorded durations (not negative,
        /// not an hour), time after the resume counts at once (the restored workout's clock starts at
        /// the journal's last mark, docs/time.md), and stop saves it. The crash is what the daemon
        /// left on disk; the next daemon starts on it 5 s later by the true time, on a clock an hour
        /// behind.
        @Test func restoreWithTheClockAnHourBehind() throws {
            let clock = ManualClock()
            let crashed = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"metrics":{"autoPauseSeconds":0}}"#, clock: clock)
            try crashed.start()
            defer { crashed.stop() }
            let id = Self.summary(try crashed.request(#"{"command":"start","activity":"walking"}"#))["id"] as? String ?? "?"
            _ = try ShutdownRestartTests.feedFixes(crashed, start: clock.wall(), seconds: 3, rate: 10)
            crashed.advance(1.2)  // past the journal's next alive mark
            let before = Self.summary(try crashed.request(#"{"command":"status"}"#))["timerSeconds"] as? Double ?? -1
            let d = try EmbeddedDaemon(copyingStateOf: crashed)
            d.ports.clock = ManualClock(realtime: clock.wall() + 5 - 3600)
            try d.start()
            defer { d.stop() }
            let restored = try d.waitForStatus(seconds: 10) { $0["state"] as? String == "paused" }
            #expect(restored["state"] as? String == "paused")
            let after = Self.summary(restored)["timerSeconds"] as? Double ?? -1
            #expect(after > 2 && after <= before + 0.01, "restored elapsed \(after) s (before the crash \(before) s)")
            _ = try d.request(#"{"command":"resume"}"#)
            d.advance(1.5)
            let resumed = Self.summary(try d.request(#"{"command":"status"}"#))["timerSeconds"] as? Double ?? -1
            // Regression: the daemon's clock used to run an hour behind the journal after such a
            // restore, so a resumed workout counted no time until the wall clock caught up.
            #expect(abs(resumed - (after + 1.5)) < 0.001, "1.5 s after resume: elapsed \(resumed) s, at restore \(after) s")
            let stopped = Self.summary(try d.request(#"{"command":"stop"}"#))
            Reliability.report("restore with the clock 1 h behind", "elapsed before crash \(before) s, restored \(after) s, 1.5 s after resume \(resumed) s")
            try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
            #expect(FileManager.default.fileExists(atPath: d.dataDir + "/workouts/\(id).json"))
            #expect(abs((stopped["timerSeconds"] as? Double ?? -1) - (after + 1.5)) < 0.001)
        }
    }
}
