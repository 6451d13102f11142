import Foundation
import Glibc
import Testing
import TestRequirements
import WorkoutClient

/// Issue 16 against the embedded daemon: files passed as descriptors, refusals before reading,
/// folders and Strava's activities.csv, export into a descriptor, edit, Ctrl-C.
@Suite(.serialized, .requires(.sharedData))
struct ImportTests {
    static func shared(_ p: String) -> String { DaemonHarness.sharedRoot.appendingPathComponent("data/" + p).path }

    /// Sends one import request carrying `fds` and returns its event lines and final reply.
    static func importByDescriptors(_ d: some DaemonUnderTest, _ files: [(name: String, fd: Int32)]) throws -> (events: [[String: Any]], reply: [String: Any]) {
        let conn = try LineConnection.connect(path: d.controlSocket)
        let items = files.map { #"{"file":"\#($0.name)"}"# }.joined(separator: ",")
        try conn.send(line: #"{"command":"import","descriptors":[\#(items)]}"#, descriptors: files.map(\.fd))
        var events: [[String: Any]] = []
        while let line = try conn.readLine(timeout: 60) {
            let o = try DaemonHarness.parse(String(decoding: line, as: UTF8.self))
            if o["event"] as? String == "import" { events.append(o); continue }
            return (events, o)
        }
        throw HarnessError.closed
    }

    /// A FIFO, a directory, /dev/zero and a 2 GB sparse file, passed as descriptors (no client
    /// checks in between): each refused by the daemon in words, in well under a second, and the
    /// daemon answers status at once afterwards. The path form refuses them too (a FIFO no
    /// longer hangs the daemon: issue 15 item 9).
    @Test func daemonRefusesWhatIsNotARegularFileBeforeReading() throws {
        let d = try EmbeddedDaemon()
        try d.start()
        defer { d.stop() }
        let fifo = d.dir + "/pipe.gpx", dir = d.dir + "/folder.gpx", sparse = d.dir + "/sparse.gpx"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(mkdir(dir, 0o700) == 0)
        let sfd = open(sparse, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(ftruncate(sfd, 2 << 30) == 0)
        close(sfd)
        let cases: [(String, String, String)] = [(fifo, "a FIFO", "fifo"), (dir, "a directory", "directory"),
                                                 ("/dev/zero", "a character device", "/dev/zero"), (sparse, "larger than the import limit", "2 GB sparse")]
        for (path, words, label) in cases {
            let fd = open(path, O_RDONLY | O_NONBLOCK)
            try #require(fd >= 0, "open \(path)")
            defer { close(fd) }
            let t0 = Reliability.monotonic()
            let (events, reply) = try Self.importByDescriptors(d, [(path, fd)])
            let seconds = Reliability.monotonic() - t0
            Reliability.report("import refused: \(label)", Reliability.ms(seconds))
            #expect(reply["ok"] as? Bool == true && reply["errors"] as? Int == 1, "\(reply)")
            #expect(events.count == 1 && events.first?["result"] as? String == "error")
            let message = events.first?["error"] as? String ?? ""
            #expect(message.contains(words), "\(events)")
            // A hang guard, not a speed target: reading a FIFO without a writer waits for ever.
            #expect(seconds < 5, "\(label) refused in \(seconds) s")
            // The old path form: the daemon opens without blocking and refuses the same way.
            let t1 = Reliability.monotonic()
            let old = try d.request(#"{"command":"import","files":["\#(path)"]}"#)
            #expect(Reliability.monotonic() - t1 < 5)
            let r = (old["results"] as? [[String: Any]])?.first
            #expect(r?["result"] as? String == "error" && (r?["error"] as? String ?? "").contains(words), "\(old)")
        }
        let t2 = Reliability.monotonic()
        #expect(try d.request(#"{"command":"status"}"#)["ok"] as? Bool == true)
        #expect(Reliability.monotonic() - t2 < 0.5)
        #expect((try d.request(#"{"command":"list"}"#)["workouts"] as? [Any])?.isEmpty == true)
    }

    /// A request sent right behind an import on the same connection is answered after the
    /// import's reply, in order.
    @Test func requestsAfterAnImportWaitForItsReply() throws {
        let d = try EmbeddedDaemon()
        try d.start()
        defer { d.stop() }
        let path = Self.shared("gpx/garminconnect.gpx")
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let conn = try LineConnection.connect(path: d.controlSocket)
        try conn.send(line: #"{"command":"import","descriptors":[{"file":"\#(path)"}]}"# + "\n" + #"{"command":"list"}"#, descriptors: [fd])
        var kinds: [String] = []
        while kinds.count < 3, let line = try? conn.readLine(timeout: 5) {
            let o = try DaemonHarness.parse(String(decoding: line, as: UTF8.self))
            kinds.append(o["event"] as? String ?? (o["workouts"] != nil ? "list" : (o["imported"] != nil ? "import-reply" : "?")))
            if let w = o["workouts"] as? [Any] { #expect(w.count == 1, "the list sees the import") }
        }
        #expect(kinds == ["import", "import-reply", "list"])
    }

    /// A request that says it carries descriptors but has none is refused in words.
    @Test func descriptorsMissingAreRefused() throws {
        let d = try EmbeddedDaemon()
        try d.start()
        defer { d.stop() }
        let r = try d.request(#"{"command":"import","descriptors":[{"file":"a.gpx"}]}"#)
        #expect(r["ok"] as? Bool == false)
        let message = (r["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.contains("descriptor"), "\(r)")
    }

    /// A folder (recursively) with Strava's activities.csv: each file gets its title and
    /// activity; what is not a track file is skipped with a word; a second run finds duplicates.
    @Test func folderWithStravaCSV() throws {
        let d = try EmbeddedDaemon()
        try d.start()
        defer { d.stop() }
        let export = d.dir + "/strava"
        let fm = FileManager.default
        try fm.createDirectory(atPath: export + "/activities/nested", withIntermediateDirectories: true)
        try fm.copyItem(atPath: Self.shared("gpx/garmin-edge-800-output.gpx"), toPath: export + "/activities/101.gpx")
        try fm.copyItem(atPath: Self.shared("tcx/bike.tcx"), toPath: export + "/activities/nested/102.tcx")
        try fm.copyItem(atPath: Self.shared("gpx/globalsat_gh625XT.gpx"), toPath: export + "/activities/103.gpx")
        try "a photo".write(toFile: export + "/activities/photo.jpg", atomically: true, encoding: .utf8)
        try #"""
        Activity ID,Activity Date,Activity Name,Activity Type,Filename,Activity Description,Activity Gear,Perceived Exertion
        101,"Apr 12, 2012",Evening spin,Ride,activities/101.gpx,,Canyon,
        102,"Apr 30, 2013","Commute, ""windy""",Mountain Bike Ride,activities/nested/102.tcx,Rain all the way,Canyon,4.0
        103,"Jan 15, 2016",Intervals,Run,activities/103.gpx,6 x 800 m,Pegasus 40,8.0

        """#.write(toFile: export + "/activities.csv", atomically: true, encoding: .utf8)
        let r = try d.ctl(["import", export])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("skipped    \(export)/activities/photo.jpg: not a GPX, TCX, FIT or NMEA file"), "\(r.stdout)")
        #expect(r.stdout.contains("3 imported, 0 duplicates, 0 errors, 1 skipped."), "\(r.stdout)")
        let list = try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []
        #expect(list.map { $0["activity"] as? String ?? "" } == ["cycling", "mountain_biking", "running"])
        let id = try #require(list[1]["id"] as? String)
        let shown = try d.request(#"{"command":"show","id":"\#(id)"}"#)
        #expect(shown["source"] as? String == "imported:102.tcx")
        #expect(list.map { $0["title"] as? String } == ["Evening spin", #"Commute, "windy""#, "Intervals"], "the CSV's titles")
        #expect(list.map { $0["gear"] as? String } == ["Canyon", "Canyon", "Pegasus 40"], "the CSV's gear")
        #expect(list.map { $0["effort"] as? Int } == [nil, 4, 8], "the CSV's perceived exertion")
        #expect(list.map { $0["notes"] as? String } == [nil, "Rain all the way", "6 x 800 m"], "the CSV's descriptions")
        let gear = (try d.request(#"{"command":"totals"}"#)["totals"] as? [String: Any])?["gear"] as? [[String: Any]] ?? []
        #expect(gear.map { $0["name"] as? String } == ["Canyon", "Pegasus 40"], "distance per gear in totals: \(gear)")
        // --activity overrides the CSV; everything is a duplicate now.
        let again = try d.ctl(["--json", "import", export, "--activity", "walking"])
        #expect(again.status == 0)
        #expect(again.stdout.contains("\"duplicates\" : 3") || again.stdout.contains("\"duplicates\": 3"), "\(again.stdout)")
    }

    /// Issue 27 item 9: a Strava title over 64 KB made the request line too long ("request line
    /// longer than 65536 bytes") and workoutctl stopped after the first file; the others were
    /// never sent. Now the title is cut (and the user told) and every file is imported.
    @Test func aTitleOver64KBIsCutAndEveryFileImported() throws {
        let d = try EmbeddedDaemon()
        try d.start()
        defer { d.stop() }
        let export = d.dir + "/strava"
        let fm = FileManager.default
        try fm.createDirectory(atPath: export + "/activities", withIntermediateDirectories: true)
        try fm.copyItem(atPath: Self.shared("gpx/garmin-edge-800-output.gpx"), toPath: export + "/activities/101.gpx")
        try fm.copyItem(atPath: Self.shared("tcx/bike.tcx"), toPath: export + "/activities/102.tcx")
        try fm.copyItem(atPath: Self.shared("gpx/globalsat_gh625XT.gpx"), toPath: export + "/activities/103.gpx")
        let long = String(repeating: "Long.ride.", count: 7_000)  // 70,000 bytes
        try """
        Activity ID,Activity Date,Activity Name,Activity Type,Filename
        101,"Apr 12, 2012",\(long),Ride,activities/101.gpx
        102,"Apr 30, 2013",Commute,Ride,activities/102.tcx
        103,"Jan 15, 2016",Intervals,Run,activities/103.gpx

        """.write(toFile: export + "/activities.csv", atomically: true, encoding: .utf8)
        let r = try d.ctl(["import", export])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("3 imported, 0 duplicates, 0 errors."), "\(r.stdout)")
        #expect(r.stderr.contains("101.gpx: title of 70000 bytes cut to its first 4096"), "\(r.stderr)")
        let list = try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []
        #expect(list.count == 3)
    }

    /// A folder of files with long names (paths of ~460 bytes): 250 of them would make a request
    /// line longer than the daemon's 64 KiB limit (refused: every file an error), so the client
    /// sends fewer per request; all are imported.
    @Test func longPathsAreSentInRequestsUnderTheLineLimit() throws {
        // Warnings only: the harness reads the daemon's stderr pipe at the end, and 260 "imported"
        // lines with these paths would fill it (the daemon would wait on its log writes).
        let d = try EmbeddedDaemon(config: #"{"log":{"level":"warning"}}"#)
        try d.start()
        defer { d.stop() }
        let folder = d.dir + "/" + String(repeating: "d", count: 200) + "/" + String(repeating: "e", count: 200)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let n = 260
        for k in 0..<n {  // a tiny track each, each on another day
            let day = String(format: "2020-%02d-%02d", k / 28 + 1, k % 28 + 1)
            let gpx = """
            <?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="48.0" lon="11.0"><time>\(day)T10:00:00Z</time></trkpt>
            <trkpt lat="48.0005" lon="11.0"><time>\(day)T10:00:20Z</time></trkpt>
            <trkpt lat="48.0010" lon="11.0"><time>\(day)T10:00:40Z</time></trkpt>
            </trkseg></trk></gpx>
            """
            try gpx.write(toFile: folder + "/" + String(format: "%03d-", k) + String(repeating: "f", count: 40) + ".gpx", atomically: true, encoding: .utf8)
        }
        let r = try d.ctl(["import", folder])
        #expect(r.status == 0, "\(r.stdout.suffix(500))\(r.stderr)")
        #expect(r.stdout.contains("\(n) imported, 0 duplicates, 0 errors."), "\(r.stdout.suffix(500))")
        #expect((try d.request(#"{"command":"list"}"#)["workouts"] as? [Any])?.count == n)
    }

    /// Export into a descriptor: --output, stdout as a pipe and as a file all give the bytes of
    /// the older content-in-JSON form; `edit` changes the activity and survives a restart.
    @Test func exportIntoADescriptorAndEdit() throws {
        let d = try EmbeddedDaemon()
        try d.start()
        defer { d.stop() }
        #expect(try d.ctl(["import", Self.shared("tcx/bike.tcx"), "--activity", "running"]).status == 0)
        let id = try #require((try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]])?.first?["id"] as? String)
        for format in ["gpx", "tcx", "json"] {
            let content = try d.request(#"{"command":"export","id":"\#(id)","format":"\#(format)"}"#)["content"] as? String ?? ""
            #expect(content.count > 1000)
            let out = d.dir + "/out." + format
            let r = try d.ctl(["export", id, "--format", format, "--output", out])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(try String(contentsOfFile: out, encoding: .utf8) == content, "--output \(format)")
            let piped = try d.ctl(["export", id, "--format", format])  // stdout is a pipe here
            #expect(piped.stdout == content, "stdout \(format)")
            let viaFile = try Reliability.run(["/bin/sh", "-c", "\"$0\" export \"$1\" --format \"$2\" > \"$3\"", DaemonHarness.binary("workoutctl"), id, format, out + ".2"],
                                              environment: d.environment)
            #expect(viaFile.status == 0)
            #expect(try String(contentsOfFile: out + ".2", encoding: .utf8) == content, "stdout redirected to a file, \(format)")
        }
        #expect(try d.ctl(["export", "20200101T000000Z-0000", "--format", "gpx", "--output", d.dir + "/none.gpx"]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: d.dir + "/none.gpx"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: d.dir).filter { $0.contains(".tmp-") }.isEmpty)

        let edited = try d.ctl(["--json", "edit", id, "--activity", "cycling"])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout.contains("\"activity\" : \"cycling\"") || edited.stdout.contains("\"activity\": \"cycling\""), "\(edited.stdout)")
        d.stop()
        try d.start()
        let after = try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []
        #expect(after.count == 1 && after.first?["activity"] as? String == "cycling" && after.first?["id"] as? String == id)
        #expect(try d.ctl(["edit", "20200101T000000Z-0000", "--activity", "cycling"]).status == 1)
    }

    /// Ctrl-C: the client shuts its writing side; the daemon stops after the current file and
    /// what it imported stays (and is listed after a restart).
    @Test func interruptedBatchKeepsWhatWasImported() throws {
        let d = try EmbeddedDaemon()
        try d.start()
        defer { d.stop() }
        let folder = d.dir + "/many"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Split once at its day: 40 replacements in 3.7 MB took ~9 s of the test here.
        let template = try String(contentsOfFile: Self.shared("tcx/gtrnctr_power.tcx"), encoding: .utf8).components(separatedBy: "2010-05-28T")
        for k in 0..<40 {  // different recordings (3.7 MB each): each moved to another day
            let shifted = template.joined(separator: String(format: "2010-%02d-%02dT", k / 28 + 6, k % 28 + 1))
            try shifted.write(toFile: folder + String(format: "/%02d.tcx", k), atomically: true, encoding: .utf8)
        }
        let conn = try LineConnection.connect(path: d.controlSocket)
        var fds: [Int32] = []
        var items: [String] = []
        for k in 0..<40 {
            let p = folder + String(format: "/%02d.tcx", k)
            fds.append(open(p, O_RDONLY))
            items.append(#"{"file":"\#(p)"}"#)
        }
        try conn.send(line: #"{"command":"import","descriptors":[\#(items.joined(separator: ","))]}"#, descriptors: fds)
        for fd in fds { close(fd) }
        // Wait for the first result, then "Ctrl-C".
        var events = 0
        var reply: [String: Any] = [:]
        while let line = try conn.readLine(timeout: 60) {
            let o = try DaemonHarness.parse(String(decoding: line, as: UTF8.self))
            if o["event"] != nil {
                events += 1
                if events == 1 { shutdown(conn.fd, Int32(SHUT_WR)) }
                continue
            }
            reply = o
            break
        }
        #expect(reply["cancelled"] as? Bool == true, "\(reply)")
        let imported = reply["imported"] as? Int ?? -1
        #expect(imported >= 1 && imported < 40, "\(reply)")
        #expect(events == imported + (reply["duplicates"] as? Int ?? 0) + (reply["errors"] as? Int ?? 0))
        d.stop()
        try d.start()
        #expect((try d.request(#"{"command":"list"}"#)["workouts"] as? [Any])?.count == imported, "kept after a restart")
    }
}
