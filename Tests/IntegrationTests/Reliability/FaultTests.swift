import Foundation
import Glibc
import Testing

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
        static func recordAndStop(_ d: DaemonHarness) throws -> String {
            let id = (summary(try d.request(#"{"command":"start","activity":"walking"}"#))["id"] as? String) ?? "?"
            let feeder = FixFeeder(socket: d.feedSocket, start: Date().timeIntervalSince1970, rate: 20)
            usleep(600_000)
            feeder.stop()
            _ = try d.request(#"{"command":"stop"}"#)
            return id
        }

        /// After the fault is gone: the workout is saved whole, indexed, and the journal is removed.
        static func expectSavedWhole(_ d: DaemonHarness, _ id: String) throws {
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
        static func expectHeldBack(_ d: DaemonHarness, _ id: String, error: String) throws {
            let failing = try d.waitForStatus(seconds: 5) { ($0["saveError"] as? String) != nil }
            #expect(failing["state"] as? String == "saving")
            #expect((failing["saveError"] as? String)?.contains(error) == true, "saveError: \(failing["saveError"] ?? "none")")
            #expect(FileManager.default.fileExists(atPath: d.stateDir + "/current.journal"), "the workout stays in the journal")
            #expect(!FileManager.default.fileExists(atPath: d.dataDir + "/workouts/\(id).json"))
        }

        @Test(.enabled(if: Reliability.rootUsable, "needs root to mount a tmpfs (CI runs as root)"))
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

        @Test(.enabled(if: Reliability.rootUsable, "needs root to mount a tmpfs (CI runs as root)"))
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

        /// An LD_PRELOAD shim adding the seconds in $WALL_OFFSET_FILE to CLOCK_REALTIME (and
        /// gettimeofday/time): the daemon sees its wall clock step while the machine's does not.
        static let shimSource = #"""
    #define _GNU_SOURCE
    #include <dlfcn.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <sys/time.h>
    #include <time.h>
    static long offset(void) {
        const char *f = getenv("WALL_OFFSET_FILE");
        long off = 0;
        FILE *fp = f ? fopen(f, "r") : NULL;
        if (fp) { if (fscanf(fp, "%ld", &off) != 1) off = 0; fclose(fp); }
        return off;
    }
    int clock_gettime(clockid_t id, struct timespec *ts) {
        static int (*real)(clockid_t, struct timespec *);
        if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
        int rc = real(id, ts);
        if (rc == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) ts->tv_sec += offset();
        return rc;
    }
    int gettimeofday(struct timeval *tv, void *tz) {
        struct timespec ts;
        int rc = clock_gettime(CLOCK_REALTIME, &ts);
        if (rc == 0 && tv) { tv->tv_sec = ts.tv_sec; tv->tv_usec = ts.tv_nsec / 1000; }
        (void)tz;
        return rc;
    }
    time_t time(time_t *t) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        if (t) *t = ts.tv_sec;
        return ts.tv_sec;
    }
    """#

        /// Builds the shim; nil (with the reason) when no C compiler is available.
        static func buildShim(in dir: String) -> (String?, String) {
            let src = dir + "/wallshim.c", lib = dir + "/wallshim.so"
            try? shimSource.write(toFile: src, atomically: true, encoding: .utf8)
            for cc in ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang", "/opt/swift/usr/bin/clang"] where FileManager.default.isExecutableFile(atPath: cc) {
                if let r = try? Reliability.run([cc, "-shared", "-fPIC", "-O1", "-o", lib, src, "-ldl"]), r.status == 0 { return (lib, cc) }
            }
            return (nil, "no C compiler could build the LD_PRELOAD shim")
        }

        static func setOffset(_ file: String, _ seconds: Int) throws {
            try "\(seconds)\n".write(toFile: file, atomically: true, encoding: .utf8)
        }

        @Test func wallClockSteppingAnHourDuringAWorkout() throws {
            var t = Array("/tmp/wc.XXXXXX".utf8CString)
            let dir = String(cString: mkdtemp(&t)!)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let (shimPath, why) = Self.buildShim(in: dir)
            guard let shim = shimPath else { Issue.recordIfCI(why); return }
            let offsetFile = dir + "/offset"
            try Self.setOffset(offsetFile, 0)
            let env = ["LD_PRELOAD": shim, "WALL_OFFSET_FILE": offsetFile]
            let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}],"metrics":{"autoPauseSeconds":0}}"#, extraEnv: env)
            try d.start()
            defer { d.stop() }
            let t0 = Date().timeIntervalSince1970
            let started = Self.summary(try d.request(#"{"command":"start","activity":"walking"}"#))
            let id = started["id"] as? String ?? "?"
            let feeder = FixFeeder(socket: d.feedSocket, start: t0, rate: 10)
            defer { feeder.stop() }
            usleep(1_500_000)
            try Self.setOffset(offsetFile, 3600)  // the clock jumps an hour forward
            usleep(1_500_000)
            let ahead = Self.summary(try d.request(#"{"command":"status"}"#))
            try Self.setOffset(offsetFile, -3600)  // and then two hours back (an hour behind true time)
            usleep(1_500_000)
            let behind = Self.summary(try d.request(#"{"command":"status"}"#))

            // The shim is live: a second daemon started now believes it is an hour behind.
            let other = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}]}"#, extraEnv: env)
            try other.start()
            let otherStart = Self.seconds(Self.summary(try other.request(#"{"command":"start","activity":"yoga"}"#))["startedAt"])
            other.stop()
            #expect(abs(otherStart - (Date().timeIntervalSince1970 - 3600)) < 10, "the shim shifts the daemon's wall clock (a daemon started now reports \(otherStart - Date().timeIntervalSince1970) s)")

            feeder.stop()
            let real = Date().timeIntervalSince1970 - t0
            let stopped = Self.summary(try d.request(#"{"command":"stop"}"#))
            let elapsedAhead = ahead["elapsedSeconds"] as? Double ?? -1
            let elapsedBehind = behind["elapsedSeconds"] as? Double ?? -1
            let elapsed = stopped["elapsedSeconds"] as? Double ?? -1
            let moving = stopped["movingSeconds"] as? Double ?? -1
            #expect(elapsedAhead > 2 && elapsedAhead < 5, "after +1 h: elapsed \(elapsedAhead) s")
            #expect(elapsedBehind > elapsedAhead && elapsedBehind < 7, "after -1 h: elapsed \(elapsedBehind) s")
            #expect(abs(elapsed - real) < 1.5, "elapsed \(elapsed) s, really \(real) s")
            #expect(moving > real - 3 && moving <= elapsed + 0.01, "moving \(moving) s of \(real) s walking")
            let startedAt = Self.seconds(started["startedAt"])
            let endedAt = Self.seconds(stopped["endedAt"])
            #expect(abs(startedAt - t0) < 2, "startedAt is the true start time")
            #expect(abs((endedAt - startedAt) - elapsed) < 1.5, "endedAt - startedAt = \(endedAt - startedAt) s, elapsed \(elapsed) s")
            Reliability.report("wall clock +1 h then -2 h during a \(String(format: "%.1f", real)) s workout", "elapsed \(String(format: "%.2f", elapsed)) s, moving \(String(format: "%.2f", moving)) s, endedAt - startedAt \(String(format: "%.2f", endedAt - startedAt)) s")
            try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
            #expect(FileManager.default.fileExists(atPath: d.dataDir + "/workouts/\(id).json"))
        }

        /// A crash, then a restart with the clock an hour behind (a wrong RTC at boot, fixed later by
        /// NTP). What holds: the workout comes back paused with its recorded durations (not negative,
        /// not an hour), time after the resume counts at once (the restored workout's clock starts at
        /// the journal's last mark, docs/time.md), and stop saves it.
        @Test func restoreWithTheClockAnHourBehind() throws {
            var t = Array("/tmp/wc.XXXXXX".utf8CString)
            let dir = String(cString: mkdtemp(&t)!)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let (shimPath, why) = Self.buildShim(in: dir)
            guard let shim = shimPath else { Issue.recordIfCI(why); return }
            let offsetFile = dir + "/offset"
            try Self.setOffset(offsetFile, 0)
            let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}],"metrics":{"autoPauseSeconds":0}}"#, extraEnv: ["LD_PRELOAD": shim, "WALL_OFFSET_FILE": offsetFile])
            try d.start()
            defer { d.stop() }
            let id = Self.summary(try d.request(#"{"command":"start","activity":"walking"}"#))["id"] as? String ?? "?"
            let feeder = FixFeeder(socket: d.feedSocket, start: Date().timeIntervalSince1970, rate: 10)
            usleep(2_500_000)
            feeder.stop()
            usleep(1_200_000)  // past the journal's next alive mark
            let before = Self.summary(try d.request(#"{"command":"status"}"#))["elapsedSeconds"] as? Double ?? -1
            d.kill9()
            try Self.setOffset(offsetFile, -3600)
            try d.start()
            let restored = try d.waitForStatus(seconds: 10) { $0["state"] as? String == "paused" }
            #expect(restored["state"] as? String == "paused")
            let after = Self.summary(restored)["elapsedSeconds"] as? Double ?? -1
            #expect(after > 2 && after <= before + 0.01, "restored elapsed \(after) s (before the crash \(before) s)")
            _ = try d.request(#"{"command":"resume"}"#)
            usleep(1_500_000)
            let resumed = Self.summary(try d.request(#"{"command":"status"}"#))["elapsedSeconds"] as? Double ?? -1
            #expect(resumed >= after && resumed < 60, "no hour-long or negative durations: \(resumed) s")
            // Regression: the daemon's clock used to run an hour behind the journal after such a
            // restore, so a resumed workout counted no time until the wall clock caught up.
            #expect(resumed > after + 1, "1.5 s after resume: elapsed \(resumed) s, at restore \(after) s")
            let stopped = Self.summary(try d.request(#"{"command":"stop"}"#))
            Reliability.report("restore with the clock 1 h behind", "elapsed before crash \(before) s, restored \(after) s, 1.5 s after resume \(resumed) s")
            try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
            #expect(FileManager.default.fileExists(atPath: d.dataDir + "/workouts/\(id).json"))
            #expect((stopped["elapsedSeconds"] as? Double ?? -1) >= after)
        }
    }
}
