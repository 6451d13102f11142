import Foundation
import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// Issue 42: a reload test for every configuration key. Each key of `Config.Key` (which
/// ConfigChangesTests holds equal to the model's properties and config.example.json) has a row
/// here: a changed value, and whether the daemon applies it or names it as needing a restart.
/// A key added without a row fails `everyKeyHasARule`; a row that says "applied" for a key no
/// service takes fails the reload (the reply names it in `needsRestart`).
@Suite struct ConfigReloadTests {
    enum Rule { case applied, needsRestart }

    /// The configuration every row starts from and goes back to: no web pages, no log noise.
    static let base = #""feeds":[{"kind":"socket"}],"statusLogSeconds":0,"log":{"level":"error"},"sleepInhibitor":"off","web":null"#

    /// Per key: the JSON that changes it (replacing the base's value when the base has one).
    static let table: [Config.Key: (json: String, rule: Rule)] = [
        .feeds: (#""feeds":[{"kind":"socket"},{"kind":"nmea","address":"127.0.0.1:1"}]"#, .applied),
        .defaultActivity: (#""defaultActivity":"cycling""#, .applied),
        .journalFlushSeconds: (#""journalFlushSeconds":0.5"#, .applied),
        .statusLogSeconds: (#""statusLogSeconds":5"#, .applied),
        .autoResumeAfterRestore: (#""autoResumeAfterRestore":true"#, .applied),
        .timeZone: (#""timeZone":"UTC0""#, .applied),
        .weightKg: (#""weightKg":70"#, .applied),
        .units: (#""units":"imperial""#, .applied),
        .metrics: (#""metrics":{"jumpMeters":100}"#, .applied),
        .streaks: (#""streaks":{"weeklyTarget":3}"#, .applied),
        .log: (#""log":{"level":"warning"}"#, .applied),
        .limits: (#""limits":{"maxClients":32}"#, .applied),
        .sensors: (#""sensors":[{"kind":"bluetooth","address":"AA:BB:CC:DD:EE:FF"}]"#, .applied),
        .ftpWatts: (#""ftpWatts":250"#, .applied),
        .thresholdHeartRate: (#""thresholdHeartRate":170"#, .applied),
        .thresholdPaceSecondsPerKm: (#""thresholdPaceSecondsPerKm":270"#, .applied),
        .age: (#""age":40"#, .applied),
        .sex: (#""sex":"female""#, .applied),
        .heartRate: (#""heartRate":{"maxBpm":190}"#, .applied),
        .sleepInhibitor: (#""sleepInhibitor":"delay""#, .applied),
        .habits: (#""habits":[{"name":"yoga","activities":["yoga"],"per":"week"}]"#, .applied),
        .hooks: (#""hooks":[{"on":"workout.saved","run":["/bin/true"]}]"#, .applied),
        .notifications: (#""notifications":{"events":["workout.saved"]}"#, .applied),
        .historyDir: (#""historyDir":"~/elsewhere""#, .needsRestart),
        .importFolders: (#""importFolders":["~/imports"]"#, .applied),
        .web: (#""web":{"listen":"127.0.0.1:0"}"#, .applied),
    ]

    /// The base with `pair` in place of the base's value for the same key.
    static func config(with pair: String?) -> String {
        var pairs = ["\"feeds\"": #""feeds":[{"kind":"socket"}]"#, "\"statusLogSeconds\"": #""statusLogSeconds":0"#,
                     "\"log\"": #""log":{"level":"error"}"#, "\"sleepInhibitor\"": #""sleepInhibitor":"off""#, "\"web\"": #""web":null"#]
        if let pair, let colon = pair.firstIndex(of: ":") { pairs[String(pair[..<colon])] = pair }
        return "{" + pairs.keys.sorted().map { pairs[$0]! }.joined(separator: ",") + "}"
    }

    @Test func everyKeyHasARule() {
        let missing = Config.Key.allCases.filter { Self.table[$0] == nil }
        #expect(missing.isEmpty, "keys without a reload rule: \(missing)")
    }

    /// Each key changed alone and reloaded, then changed back and reloaded: the reply and the
    /// `config.reloaded` line name exactly that key, and name it as needing a restart exactly
    /// when its rule says so.
    @Test func everyKeyIsAppliedOrNamedAsNeedingARestart() throws {
        let d = try InProcessDaemon(config: Self.config(with: nil), clock: ManualClock())
        for key in Config.Key.allCases {
            let (json, rule) = try #require(Self.table[key], "\(key) has no rule")
            let restart: [JSON] = rule == .needsRestart ? [.string(key.rawValue)] : []
            for text in [Self.config(with: json), Self.config(with: nil)] {
                try d.writeConfig(text)
                let reply = try d.request(#"{"command":"reload"}"#)
                #expect(reply["ok"] == .bool(true), "\(key): \(reply)")
                #expect(reply["changed"] == .array([.string(key.rawValue)]), "\(key): \(reply)")
                #expect(reply["needsRestart"] == .array(restart), "\(key): \(reply)")
                let line = try #require(d.events("config.reloaded").last)
                #expect(line["changed"] == key.rawValue && line["needs_restart"] == (rule == .needsRestart ? key.rawValue : nil), "\(key): \(line)")
            }
        }
    }

    /// Regression (issue 42): the journal-flush timer was made once at start-up, so a reload
    /// reported `journalFlushSeconds` changed while the journal went on being flushed at the old
    /// interval. Flushed every 1 s, then every 0.1 s after the reload: ten `alive` records a
    /// second reach the journal, not one.
    @Test func reloadedJournalFlushIntervalIsTheOneInForce() throws {
        let d = try InProcessDaemon(config: Self.config(with: #""journalFlushSeconds":1"#), clock: ManualClock())
        _ = try d.request(#"{"command":"start","activity":"yoga"}"#)
        try d.advance(3)
        let before = try aliveRecords(d)
        #expect(before >= 2 && before <= 4, "every 1 s: \(before) in 3 s")
        try d.writeConfig(Self.config(with: #""journalFlushSeconds":0.1"#))
        let reply = try d.request(#"{"command":"reload"}"#)
        #expect(reply["changed"] == .array([.string("journalFlushSeconds")]) && reply["needsRestart"] == .array([]), "\(reply)")
        try d.advance(2)
        let after = try aliveRecords(d) - before
        #expect(after >= 18 && after <= 21, "every 0.1 s after the reload: \(after) in 2 s")
    }

    /// `alive` records in the journal's files as they are on disk.
    private func aliveRecords(_ d: InProcessDaemon) throws -> Int {
        let names = try FileManager.default.contentsOfDirectory(atPath: d.paths.stateDir).filter { $0.contains("journal") }
        return try names.reduce(0) { n, name in
            let text = try String(contentsOfFile: d.paths.stateDir + "/" + name, encoding: .utf8)
            return n + text.components(separatedBy: #""r":"alive""#).count - 1
        }
    }
}
