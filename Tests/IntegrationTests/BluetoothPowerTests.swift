import Foundation
import Glibc
import Testing
import TestRequirements
import WorkoutCore

/// The daemon against a real dbus-daemon with the BlueZ stand-in offering a power meter, a speed
/// and cadence sensor and a footpod (`dbus-peers --bluez --sensors hr,power,csc,rsc`): an indoor
/// ride and a treadmill run measure what the stand-in logged it sent (calls.log), a sensor that
/// drops out and returns leaves a gap and is read again, and the ride's FIT export carries power
/// and cadence on its records as Garmin's FIT SDK reads them. The three tests run side by side.
/// The peers are real processes; the daemons are embedded (on the system's clocks: the stand-in's
/// counters follow the wall clock). The tests await (they hold no pool thread); a dropout's
/// `lost`, which lasts a second or two, is caught by a `StatusWatch` on a thread of its own, since
/// a task suspended on the pool resumes only when a thread is free.
@Suite(.peerBound, .requires(.shared("tools/dbus-peers"), .program(.dbusDaemon), .python(.dbus), .python(.gi)))
struct BluetoothPowerTests {
    static let script = DaemonHarness.projectRoot.appendingPathComponent("Tests/WorkoutCoreTests/Codecs/FIT/fit_power.py").path
    static let wheel = 2.105

    /// The values the stand-in logged for one kind of notification, with their times.
    static func notified(_ peers: DBusPeers, _ kind: String) -> [(t: Double, args: [Double])] {
        peers.calls().filter { $0["method"] as? String == "notified-" + kind }.compactMap { c in
            guard let t = c["t"] as? Double, let a = c["args"] as? [String] else { return nil }
            return (t, a.compactMap { Double($0) })
        }
    }

    static func sensorStates(_ status: [String: Any]) -> [String] {
        (status["sensors"] as? [[String: Any]] ?? []).map { $0["state"] as? String ?? "?" }
    }

