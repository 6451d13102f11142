import Foundation
import Glibc
import Testing
import TestRequirements

/// Desktop notifications from the daemon (embedded: its bus address is in its environment)
/// against `../shared/tools/dbus-peers --notifications`
/// (a real dbus-daemon and a Notifications server logging each call): a save and an at-risk
/// check each produce one Notify; a second at-risk notice replaces the first; without a bus the
/// daemon logs it once and carries on.
@Suite(.serialized) struct NotificationTests {
    static let peers = DaemonHarness.sharedRoot.appendingPathComponent("tools/dbus-peers").path
    static func notifies(_ state: String) -> [[String]] {
        let text = (try? String(contentsOfFile: state + "/calls.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line -> [String]? in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], o["method"] as? String == "Notify" else { return nil }
            return o["args"] as? [String]
        }
    }

    @Test(.requires(.shared("tools/dbus-peers"), .program(.dbusDaemon), .python(.dbus), .python(.gi)))
    func saveAndAtRiskNotifyAndTheSecondAtRiskReplacesTheFirst() throws {
        var template = Array("/tmp/nt.XXXXXX".utf8CString)
        let dir = String(cString: try #require(mkdtemp(&template)))
        let state = dir + "/p"
        let start = try Reliability.run([Self.peers, "start", "--state", state, "--notifications"])
        defer { _ = try? Reliability.run([Self.peers, "stop", "--state", state]); try? FileManager.default.removeItem(atPath: dir) }
        #expect(start.out.hasPrefix("DBUS_ADDRESS=unix:path="), "\(start.out) \(start.err)")
        // Two daily habits reminded from 00:00: with yesterday done and today not, both are at risk.
        let d = try EmbeddedDaemon(config: """
        {"feeds":[{"kind":"socket"}],"timeZone":"UTC","log":{"file":true},
         "habits":[{"name":"Daily run","activities":["running"],"per":"day","remindAt":"00:00"},
                   {"name":"Daily walk","activities":["walking"],"per":"day","remindAt":"00:00"}],
         "notifications":{"desktop":true,"events":["habit.at_risk","workout.saved"]}}
        """, extraEnv: ["TZ": "UTC", "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(state)/bus"])
        try d.start()
        // Yesterday at noon (UTC, the daemon's zone here): both workouts fall on yesterday at any
        // time of day. Now minus 24 h put the second one (10 min later) into today whenever the
        // test ran in the 10 minutes before midnight (CI at 23:56 UTC: a walk done today).
        let yesterday = (Date().timeIntervalSince1970 / 86400).rounded(.down) * 86400 - 86400 + 43200
        for (k, activity) in ["running", "walking"].enumerated() {
            let path = d.dir + "/\(activity).gpx"
            try TotalsTests.gpx(start: yesterday + Double(k) * 600, points: 20, step: 0.0003).write(toFile: path, atomically: true, encoding: .utf8)
            #expect(try d.ctl(["import", path, "--activity", activity]).status == 0)
        }
        // A save: one Notify "Workout saved".
        #expect(try d.request(#"{"command":"start","activity":"yoga"}"#)["ok"] as? Bool == true)
        #expect(try d.request(#"{"command":"stop"}"#)["ok"] as? Bool == true)
        #expect(pollUntil(seconds: 10) { Self.notifies(state).count == 1 }, "\(Self.notifies(state))")
        let saved = Self.notifies(state)
        #expect(saved.first?[3] == "Workout saved" && saved.first?[1] == "0" && saved.first?[4].hasPrefix("Yoga") == true, "\(saved)")
        // The at-risk check runs at start-up: a restart gives two habit.at_risk events.
        d.stop()
        try d.start()
        #expect(pollUntil(seconds: 10) { Self.notifies(state).count == 3 }, "\(Self.notifies(state)) \(HookTests.logText(d))")
        let all = Self.notifies(state)
        guard all.count == 3 else { return }
        let first = all[1], second = all[2]
        #expect(first[3].hasSuffix("at risk") && first[4].contains("left today"), "\(first)")
        #expect(first[1] == "0")
        #expect(second[3].hasSuffix("at risk") && second[3] != first[3])
        // The second at-risk notice replaces the first: its replaces_id is the id the server gave
        // the first (the stand-in numbers new notices 1, 2, ...: the save got 1, the first at-risk 2).
        #expect(second[1] == "2", "replaces_id \(second[1])")
        #expect(HookTests.logText(d).components(separatedBy: "event=habit.at_risk").count - 1 == 2)
        // The streak reply shows both habits at risk, with their streaks.
        let streak = try DaemonHarness.parse(try d.ctl(["--json", "streak"]).stdout)["streak"] as? [String: Any]
        let habits = streak?["habits"] as? [[String: Any]] ?? []
        #expect(habits.map { $0["name"] as? String } == ["Daily run", "Daily walk"])
        #expect(habits.allSatisfy { $0["atRisk"] as? Bool == true && $0["current"] as? Int == 1 && $0["done"] as? Bool == false && $0["leftText"] as? String != nil })
        #expect((streak?["daily"] as? [String: Any])?["current"] != nil, "the daily and weekly keys stay")
        let text = try d.ctl(["streak"]).stdout
        #expect(text.contains("Daily run: 1 run left, today is the last day; streak 1 day, best 1 day; AT RISK"), "\(text)")
        d.stop()
    }

    @Test func busAbsentIsLoggedOnceAndTheDaemonCarriesOn() throws {
        let d = try EmbeddedDaemon(config: """
        {"feeds":[{"kind":"socket"}],"log":{"file":true},"notifications":{"desktop":true,"events":["workout.saved","workout.started"]}}
        """, extraEnv: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/tmp/no-bus-\(getpid())/bus"])
        try d.start()
        for _ in 0..<3 {
            #expect(try d.request(#"{"command":"start","activity":"yoga"}"#)["ok"] as? Bool == true)
            #expect(try d.request(#"{"command":"stop"}"#)["ok"] as? Bool == true)
            try d.waitForStatus(seconds: 10) { $0["state"] as? String == "idle" }
        }
        #expect(pollUntil(seconds: 5) { HookTests.logText(d).components(separatedBy: "event=workout.saved").count - 1 == 3 })
        let log = HookTests.logText(d)
        #expect(log.components(separatedBy: "event=notify.unavailable").count - 1 == 1, "\(log)")
        #expect(try d.request(#"{"command":"status"}"#)["state"] as? String == "idle")
        d.stop()
    }
}
