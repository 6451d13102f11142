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

    /// What a key's row says: the JSON that changes it (replacing the base's value when the
    /// base has one), its rule, and for keys whose effect a reply shows, how to read it and
    /// what it reads after the change (it must read otherwise after the change back).
    struct Row: Sendable {
        let json: String
        let rule: Rule
        var probe: (@Sendable (InProcessDaemon) throws -> String?)? = nil
        var shows: String? = nil
    }

    static func status(_ d: InProcessDaemon, _ path: String...) throws -> String? {
        path.reduce(try d.status() as JSON?) { $0?[$1] }?.stringValue
    }

    static func streak(_ d: InProcessDaemon) throws -> JSON? { try d.request(#"{"command":"streak"}"#)["streak"] }

    /// Per key, its row.
    static let table: [Config.Key: Row] = [
        .feeds: Row(json: #""feeds":[{"kind":"socket"},{"kind":"nmea","address":"127.0.0.1:1"}]"#, rule: .applied),
        .defaultActivity: Row(json: #""defaultActivity":"cycling""#, rule: .applied, probe: { try status($0, "action") }, shows: "Start cycling"),
        .journalFlushSeconds: Row(json: #""journalFlushSeconds":0.5"#, rule: .applied),  // reloadedJournalFlushIntervalIsTheOneInForce
        .statusLogSeconds: Row(json: #""statusLogSeconds":5"#, rule: .applied),
        .autoResumeAfterRestore: Row(json: #""autoResumeAfterRestore":true"#, rule: .applied),
        .timeZone: Row(json: #""timeZone":"UTC0""#, rule: .applied, probe: { try streak($0)?["timeZone"]?.stringValue }, shows: "UTC0"),
        .weightKg: Row(json: #""weightKg":70"#, rule: .applied),
        .units: Row(json: #""units":"imperial""#, rule: .applied, probe: { try status($0, "units") }, shows: "imperial"),
        .metrics: Row(json: #""metrics":{"jumpMeters":100}"#, rule: .applied),  // DaemonReloadTests
        .streaks: Row(json: #""streaks":{"weeklyTarget":3}"#, rule: .applied,
                      probe: { try streak($0)?["weekly"]?["target"]?.doubleValue.map { "\(Int($0))" } }, shows: "3"),
        .log: Row(json: #""log":{"level":"warning"}"#, rule: .applied, probe: { "\($0.daemon.context.logger.minimumLevel)" }, shows: "warning"),
        .limits: Row(json: #""limits":{"maxClients":32}"#, rule: .applied),
        .sensors: Row(json: #""sensors":[{"kind":"bluetooth","address":"AA:BB:CC:DD:EE:FF"}]"#, rule: .applied),
        .ftpWatts: Row(json: #""ftpWatts":250"#, rule: .applied),
        .thresholdHeartRate: Row(json: #""thresholdHeartRate":170"#, rule: .applied),
        .thresholdPaceSecondsPerKm: Row(json: #""thresholdPaceSecondsPerKm":270"#, rule: .applied),
        .age: Row(json: #""age":40"#, rule: .applied),
        .sex: Row(json: #""sex":"female""#, rule: .applied),
        .heartRate: Row(json: #""heartRate":{"maxBpm":190}"#, rule: .applied),
        .sleepInhibitor: Row(json: #""sleepInhibitor":"delay""#, rule: .applied, probe: { try status($0, "sleepInhibitor", "mode") }, shows: "delay"),
        .habits: Row(json: #""habits":[{"name":"yoga","activities":["yoga"],"per":"week"}]"#, rule: .applied,
                     probe: { try streak($0)?["habits"]?.arrayValue?.first?["name"]?.stringValue }, shows: "yoga"),
        .hooks: Row(json: #""hooks":[{"on":"workout.saved","run":["/bin/true"]}]"#, rule: .applied),
        .notifications: Row(json: #""notifications":{"events":["workout.saved"]}"#, rule: .applied),
        .historyDir: Row(json: #""historyDir":"~/elsewhere""#, rule: .needsRestart,
                         probe: { $0.daemon.context.paths.historyDir }),
        .importFolders: Row(json: #""importFolders":["~/imports"]"#, rule: .applied),
        .web: Row(json: #""web":{"listen":"127.0.0.1:0"}"#, rule: .applied,
                  probe: { try $0.request(#"{"command":"web"}"#)["ok"] == .bool(true) ? "served" : "off" }, shows: "served"),
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
    /// when its rule says so; where a reply shows the key's effect, the effect is there after
    /// the change and gone after the change back (a key that waits for a restart changes
    /// nothing).
    @Test func everyKeyIsAppliedOrNamedAsNeedingARestart() throws {
        let d = try InProcessDaemon(config: Self.config(with: nil), clock: ManualClock())
        for key in Config.Key.allCases {
            let row = try #require(Self.table[key], "\(key) has no rule")
            let restart: [JSON] = row.rule == .needsRestart ? [.string(key.rawValue)] : []
            let before = try row.probe?(d)
            for (step, text) in [Self.config(with: row.json), Self.config(with: nil)].enumerated() {
                try d.writeConfig(text)
                let reply = try d.request(#"{"command":"reload"}"#)
                #expect(reply["ok"] == .bool(true), "\(key): \(reply)")
                #expect(reply["changed"] == .array([.string(key.rawValue)]), "\(key): \(reply)")
                #expect(reply["needsRestart"] == .array(restart), "\(key): \(reply)")
                let line = try #require(d.events("config.reloaded").last)
                #expect(line["changed"] == key.rawValue && line["needs_restart"] == (row.rule == .needsRestart ? key.rawValue : nil), "\(key): \(line)")
                guard let probe = row.probe else { continue }
                let seen = try probe(d)
                switch (row.rule, step) {
                case (.applied, 0): #expect(seen == row.shows && seen != before, "\(key) applied: reads \(seen ?? "nil"), was \(before ?? "nil")")
                case (.applied, _): #expect(seen == before, "\(key) changed back: reads \(seen ?? "nil"), was \(before ?? "nil")")
                case (.needsRestart, _): #expect(seen == before, "\(key) waits for a restart: reads \(seen ?? "nil"), was \(before ?? "nil")")
                }
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
