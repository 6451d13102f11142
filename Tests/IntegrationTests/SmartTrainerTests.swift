import Foundation
import Glibc
import Testing
import TestRequirements
import WorkoutCore
@testable import WorkoutDaemon

/// A plan drives a smart trainer: the daemon against a real dbus-daemon with the BlueZ stand-in's
/// FTMS trainer (`dbus-peers --sensors ftms`), which answers control writes as the spec says,
/// follows the ERG target and drops out in the middle. Every power step's target is written
/// within 1 s of its step's start (the first once control is taken), control is taken again
/// after the dropout and the target re-sent within 2 s of the return, a step without power
/// releases the trainer, the end resets it, the trainer's power is the workout's, one lap per
/// step. The peers are real processes; the daemon is embedded (on the system's clocks: the
/// stand-in's trainer and its log follow the wall clock). Each ride takes 12-23 s, waited for
/// suspended (`awaitStatus`, `waitUntil`): it holds no pool thread.
@Suite(.peerBound, .requires(.shared("tools/dbus-peers"), .program(.dbusDaemon), .python(.dbus), .python(.gi)))
struct SmartTrainerTests {
    static let plan = """
        <workout_file><name>Trainer test</name><workout>
        <SteadyState Duration="2" Power="0.8"/>
        <Ramp Duration="4" PowerLow="1.0" PowerHigh="1.2"/>
        <SteadyState Duration="6" Power="0.6"/>
        <FreeRide Duration="2"/>
        <IntervalsT Repeat="1" OnDuration="2" OffDuration="2" OnPower="1.0" OffPower="0.5"/>
        <SteadyState Duration="2" Power="0.9"/>
        <SteadyState Duration="600" Power="0.7"/>
        </workout></workout_file>
        """

    /// The control point's writes as the stand-in logged them: (time, hex).
    static func writes(_ peers: DBusPeers) -> [(t: Double, hex: String)] {
        peers.calls().filter { $0["method"] as? String == "WriteValue-ftms" }.compactMap { c in
            guard let t = c["t"] as? Double, let hex = (c["args"] as? [String])?.first else { return nil }
            return (t, hex)
        }
    }

    /// The stand-in's trainer (4 notifications a second, ERG lag 0.5 s, and `extra` options) and
    /// a daemon reading it with an FTP of 250 W and a debug log file, started; `backoff`: the
    /// daemon's waits between attempts after a dropout (nil: the product's 1, 2, 4 ... s).
    static func ride(_ extra: [String], backoff: SensorConnection.Backoff? = nil) throws -> (peers: DBusPeers, daemon: EmbeddedDaemon) {
        let peers = try DBusPeers(["--bluez", "--sensors", "ftms", "--rate", "4", "--erg-tau", "0.5"] + extra)
        do {
            let config = #"{"feeds":[],"web":null,"ftpWatts":250,"log":{"level":"debug","file":true},"#
                + #""sensors":[{"kind":"bluetooth","address":"C0:FF:EE:00:00:05"}]}"#
            let d = try EmbeddedDaemon(config: config, extraEnv: ["DBUS_SYSTEM_BUS_ADDRESS": peers.address])
            d.environment["DBUS_SYSTEM_BUS_ADDRESS"] = peers.address
            if let backoff { d.ports.sensorBackoff = backoff }
            try d.start()
            return (peers, d)
        } catch {
            peers.stop()
            throw error
        }
    }

    /// `05` + sint16 little-endian.
    static func setPower(_ watts: Int) -> String { String(format: "05%02x%02x", watts & 0xFF, (watts >> 8) & 0xFF) }

    /// The times of the log lines of `event` (UTC seconds).
    static func times(_ lines: [Substring], _ event: String) -> [Double] {
        lines.filter { $0.contains("event=\(event) ") }.compactMap { ISO8601.parse(String($0.prefix { $0 != " " })) }
    }

