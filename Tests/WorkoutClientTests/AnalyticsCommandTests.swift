import Testing
import WorkoutCore
@testable import WorkoutClient

/// `fitness`, `power-curve` and `records`: parsed into their requests, bad dates refused as
/// usage errors, and the replies rendered as tables.
@Suite struct AnalyticsCommandTests {
    func command(_ args: String...) -> ClientCommand? {
        guard case .success(let inv) = ArgumentParser.parse(args, cwd: "/") else { return nil }
        return inv.command
    }

    func usageError(_ args: String...) -> String? {
        guard case .failure(let e) = ArgumentParser.parse(args, cwd: "/") else { return nil }
        return "\(e)"
    }

    @Test func parsesRangesAndActivities() {
        let d = StreakDay(year: 2026, month: 1, day: 1)
        #expect(command("fitness") == .send(.analytics(.fitness(DayRange()))))
        #expect(command("fitness", "--from", "2026-01-01", "--to", "2026-01-31") == .send(.analytics(.fitness(DayRange(from: d, to: d.adding(days: 30))))))
        #expect(command("power-curve", "--activity", "cycling", "--from", "2026-01-01") == .send(.analytics(.powerCurve(.cycling, DayRange(from: d)))))
        #expect(command("records") == .send(.analytics(.records(nil))))
        #expect(command("records", "--activity", "running") == .send(.analytics(.records(.running))))
        #expect(usageError("fitness", "--from", "2026-02-30")?.contains("YYYY-MM-DD") == true)
        #expect(usageError("fitness", "--from", "2026-02-02", "--to", "2026-02-01")?.contains("after") == true)
        #expect(usageError("power-curve", "--activity", "flying")?.contains("unknown activity") == true)
        #expect(usageError("records", "extra") != nil)
        for name in ["fitness", "power-curve", "records"] { #expect(CommandHelp.named(name) != nil, "\(name) has no --help") }
    }

    @Test func rendersTheReplies() throws {
        let r = Renderer()
        let fitness = try JSON.parse(#"{"ok":true,"today":"2026-03-02","days":[{"date":"2026-03-01","load":100,"fitness":2.4,"fatigue":13.3,"form":-11},{"date":"2026-03-02","load":0,"fitness":2.3,"fatigue":11.5,"form":-9.2}]}"#)
        let text = r.analytics(.fitness(DayRange()), fitness)
        #expect(text.contains("FITNESS") && text.contains("2026-03-02 (today)") && text.contains("-11.0"), "\(text)")
        let curve = try JSON.parse(#"{"ok":true,"curve":[{"seconds":5,"watts":812.4,"id":"2026-05-01T07-00-00Z","startedAt":"2026-05-01T07:00:00.000Z"},{"seconds":1200,"watts":260,"id":"2026-05-05T07-00-00Z","startedAt":"2026-05-05T07:00:00.000Z"}],"criticalPower":245.1,"wPrime":23203,"eFTP":251.5}"#)
        let pc = r.analytics(.powerCurve(nil, DayRange()), curve)
        #expect(pc.contains("5 s") && pc.contains("812") && pc.contains("20 min") && pc.contains("Critical power 245 W, W' 23.2 kJ, eFTP 252 W"), "\(pc)")
        let records = try JSON.parse(#"{"ok":true,"records":[{"activity":"cycling","kind":"power","seconds":300,"watts":300,"id":"2026-05-03T07-00-00Z","startedAt":"2026-05-03T07:00:00.000Z"},{"activity":"running","kind":"distance","distanceMeters":5000,"seconds":1500,"id":"2026-05-04T07-00-00Z","startedAt":"2026-05-04T07:00:00.000Z"}]}"#)
        let rec = r.analytics(.records(nil), records)
        #expect(rec.contains("Cycling") && rec.contains("power 5 min") && rec.contains("300 W") && rec.contains("Running") && rec.contains("25:00"), "\(rec)")
        #expect(r.analytics(.records(nil), try JSON.parse(#"{"ok":true,"records":[]}"#)) == "No records yet.\n")
    }

    /// Heart-rate stress is not printed as power's TSS.
    @Test func stressWithoutPowerHasItsOwnLine() throws {
        let r = Renderer()
        // The summary as the daemon sends it, read by the core's decoder.
        func ride(_ method: String) throws -> WorkoutSummary {
            try #require(WorkoutSummary(json: try JSON.parse(#"{"id":"20261121T093000Z-3f9a","activity":"cycling","startedAt":"2026-11-21T09:30:00.000Z","averagePower":180,"trainingStress":62,"trainingStressMethod":"\#(method)"}"#)))
        }
        let hr = try ride("heart_rate")
        #expect(r.power(hr)?.contains("TSS") == false)
        #expect(r.stressWithoutPower(hr) == "62 (from heart rate)")
        let power = try ride("power")
        #expect(r.power(power)?.contains("TSS 62") == true && r.stressWithoutPower(power) == nil)
    }
}