    /// An 8 s indoor ride (wall time: the daemon dates readings as they arrive) with a strap, a
    /// power meter and a CSC sensor at 10 notifications a second, each dropping out after 80 (so
    /// the last value the daemon read is known). Normalized power needs 30 s of power: none here.
    /// The same notifications over 34 s, decoded as the daemon decodes them, have it in the
    /// summary the stop reply encodes (`WorkoutLifecycleSensorsTests.thirtySecondsOfTheStandIns
    /// PowerHaveANormalizedPower`) and in the FIT session as the SDK reads it (`FITWriterTests.
    /// theSDKReadsTheSessionsPowerFigures`); `show` prints it (`RendererPowerTests`); its
    /// definition is `PowerAnalysisTests'`.
    @Test func indoorRideMeasuresWhatTheSensorsSent() async throws {
        let sent = 80
        let peers = try DBusPeers(["--bluez", "--sensors", "hr,power,csc", "--rate", "10", "--drop-after", String(sent), "--return-after", "6000"])
        defer { peers.stop() }
        let config = #"{"feeds":[{"kind":"socket"}],"ftpWatts":250,"sensors":[{"kind":"bluetooth","address":"C0:FF:EE:00:00:01"},"#
            + #"{"kind":"bluetooth","address":"C0:FF:EE:00:00:02"},{"kind":"bluetooth","address":"C0:FF:EE:00:00:03","wheelCircumferenceMm":2105}]}"#
        let d = try EmbeddedDaemon(config: config, extraEnv: ["DBUS_SYSTEM_BUS_ADDRESS": peers.address])
        d.environment["DBUS_SYSTEM_BUS_ADDRESS"] = peers.address
        try d.start()
        defer { d.stop() }
        _ = try d.request(#"{"command":"start","activity":"indoor_cycling"}"#)
        // Live: power, cadence, the wheel's speed and the sensor distance within 5 s.
        let live = try await d.awaitStatus(seconds: 30) {
            let w = $0["workout"] as? [String: Any]
            return w?["power"] as? Int != nil && w?["cadence"] as? Int != nil && (w?["distanceMeters"] as? Double ?? 0) > 0
        }
        let lw = live["workout"] as? [String: Any] ?? [:]
        #expect(lw["cadence"] as? Int == 90, "\(lw)")
        #expect(((lw["currentSpeed"] as? Double ?? 0) * 3.6 - 30).magnitude < 0.5, "\(lw["currentSpeed"] ?? "nil")")
        #expect(lw["distanceSource"] as? String == "sensor")
        let services = (live["sensors"] as? [[String: Any]] ?? []).map { ($0["services"] as? [String]) ?? [] }
        #expect(services == [["hr"], ["power"], ["csc"]], "\(live["sensors"] ?? ""); log: \(d.stderrText().suffix(2000))")
        let w0 = Self.watchLine(d)
        #expect(w0.contains(" W") && w0.contains("rpm"), "watch: \(w0)")
        // Every sensor sent its 80 and dropped out.
        let lost = try await d.awaitStatus(seconds: 60) { Self.sensorStates($0) == ["lost", "lost", "lost"] }
        #expect(Self.sensorStates(lost) == ["lost", "lost", "lost"], "\(lost["sensors"] ?? "")")
        let stopped = try d.request(#"{"command":"stop"}"#)
        let w = try #require(stopped["workout"] as? [String: Any])
        let id = try #require(w["id"] as? String)
        _ = try await d.awaitStatus(seconds: 30) { $0["state"] as? String == "idle" }

        let power = Self.notified(peers, "power"), csc = Self.notified(peers, "csc")
        try #require(power.count == sent && csc.count == sent, "sent \(power.count) power, \(csc.count) csc")
        let revolutions = csc.last!.args[0] - csc.first!.args[0]
        let distance = revolutions * Self.wheel
        let got = w["distanceMeters"] as? Double ?? 0
        #expect((got - distance).magnitude <= 0.01 * distance, "distance \(got) m, the wheel turned \(revolutions) x 2.105 m = \(distance) m")
        let watts = power.map { $0.args[0] }
        let mean = watts.reduce(0, +) / Double(watts.count)
        let average = w["averagePower"] as? Double ?? 0
        #expect((average - mean).magnitude <= 2, "average power \(average) W, the power meter sent a mean of \(mean) W")
        let cadence = w["averageCadence"] as? Double ?? 0
        #expect((cadence - 90).magnitude <= 1, "average cadence \(cadence), the stand-in turned the cranks at 90 rpm")
        #expect(w["distanceSource"] as? String == "sensor" && (w["workKilojoules"] as? Double ?? 0) > 0, "\(w)")
        #expect((w["maxPower"] as? Int) == Int(watts.max()!))
        // 8 s of power: no normalized power, nor an intensity factor (30 s needed).
        #expect(w["normalizedPower"] as? Double == nil && w["intensityFactor"] as? Double == nil, "\(w)")
        print("indoor ride: distance \(got) m (wheel \(distance) m), power \(average) W (sent \(mean) W), cadence \(cadence) rpm")

        // `show` prints power and cadence.
        let show = try d.ctl(["show", id])
        #expect(show.stdout.contains("Power:") && !show.stdout.contains(", NP ") && show.stdout.contains("Cadence:"), "\(show.stdout)")

        // The TCX export: Watts and Cadence on trackpoints without a position, and read back.
        let tcxPath = d.dir + "/ride.tcx"
        #expect(try d.ctl(["export", id, "--format", "tcx", "--output", tcxPath]).status == 0)
        let tcx = try [UInt8](Data(contentsOf: URL(fileURLWithPath: tcxPath)))
        let tcxText = String(decoding: tcx, as: UTF8.self)
        #expect(tcxText.contains("<Cadence>90</Cadence>") && tcxText.contains("<Watts>") && !tcxText.contains("<Position>"))
        let back = try Importer.workout(from: Importer.read(tcx, fileName: "ride.tcx"), activity: nil, id: 9, settings: MetricsSettings(),
                                        source: "imported:ride.tcx").summary
        // (Power only as present: a trackpoint a second samples a 10 Hz ramp, so its mean moves.)
        #expect((back.distanceMeters - got).magnitude <= 0.01 * got && back.averagePower != nil,
                "TCX read back: \(back.distanceMeters) m, \(back.averagePower ?? 0) W")
        #expect(back.averageCadence.map { ($0 - 90).magnitude <= 1 } == true, "TCX cadence \(back.averageCadence ?? 0)")

        // The FIT export: power and cadence on the records, as Garmin's FIT SDK reads them.
        let fit = d.dir + "/ride.fit"
        let ex = try d.ctl(["export", id, "--format", "fit", "--output", fit])
        #expect(ex.status == 0, "\(ex.stderr)")
        let r = try Reliability.run(["/usr/bin/env", "python3", Self.script, fit])
        if r.status != 0 && !Reliability.inCI && r.err.contains("garmin_fit_sdk") {
            print("SKIPPED: the FIT check needs garmin-fit-sdk (pip install garmin-fit-sdk)")
            return
        }
        try #require(r.status == 0, "fit_power.py: \(r.err)")
        let f = try DaemonHarness.parse(r.out.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(f["integrity"] as? Bool == true && (f["errors"] as? [Any])?.isEmpty == true, "\(f["errors"] ?? "")")
        let records = f["records"] as? [[Any]] ?? []
        let recPower = records.compactMap { $0[1] as? Int }, recCadence = records.compactMap { $0[2] as? Int }
        #expect(recPower.count >= 5 && recCadence.count >= 5, "\(records.count) records, \(recPower.count) with power, \(recCadence.count) with cadence")
        #expect(recPower.allSatisfy { (150...300).contains($0) } && recCadence.allSatisfy { (89...91).contains($0) }, "\(recPower) \(recCadence)")
        let lastDistance = records.compactMap { $0[4] as? Double }.last ?? 0
        #expect((lastDistance - got).magnitude <= 0.01 * got, "records end at \(lastDistance) m")
        let session = (f["sessions"] as? [[String: Any]])?.first ?? [:]
        #expect((Double(session["avg_power"] as? Int ?? 0) - average).magnitude <= 1, "\(session)")
        #expect(session["avg_cadence"] as? Int == 90, "\(session)")
        print("FIT export: \(records.count) records, \(recPower.count) with power, session \(session)")
    }

    /// The watch line (`workoutctl watch` prints one per status; the first is enough).
    static func watchLine(_ d: some DaemonUnderTest) -> String {
        (try? d.ctl(["status"]))?.stdout ?? ""
    }

    /// A treadmill run with the footpod: its distance is the footpod's total distance.
    @Test func treadmillRunMeasuresTheFootpodsDistance() async throws {
        let peers = try DBusPeers(["--bluez", "--sensors", "rsc", "--rate", "10", "--drop-after", "60", "--return-after", "600"])
        defer { peers.stop() }
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"sensors":[{"kind":"bluetooth","address":"C0:FF:EE:00:00:04"}]}"#,
                                   extraEnv: ["DBUS_SYSTEM_BUS_ADDRESS": peers.address])
        d.environment["DBUS_SYSTEM_BUS_ADDRESS"] = peers.address
        try d.start()
        defer { d.stop() }
        _ = try d.request(#"{"command":"start","activity":"treadmill_running"}"#)
        _ = try await d.awaitStatus(seconds: 15) { Self.sensorStates($0) == ["lost"] }
        let stopped = try d.request(#"{"command":"stop"}"#)
        let w = try #require(stopped["workout"] as? [String: Any])
        let sent = Self.notified(peers, "rsc")
        try #require(sent.count == 60, "the footpod sent \(sent.count)")
        let total = (sent.last!.args[3] - sent.first!.args[3]) / 10
        let got = w["distanceMeters"] as? Double ?? 0
        #expect((got - total).magnitude <= 0.01 * total, "distance \(got) m, the footpod's total distance grew \(total) m")
        // A run's cadence in steps per minute (issue 39): the footpod's own 170.
        #expect(w["distanceSource"] as? String == "sensor" && w["averageCadence"] as? Double == 170, "\(w)")
        print("treadmill: distance \(got) m, footpod \(total) m")
    }

    /// A power meter that drops out and comes back: a gap in the saved readings (no value in
    /// between, none in the FIT export's records), read again after the reconnection.
    @Test func aDroppedSensorLeavesAGapAndIsReadAgain() async throws {
        let peers = try DBusPeers(["--bluez", "--sensors", "power", "--rate", "10", "--drop-after", "20", "--return-after", "1"])
        defer { peers.stop() }
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"sensors":[{"kind":"bluetooth","address":"C0:FF:EE:00:00:02"}]}"#,
                                   extraEnv: ["DBUS_SYSTEM_BUS_ADDRESS": peers.address])
        d.environment["DBUS_SYSTEM_BUS_ADDRESS"] = peers.address
        try d.start()
        defer { d.stop() }
        _ = try d.request(#"{"command":"start","activity":"indoor_cycling"}"#)
        let watch = StatusWatch(d)  // the dropout lasts a second or two
        defer { watch.stop() }
        let lost = await watch.awaitFirst(seconds: 6) { Self.sensorStates($0) == ["lost"] }
        #expect((lost["workout"] as? [String: Any])?["power"] is NSNull, "power shown while the sensor is lost: \(lost)")
        _ = await watch.awaitFirst(seconds: 10) { Self.sensorStates($0) == ["connected"] && ($0["workout"] as? [String: Any])?["power"] as? Int != nil }
        // A second of readings after the return (10 Hz) before the stop.
        #expect(await waitUntil(seconds: 30) { Self.notified(peers, "power").count >= 30 }, "the power meter stopped sending")
        let stopped = try d.request(#"{"command":"stop"}"#)
        let id = try #require((stopped["workout"] as? [String: Any])?["id"] as? String)
        _ = try await d.awaitStatus(seconds: 30) { $0["state"] as? String == "idle" }
        let subscribed = peers.calls().filter { $0["method"] as? String == "StartNotify" }.count
        #expect(subscribed == 2, "StartNotify \(subscribed) times")

        let saved = try WorkoutFile.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: d.dataDir + "/workouts/\(id).json"))))
        let samples = saved.sensors
        let gap = try #require(samples.firstIndex { $0.reading == nil }, "no gap in \(samples.count) samples")
        let before = samples[..<gap].filter { $0.reading?.power != nil }, after = samples[(gap + 1)...].filter { $0.reading?.power != nil }
        #expect(before.count == 20 && after.count >= 5, "\(before.count) readings before the gap, \(after.count) after")
        let resumed = try #require(after.first).time
        #expect(resumed - samples[gap].time >= 0.9, "read again \(resumed - samples[gap].time) s after the drop")
        // The FIT export has no power inside the gap: not a flat line.
        let fit = d.dir + "/gap.fit"
        #expect(try d.ctl(["export", id, "--format", "fit", "--output", fit]).status == 0)
        let r = try Reliability.run(["/usr/bin/env", "python3", Self.script, fit])
        if r.status == 0, let f = try? DaemonHarness.parse(r.out.trimmingCharacters(in: .whitespacesAndNewlines)) {
            let fitEpoch = 631_065_600.0
            let inGap = (f["records"] as? [[Any]] ?? []).filter {
                let t = Double($0[0] as? Int ?? 0) + fitEpoch
                return t > samples[gap].time + 0.5 && t < resumed - 0.5 && $0[1] as? Int != nil
            }
            #expect(inGap.isEmpty, "power inside the gap: \(inGap)")
        } else if Reliability.inCI {
            Issue.record("fit_power.py: \(r.err)")
        }
        print("drop: gap of \(resumed - samples[gap].time) s, \(before.count) readings before, \(after.count) after")
    }
}