    @Test func aPlanDrivesTheTrainerThroughADropout() async throws {
        // 4 notifications a second; the trainer drops out after 22 (5.5 s: late in the ramp, after
        // its third write) and can be connected again 1 s later. The daemon's backoff is the
        // product's shape halved (0.5, 1, 2 s; `DaemonPorts.sensorBackoff`): the retry 0.5 s after
        // the drop fails and the one 1.5 s after it connects, about when the third step begins
        // (either side of it: a step that began while the trainer was away is due from its return).
        let (peers, d) = try Self.ride(["--drop-after", "22", "--return-after", "1"], backoff: .init(first: 0.5, longest: 2))
        defer { d.stop(); peers.stop() }
        let planFile = d.dir + "/trainer.zwo"
        try Self.plan.write(toFile: planFile, atomically: true, encoding: .utf8)
        let started = try d.ctl(["start", "indoor_cycling", "--plan", planFile])
        try #require(started.status == 0, "\(started.stderr)")
        // Into the last of the eight steps (20 s of plan, a dropout and a return on the way),
        // until the trainer was asked for its 175 W.
        _ = try await d.awaitStatus(seconds: 50) { (($0["plan"] as? [String: Any])?["stepIndex"] as? Int) == 7 }
        #expect(await waitUntil(seconds: 10) { Self.writes(peers).contains { $0.hex == Self.setPower(175) } }, "no 175 W write")
        let stopped = try d.request(#"{"command":"stop"}"#)
        _ = try await d.awaitStatus(seconds: 30) { $0["state"] as? String == "idle" }
        let lines = await d.awaitLogFileLines(waitingUpTo: 5) { $0.contains { $0.contains("event=workout.saved") } }
        #expect(await waitUntil(seconds: 30) { Self.writes(peers).last?.hex == "01" }, "the trainer was not reset at the end")
        let writes = Self.writes(peers)
        let steps = Self.times(lines, "plan.step")
        try #require(steps.count == 8, "plan.step lines: \(steps)")
        #expect(writes.first?.hex == "00", "Request Control first: \(writes.map(\.hex))")

        // Each power step's target within 1 s of its start (the first: of control being taken).
        let controlTaken = Self.times(lines, "trainer.control")
        try #require(!controlTaken.isEmpty, "no trainer.control line")
        // A step that began while the trainer was away (lost, not yet connected again): from its
        // return.
        let connected = Self.times(lines, "sensor.connected"), lost = Self.times(lines, "sensor.lost")
        func returned(after t: Double) -> Double? {
            guard let drop = lost.filter({ $0 <= t }).max(), let back = connected.first(where: { $0 > drop }), back > t else { return nil }
            return back
        }
        for (i, watts) in [(0, 200), (1, 250), (2, 150), (4, 250), (5, 125), (6, 225), (7, 175)] {
            let since = i == 0 ? max(steps[0], controlTaken[0]) : returned(after: steps[i]) ?? steps[i]
            let hit = writes.first { $0.hex == Self.setPower(watts) && $0.t >= since - 0.05 }
            let late = hit.map { $0.t - since } ?? .infinity
            #expect(late <= 1.0, "step \(i + 1): \(watts) W written \(late) s after its start; writes \(writes.map { ($0.hex, $0.t - steps[0]) })")
        }
        // The ramp moved each second; the free ride released the trainer (Reset) before its end.
        let rampWrites = writes.filter { $0.t > steps[1] && $0.t < steps[2] && $0.hex.hasPrefix("05") }
        #expect(rampWrites.count >= 3, "ramp writes: \(rampWrites.map(\.hex))")
        // The stand-in stamps a write when it reads it and the daemon stamps `plan.step` when it
        // logs it: on a loaded machine the Reset can be stamped a little before its step's line
        // (as each power step's target is allowed 0.05 s above). The step before is 6 s of one
        // steady target, so a Reset in the half second before the free ride's line is its own.
        #expect(writes.contains { $0.hex == "01" && $0.t > steps[3] - 0.5 && $0.t < steps[4] }, "no Reset during the free ride \(steps[3] - steps[0])...\(steps[4] - steps[0]) s; lost \(lost.map { $0 - steps[0] }), connected \(connected.map { $0 - steps[0] }); writes \(writes.map { ($0.hex, $0.t - steps[0]) })")

        // The dropout: control taken again and the target re-sent within 2 s of the return.
        try #require(connected.count >= 2, "the trainer did not come back: \(connected)")
        let back = connected[1]
        let retaken = writes.first { $0.hex == "00" && $0.t >= back - 0.05 }
        let resent = writes.first { $0.hex.hasPrefix("05") && $0.t >= (retaken?.t ?? .infinity) }
        #expect(retaken != nil && resent != nil && resent!.t - back <= 2.0,
                "after the return at \(back): control \(retaken.map { $0.t - back } ?? -1) s, target \(resent.map { $0.t - back } ?? -1) s")
        // The end: the trainer left free.
        #expect(writes.last?.hex == "01", "the last write: \(writes.last?.hex ?? "none")")

        // The trainer's power is the workout's; one lap per step begun.
        let w = try #require(stopped["workout"] as? [String: Any])
        #expect((w["averagePower"] as? Double ?? 0) > 100, "\(w["averagePower"] ?? "nil")")
        #expect((w["laps"] as? [Any])?.count == 8, "laps: \(w["laps"] ?? "none")")
        // What was done: each step's target beside its lap, and a compliance score.
        let done = try #require(w["plan"] as? [String: Any], "no plan in the saved summary: \(w.keys.sorted())")
        #expect((done["steps"] as? [Any])?.count == 8, "\(done)")
        let compliance = try #require(w["compliance"] as? Double, "no compliance: \(w.keys.sorted())")
        #expect(compliance > 0 && compliance <= 100, "compliance \(compliance)")
        // The third step (150 W, ERG, from the return on): what the trainer measured in its last
        // 3 s (from 2 s after the return: the ERG lag is 0.5 s) within 5 %.
        let erg = peers.calls().filter { $0["method"] as? String == "notified-ftms" }.compactMap { c -> (Double, Double)? in
            guard let t = c["t"] as? Double, let a = c["args"] as? [String], let watts = Double(a[0]), a.count >= 5, a[4] == "erg",
                  a[3] == "150" else { return nil }
            return (t, watts)
        }.filter { $0.0 > steps[3] - 3 && $0.0 < steps[3] }
        try #require(!erg.isEmpty, "the trainer never held 150 W in ERG")
        let mean = erg.map(\.1).reduce(0, +) / Double(erg.count)
        #expect((mean - 150).magnitude <= 7.5, "150 W step: the trainer held \(mean) W")
    }

