import Foundation
import Glibc
import Testing
import TestRequirements

extension ReliabilitySuite {
    /// Faults under a running workout, made real where this machine allows it: the data directory
    /// on a tmpfs that is remounted read-only or filled up (root), and the wall clock stepping an
    /// hour forward and back (through an LD_PRELOAD shim, so the machine's clock is never touched).
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

        /// A daemon whose data directory (XDG_DATA_HOME) is a fresh tmpfs of `size`.
        static func daemonOnTmpfs(size: String) throws -> (DaemonHarness, String) {
            let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}]}"#)
            let mount = d.dir + "/d"
            try Reliability.mountTmpfs(mount, size: size)
            return (d, mount)
        }

        /// Records a short walk with fixes, stops it, and returns its id.
        static func recordAndStop(_ d: some DaemonUnderTest) throws -> String {
            let id = (summary(try d.request(#"{"command":"start","activity":"walking"}"#))["id"] as? String) ?? "?"
            let feeder = FixFeeder(socket: d.feedSocket, start: Date().timeIntervalSince1970, rate: 20)
            usleep(600_000)
            feeder.stop()
            _ = try d.request(#"{"command":"stop"}"#)
            return id
        }

        /// After the fault is gone: the workout is saved whole, indexed, and the journal is removed.
        static func expectSavedWhole(_ d: some DaemonUnderTest, _ id: String) throws {
            let done = try d.waitForStatus(seconds: 15) { $0["state"] as? String == "idle" }
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
            let feeder = FixFeeder(socket: d.feedSocket, start: Date().timeIntervalSince1970, rate: 20)
            usleep(600_000)
            try Reliability.remount(mount, readOnly: true)  // mid-workout
            usleep(400_000)
            feeder.stop()
            _ = try d.request(#"{"command":"stop"}"#)
            try Self.expectHeldBack(d, id, error: "Read-only file system")
            #expect(d.process?.isRunning == true)
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

        // The wall clock steps through the LD_PRELOAD clock shim (Tests/Shims/clockshim.c,
        // `ClockShim`): the daemon sees CLOCK_REALTIME move while the machine's does not.

        // The wall clock stepping an hour forward and two back during a workout is
        // DaemonTimeTests.wallClockStepsDuringAWorkoutChangeNoDuration (in-process, driven clock).

        /// A crash, then a restart with the clock an hour behind (a wrong RTC at boot, fixed later by
        /// NTP). What holds: the workout comes back paused with its recorded durations (not negative,
        /// not an hour), time after the resume counts at once (the restored workout's clock starts at
        /// the journal's last mark, docs/time.md), and stop saves it.
        @Test func restoreWithTheClockAnHourBehind() throws {
            let dir = ClockShim.tempDir()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let (built, why) = ClockShim.build(in: dir)
            guard let shim = built else { Issue.recordIfCI(why); return }
            let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}],"metrics":{"autoPauseSeconds":0}}"#, extraEnv: shim.environment)
            try d.start()
            defer { d.stop() }
            let id = Self.summary(try d.request(#"{"command":"start","activity":"walking"}"#))["id"] as? String ?? "?"
            let feeder = FixFeeder(socket: d.feedSocket, start: Date().timeIntervalSince1970, rate: 10)
            usleep(2_500_000)
            feeder.stop()
            usleep(1_200_000)  // past the journal's next alive mark
            let before = Self.summary(try d.request(#"{"command":"status"}"#))["timerSeconds"] as? Double ?? -1
            d.kill9()
            try shim.set(realtime: -3600)
            try d.start()
            let restored = try d.waitForStatus(seconds: 10) { $0["state"] as? String == "paused" }
            #expect(restored["state"] as? String == "paused")
            let after = Self.summary(restored)["timerSeconds"] as? Double ?? -1
            #expect(after > 2 && after <= before + 0.01, "restored elapsed \(after) s (before the crash \(before) s)")
            _ = try d.request(#"{"command":"resume"}"#)
            usleep(1_500_000)
            let resumed = Self.summary(try d.request(#"{"command":"status"}"#))["timerSeconds"] as? Double ?? -1
            #expect(resumed >= after && resumed < 60, "no hour-long or negative durations: \(resumed) s")
            // Regression: the daemon's clock used to run an hour behind the journal after such a
            // restore, so a resumed workout counted no time until the wall clock caught up.
            #expect(resumed > after + 1, "1.5 s after resume: elapsed \(resumed) s, at restore \(after) s")
            let stopped = Self.summary(try d.request(#"{"command":"stop"}"#))
            Reliability.report("restore with the clock 1 h behind", "elapsed before crash \(before) s, restored \(after) s, 1.5 s after resume \(resumed) s")
            try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
            #expect(FileManager.default.fileExists(atPath: d.dataDir + "/workouts/\(id).json"))
            #expect((stopped["timerSeconds"] as? Double ?? -1) >= after)
        }
    }
}