    /// The workout's pause pauses the trainer over the same link (Stop/Pause, 0x08 0x02) and the
    /// resume starts it again (Start/Resume, 0x07) before the step's power: no Reset, no new
    /// Request Control, no reconnection in between; a stop while paused resets it and lets the
    /// link go.
    @Test func aPauseStopsTheTrainerAndTheResumeStartsIt() async throws {
        let (peers, d) = try Self.ride([])
        defer { d.stop(); peers.stop() }
        let planFile = d.dir + "/steady.zwo"
        try #"<workout_file><name>Steady</name><workout><SteadyState Duration="600" Power="0.8"/></workout></workout_file>"#
            .write(toFile: planFile, atomically: true, encoding: .utf8)
        let started = try d.ctl(["start", "indoor_cycling", "--plan", planFile])
        try #require(started.status == 0, "\(started.stderr)")
        try #require(await waitUntil(seconds: 15) { Self.writes(peers).contains { $0.hex == Self.setPower(200) } }, "no 200 W write")

        _ = try d.request(#"{"command":"pause"}"#)
        try #require(await waitUntil(seconds: 30) { Self.writes(peers).contains { $0.hex == "0802" } }, "no Stop/Pause: \(Self.writes(peers).map(\.hex))")
        let pausedAt = try #require(Self.writes(peers).first { $0.hex == "0802" }?.t)
        // The link stays: the trainer's data still flows a second after the pause.
        #expect(await waitUntil(seconds: 30) {
            peers.calls().contains { $0["method"] as? String == "notified-ftms" && ($0["t"] as? Double ?? 0) > pausedAt + 1 }
        }, "the trainer's link went with the pause")

        _ = try d.request(#"{"command":"resume"}"#)
        #expect(await waitUntil(seconds: 30) { Self.writes(peers).last?.hex == Self.setPower(200) && Self.writes(peers).contains { $0.hex == "07" } },
                "no Start/Resume and power after the resume: \(Self.writes(peers).map(\.hex))")
        let since = Self.writes(peers).drop { $0.hex != Self.setPower(200) }.map(\.hex)
        #expect(since == [Self.setPower(200), "0802", "07", Self.setPower(200)], "pause and resume on one link, nothing else: \(since)")

        // Paused again, then stopped while paused: the held link goes, the trainer reset first.
        _ = try d.request(#"{"command":"pause"}"#)
        #expect(await waitUntil(seconds: 30) { Self.writes(peers).filter { $0.hex == "0802" }.count == 2 }, "no second Stop/Pause")
        _ = try d.request(#"{"command":"stop"}"#)
        #expect(await waitUntil(seconds: 30) { Self.writes(peers).last?.hex == "01" }, "the trainer was not reset at the stop: \(Self.writes(peers).map(\.hex))")
        let lines = await d.awaitLogFileLines(waitingUpTo: 5) { $0.contains { $0.contains("event=workout.saved") } }
        #expect(Self.times(lines, "sensor.connected").count == 1, "connected once: the pause kept the link")
        #expect(await waitUntil(seconds: 30) { peers.calls().contains { $0["method"] as? String == "Disconnect" } }, "the trainer's link was let go after the stop")
    }

    /// A plan of five power steps and an open sixth, from `plan` (saved as `named`), ridden on
    /// the stand-in trainer into the open step (whose Reset must come), then stopped (`afterStop`
    /// runs then): each power step's `powers` target written within 1 s of its start (the first:
    /// of control being taken). The trainer's writes, the steps' start times and the saved workout.
    static func rideToTheOpenStep(_ plan: Data, named: String, powers: [(Int, Int)], afterStop: (DBusPeers) async -> Void = { _ in })
        async throws -> (writes: [(t: Double, hex: String)], steps: [Double], workout: [String: Any]) {
        let (peers, d) = try Self.ride([])
        defer { d.stop(); peers.stop() }
        let planFile = d.dir + "/" + named
        try plan.write(to: URL(fileURLWithPath: planFile))
        let started = try d.ctl(["start", "indoor_cycling", "--plan", planFile])
        try #require(started.status == 0, "\(started.stderr)")
        // Into the open step, its Reset written.
        _ = try await d.awaitStatus(seconds: 40) { (($0["plan"] as? [String: Any])?["stepIndex"] as? Int) == 5 }
        #expect(await waitUntil(seconds: 30) { Self.writes(peers).last?.hex == "01" }, "the open step did not release the trainer")
        let stopped = try d.request(#"{"command":"stop"}"#)
        _ = try await d.awaitStatus(seconds: 30) { $0["state"] as? String == "idle" }
        let lines = await d.awaitLogFileLines(waitingUpTo: 5) { $0.contains { $0.contains("event=workout.saved") } }
        await afterStop(peers)
        let steps = Self.times(lines, "plan.step")
        try #require(steps.count == 6, "plan.step lines: \(steps)")
        let controlTaken = Self.times(lines, "trainer.control")
        try #require(!controlTaken.isEmpty, "no trainer.control line")
        let writes = Self.writes(peers)
        for (i, watts) in powers {
            let since = i == 0 ? max(steps[0], controlTaken[0]) : steps[i]
            let hit = writes.first { $0.hex == Self.setPower(watts) && $0.t >= since - 0.05 }
            let late = hit.map { $0.t - since } ?? .infinity
            #expect(late <= 1.0, "step \(i + 1): \(watts) W written \(late) s after its start; writes \(writes.map { ($0.hex, $0.t - steps[0]) })")
        }
        return (writes, steps, try #require(stopped["workout"] as? [String: Any]))
    }

    /// A FIT workout file as a device carries it (type 5: a warm-up in watts, 2 x (work at % of
    /// FTP, recovery in watts) as a repeat, an open free step), started through `workoutctl start
    /// indoor_cycling --plan x.fit`: each power step's target written within 1 s of its start,
    /// the free step releases the trainer, the stop resets it, one lap per step, and the saved
    /// workout carries the plan with its compliance.
    @Test func aFITWorkoutDrivesTheTrainer() async throws {
        var e = FITEncoder()
        e.define(local: 0, global: 0, [.init(0, .enumeration)])
        e.message(local: 0, [5])
        // message_index, duration_type, duration_value (ms), target_type, target_value, custom low, high, intensity.
        e.define(local: 1, global: 27, [.init(254, .uint16), .init(1, .enumeration), .init(2, .uint32), .init(3, .enumeration),
                                         .init(4, .uint32), .init(5, .uint32), .init(6, .uint32), .init(7, .enumeration)])
        e.message(local: 1, [0, 0, 2_000, 4, 0, 1200, 1200, 2])
        e.message(local: 1, [1, 0, 2_000, 4, 0, 100, 100, 5])
        e.message(local: 1, [2, 0, 2_000, 4, 0, 1150, 1150, 4])
        e.message(local: 1, [3, 6, 1, 2, 2, nil, nil, nil])
        e.message(local: 1, [4, 5, nil, 2, nil, nil, nil, 3])

        let (writes, steps, w) = try await Self.rideToTheOpenStep(Data(e.file()), named: "x.fit", powers: [(0, 200), (1, 250), (2, 150), (3, 250), (4, 150)])
        #expect(writes.contains { $0.hex == "01" && $0.t > steps[5] - 0.05 }, "no Reset in the free step")
        #expect((w["laps"] as? [Any])?.count == 6, "laps: \(w["laps"] ?? "none")")
        let plan = try #require(w["plan"] as? [String: Any], "no plan in the saved workout")
        #expect((plan["steps"] as? [Any])?.count == 6)
        #expect((plan["compliance"] as? Double ?? 0) > 50, "compliance \(plan["compliance"] ?? "none")")
    }

    /// The project's JSON plan (docs/plans.md) drives the trainer the same way: a ramp in FTP
    /// fractions, a repeat of work and recovery in watts, an open step; each power step's target
    /// within 1 s of its start, the open step releases the trainer, the stop resets it, one lap
    /// per step, the plan and its compliance in the saved workout.
    @Test func aJSONPlanDrivesTheTrainer() async throws {
        let json = """
            {"name": "JSON test", "steps": [
              {"kind": "warmup", "seconds": 3, "ramp": {"ftp": [0.6, 0.8]}},
              {"repeat": 2, "steps": [
                {"kind": "work", "seconds": 2, "power": {"watts": 240}},
                {"kind": "recovery", "seconds": 2, "power": {"ftp": 0.5}}]},
              {"kind": "cooldown", "open": true}]}
            """
        let (writes, steps, w) = try await Self.rideToTheOpenStep(Data(json.utf8), named: "plan.json", powers: [(0, 150), (1, 240), (2, 125), (3, 240), (4, 125)]) { peers in
            #expect(await waitUntil(seconds: 30) { Self.writes(peers).last?.hex == "01" }, "the trainer was not reset at the end")
        }
        // The ramp moved from 150 W towards 200 W while it ran.
        #expect(writes.contains { $0.t > steps[0] && $0.t < steps[1] && $0.hex.hasPrefix("05") && $0.hex != Self.setPower(150) }, "the ramp never moved")
        #expect((w["laps"] as? [Any])?.count == 6, "laps: \(w["laps"] ?? "none")")
        let plan = try #require(w["plan"] as? [String: Any], "no plan in the saved workout")
        #expect(plan["name"] as? String == "JSON test")
        #expect((plan["steps"] as? [Any])?.count == 6)
        #expect((plan["compliance"] as? Double ?? 0) > 50, "compliance \(plan["compliance"] ?? "none")")
    }
}
