import Foundation
import Glibc
import Testing
import TestRequirements
import WorkoutCore
@testable import WorkoutDaemon

/// Issue 42: a reload test for every configuration key. Each key of `Config.Key` (which
/// ConfigChangesTests holds equal to the model's properties and config.example.json) has a row
/// here: a changed value, whether the daemon applies it or names it as needing a restart, and a
/// probe that reads the key's effect on what the daemon does (a recorded run, the control
/// socket's limit, the feed socket, a hook run, an import folder's file ...). A key added
/// without a row fails `everyKeyHasARule`; a row that says "applied" for a key no service takes
/// fails the reload (the reply names it in `needsRestart`), and a service that says "applied"
/// but behaves as before fails the probe.
@Suite struct ConfigReloadTests {
    enum Rule { case applied, needsRestart }

    /// What a key's row says: the JSON that changes it (replacing the base's value when the
    /// base has one; `$DIR` is the daemon's temporary directory), its rule, how to read its
    /// effect and, when known, what that reads after the change (it must read otherwise than
    /// before the change, and as before after the change back).
    struct Row: Sendable {
        let json: String
        let rule: Rule
        let probe: @Sendable (InProcessDaemon) throws -> String?
        var shows: String? = nil
    }

    static func status(_ d: InProcessDaemon, _ path: String...) throws -> String? {
        path.reduce(try d.status() as JSON?) { $0?[$1] }?.stringValue
    }

    static func streak(_ d: InProcessDaemon) throws -> JSON? { try d.request(#"{"command":"streak"}"#)["streak"] }

    /// A run's summary field as text (`run`, with 200 W or without power: calories come from
    /// the power when there is one).
    static func ran(_ field: String, power: Int? = 200) -> @Sendable (InProcessDaemon) throws -> String? {
        { d in try run(d, power: power).workout[field].map { $0.serialized() } }
    }

    /// Per key, its row.
    static let table: [Config.Key: Row] = [
        // The feed socket listens only while `feeds` names it.
        .feeds: Row(json: #""feeds":[{"kind":"nmea","address":"127.0.0.1:1"}]"#, rule: .applied, probe: { d in
            guard let fd = try? InProcessDaemon.connect(d.paths.feedSocket) else { return "feed socket closed" }
            close(fd)
            return "feed socket open"
        }, shows: "feed socket closed"),
        .defaultActivity: Row(json: #""defaultActivity":"cycling""#, rule: .applied, probe: { try status($0, "action") }, shows: "Start cycling"),
        // Flushes in a 40 s run: 40 at 1 s, 80 at 0.5 s (and reloadedJournalFlushIntervalIsTheOneInForce).
        .journalFlushSeconds: Row(json: #""journalFlushSeconds":0.5"#, rule: .applied, probe: { d in
            "\(Int((Double(try run(d).alive) / runSeconds).rounded())) a second"
        }, shows: "2 a second"),
        .statusLogSeconds: Row(json: #""statusLogSeconds":5"#, rule: .applied, probe: { d in
            let n = try run(d).logged.filter { $0["event"] == "workout.status" }.count
            return n == 0 ? "no status lines" : (7...9).contains(n) ? "every 5 s" : "\(n) status lines"
        }, shows: "every 5 s"),
        // Read when a journal is restored, which only a start does: the recording service's slice
        // is what the next restore reads (CrashRestoreTests restore with it).
        .autoResumeAfterRestore: Row(json: #""autoResumeAfterRestore":true"#, rule: .applied,
                                     probe: { "\($0.daemon.recording.config.autoResumeAfterRestore)" }, shows: "true"),
        .timeZone: Row(json: #""timeZone":"UTC0""#, rule: .applied, probe: { try streak($0)?["timeZone"]?.stringValue }, shows: "UTC0"),
        // The next workout's calories (the base has 70 kg, 40 years).
        .weightKg: Row(json: #""weightKg":80"#, rule: .applied, probe: ran("calories", power: nil)),
        .units: Row(json: #""units":"imperial""#, rule: .applied, probe: { d in
            "\(try status(d, "units") ?? "?") splits per \(try run(d).workout["splitUnit"]?.stringValue ?? "?")"
        }, shows: "imperial splits per mile"),
        // Laps of the next 117 m run (DaemonReloadTests: the running workout's jump threshold).
        .metrics: Row(json: #""metrics":{"autoLapMeters":100}"#, rule: .applied, probe: { d in
            "\(try run(d).workout["laps"]?.arrayValue?.count ?? -1) laps"
        }),
        .streaks: Row(json: #""streaks":{"weeklyTarget":3}"#, rule: .applied,
                      probe: { try streak($0)?["weekly"]?["target"]?.doubleValue.map { "\(Int($0))" } }, shows: "3"),
        .log: Row(json: #""log":{"level":"warning"}"#, rule: .applied, probe: { "\($0.daemon.context.logger.minimumLevel)" }, shows: "warning"),
        // A request line over 1024 bytes is refused.
        .limits: Row(json: #""limits":{"maxRequestBytes":1024}"#, rule: .applied, probe: { d in
            let reply = try d.request(#"{"command":"status","padding":""# + String(repeating: "x", count: 2000) + #""}"#)
            return reply["ok"] == .bool(true) ? "2 kB request answered" : "2 kB request refused"
        }, shows: "2 kB request refused"),
        .sensors: Row(json: #""sensors":[{"kind":"bluetooth","address":"AA:BB:CC:DD:EE:FF"}]"#, rule: .applied,
                      probe: { try $0.status()["sensors"]?.arrayValue.map { "\($0.count) sensors" } }, shows: "1 sensors"),
        .ftpWatts: Row(json: #""ftpWatts":250"#, rule: .applied, probe: ran("powerZoneBounds")),
        .thresholdHeartRate: Row(json: #""thresholdHeartRate":170"#, rule: .applied, probe: ran("trainingStressMethod")),
        .thresholdPaceSecondsPerKm: Row(json: #""thresholdPaceSecondsPerKm":270"#, rule: .applied, probe: ran("trainingStressMethod")),
        .age: Row(json: #""age":50"#, rule: .applied, probe: ran("heartRateZoneBounds")),
        .sex: Row(json: #""sex":"female""#, rule: .applied, probe: ran("caloriesMethod", power: nil), shows: #""heart_rate""#),
        .heartRate: Row(json: #""heartRate":{"maxBpm":190}"#, rule: .applied, probe: ran("heartRateZoneBounds")),
        .sleepInhibitor: Row(json: #""sleepInhibitor":"delay""#, rule: .applied, probe: { try status($0, "sleepInhibitor", "mode") }, shows: "delay"),
        .habits: Row(json: #""habits":[{"name":"yoga","activities":["yoga"],"per":"week"}]"#, rule: .applied,
                     probe: { try streak($0)?["habits"]?.arrayValue?.first?["name"]?.stringValue }, shows: "yoga"),
        .hooks: Row(json: #""hooks":[{"on":"workout.started","run":["/bin/true"]}]"#, rule: .applied, probe: { d in
            try started(d, until: "hook.ran") ? "hook ran" : "no hook"
        }, shows: "hook ran"),
        // No session bus here: a notification tried is one found unavailable.
        .notifications: Row(json: #""notifications":{"desktop":true,"events":["workout.started"]}"#, rule: .applied, probe: { d in
            try started(d, until: "notify.unavailable") ? "notification tried" : "no notification"
        }, shows: "notification tried"),
        .historyDir: Row(json: #""historyDir":"~/elsewhere""#, rule: .needsRestart, probe: { $0.daemon.context.paths.historyDir }),
        .importFolders: Row(json: #""importFolders":["\#(controlFolder)","$DIR/imports"]"#, rule: .applied, probe: { d in
            try dropped(d) ? "file imported" : "file left alone"
        }, shows: "file imported"),
        .web: Row(json: #""web":{"listen":"127.0.0.1:0"}"#, rule: .applied,
                  probe: { try $0.request(#"{"command":"web"}"#)["ok"] == .bool(true) ? "served" : "off" }, shows: "served"),
    ]

    /// The base with `pair` in place of the base's value for the same key.
    static func config(with pair: String?) -> String { config(with: pair.map { [$0] } ?? []) }

    /// The base with each of `changes` in place of the base's value for the same key.
    static func config(with changes: [String]) -> String {
        var pairs = ["\"feeds\"": #""feeds":[{"kind":"socket"}]"#, "\"statusLogSeconds\"": #""statusLogSeconds":0"#,
                     "\"log\"": #""log":{"level":"error"}"#, "\"sleepInhibitor\"": #""sleepInhibitor":"off""#, "\"web\"": #""web":null"#,
                     "\"weightKg\"": #""weightKg":70"#, "\"age\"": #""age":40"#, "\"importFolders\"": #""importFolders":["\#(controlFolder)"]"#]
        for pair in changes { if let colon = pair.firstIndex(of: ":") { pairs[String(pair[..<colon])] = pair } }
        return "{" + pairs.keys.sorted().map { pairs[$0]! }.joined(separator: ",") + "}"
    }

    /// Every key changed at once and reloaded: each service's slice is the one the new file
    /// gives, whole (none keeps an old value where no probe looks, such as the units of a
    /// desktop notice or of a habit's text).
    @Test func everyServiceTakesItsWholeSliceOnReload() throws {
        let d = try InProcessDaemon(config: Self.config(with: nil), clock: ManualClock())
        let old = try ConfigLoader.load(path: d.configPath).get()
        try d.writeConfig(Self.config(with: Self.table.values.map { $0.json.replacingOccurrences(of: "$DIR", with: d.dir) }))
        let new = try ConfigLoader.load(path: d.configPath).get()
        let reply = try d.request(#"{"command":"reload"}"#)
        #expect(reply["changed"]?.arrayValue?.count == Config.Key.allCases.count, "\(reply)")
        let daemon = d.daemon
        #expect(daemon.recording.config == .init(new) && daemon.recording.config != .init(old))
        #expect(daemon.history.config == .init(new) && daemon.history.config != .init(old))
        #expect(daemon.reminders.config == .init(new) && daemon.reminders.config != .init(old))
        #expect(daemon.integrations.config == .init(new) && daemon.integrations.config != .init(old))
        #expect(daemon.web.config == .init(new) && daemon.web.config != .init(old))
        #expect(daemon.control.config == .init(new) && daemon.control.config != .init(old))
    }

    @Test func everyKeyHasARule() {
        let missing = Config.Key.allCases.filter { Self.table[$0] == nil }
        #expect(missing.isEmpty, "keys without a reload rule: \(missing)")
    }

    /// Each key changed alone and reloaded, then changed back and reloaded: the reply and the
    /// `config.reloaded` line name exactly that key, and name it as needing a restart exactly
    /// when its rule says so; the key's effect is there after the change and gone after the
    /// change back (a key that waits for a restart changes nothing).
    @Test func everyKeyIsAppliedOrNamedAsNeedingARestart() throws {
        let d = try InProcessDaemon(config: Self.config(with: nil), clock: ManualClock())
        for key in Config.Key.allCases {
            let row = try #require(Self.table[key], "\(key) has no rule")
            let changed = row.json.replacingOccurrences(of: "$DIR", with: d.dir)
            let restart: [JSON] = row.rule == .needsRestart ? [.string(key.rawValue)] : []
            let before = try row.probe(d)
            for (step, text) in [Self.config(with: changed), Self.config(with: nil)].enumerated() {
                try d.writeConfig(text)
                let reply = try d.request(#"{"command":"reload"}"#)
                #expect(reply["ok"] == .bool(true), "\(key): \(reply)")
                #expect(reply["changed"] == .array([.string(key.rawValue)]), "\(key): \(reply)")
                #expect(reply["needsRestart"] == .array(restart), "\(key): \(reply)")
                let line = try #require(d.events("config.reloaded").last)
                #expect(line["changed"] == key.rawValue && line["needs_restart"] == (row.rule == .needsRestart ? key.rawValue : nil), "\(key): \(line)")
                let seen = try row.probe(d)
                switch (row.rule, step) {
                case (.applied, 0): #expect((row.shows == nil || seen == row.shows) && seen != nil && seen != before, "\(key) applied: reads \(seen ?? "nil"), was \(before ?? "nil")")
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
        let before = try Self.aliveRecords(d)
        #expect(before >= 2 && before <= 4, "every 1 s: \(before) in 3 s")
        try d.writeConfig(Self.config(with: #""journalFlushSeconds":0.1"#))
        let reply = try d.request(#"{"command":"reload"}"#)
        #expect(reply["changed"] == .array([.string("journalFlushSeconds")]) && reply["needsRestart"] == .array([]), "\(reply)")
        try d.advance(2)
        let after = try Self.aliveRecords(d) - before
        #expect(after >= 18 && after <= 21, "every 0.1 s after the reload: \(after) in 2 s")
    }

    /// How long `run` runs.
    static let runSeconds = 40.0

    /// Regression (issue 42): a client connected before a reload kept the request-size limit it
    /// connected under (its line framer was made once), while the reload reported `limits`
    /// applied and a refusal named the new limit. Lowered to 1024 bytes, the limit applies to
    /// the client already connected: its 2 kB request is refused, naming 1024.
    @Test func reloadedRequestLimitReachesConnectedClients() throws {
        let d = try InProcessDaemon(config: Self.config(with: nil), clock: ManualClock())
        let fd = try InProcessDaemon.connect(d.paths.controlSocket)
        defer { close(fd) }
        try d.daemon.loop.runReady()  // accepted under the old limit (64 KiB)
        try d.writeConfig(Self.config(with: #""limits":{"maxRequestBytes":1024}"#))
        let reload = try d.request(#"{"command":"reload"}"#)
        #expect(reload["changed"] == .array([.string("limits")]) && reload["needsRestart"] == .array([]), "\(reload)")
        try InProcessDaemon.send(fd, #"{"command":"status","padding":""# + String(repeating: "x", count: 2000) + "\"}\n")
        let reply = try d.reply(on: fd)
        #expect(reply["ok"] == .bool(false), "\(reply)")
        #expect(reply["error"]?["message"]?.stringValue?.contains("longer than 1024 bytes") == true, "\(reply)")
    }

    /// Records a 40 s run at 3 m/s east at 150 bpm (with `power` W), and stops it once the save
    /// is done: the stopped workout's summary, the lines logged meanwhile, and the `alive`
    /// records the journal got.
    static func run(_ d: InProcessDaemon, power: Int? = 200) throws -> (workout: JSON, logged: [LogfmtLine], alive: Int) {
        let first = d.logged.count
        let started = try d.request(#"{"command":"start","activity":"running"}"#)
        guard started["ok"] == .bool(true) else { throw ProbeError("start: \(started)") }
        for i in 0..<Int(runSeconds) {
            try d.fix(east: 3 * Double(i), power: power)
            try d.heartRate(150)
            try d.advance(1)
        }
        let alive = try aliveRecords(d)
        let stopped = try d.request(#"{"command":"stop"}"#)
        guard let workout = stopped["workout"], try d.until({ try status(d, "state") == "idle" }) else { throw ProbeError("stop: \(stopped)") }
        return (workout, Array(d.logged[first...]), alive)
    }

    /// Starts a yoga session, turns the loop until `event` is logged or the start's side effects
    /// are done, and stops it: whether `event` was logged. Done: the hook runner idle after 20
    /// turns or more (it posts a hook's outcome to the loop before it counts the hook finished,
    /// so the turn after logs it); a desktop notice with no session bus fails on the loop, in
    /// the start itself. A key that still applied would log `event` by then: no fixed wait.
    static func started(_ d: InProcessDaemon, until event: String) throws -> Bool {
        let seen = d.events(event).count
        _ = try d.request(#"{"command":"start","activity":"yoga"}"#)
        var turns = 0
        _ = try d.until(tries: 3000) {
            turns += 1
            return d.events(event).count > seen || (turns > 20 && d.daemon.integrations.hookRunner.map { $0.load == (0, 0) } ?? true)
        }
        try d.daemon.loop.runReady()
        let logged = d.events(event).count > seen
        _ = try d.request(#"{"command":"stop"}"#)
        _ = try d.until { try status(d, "state") == "idle" }
        return logged
    }

    /// The folder every config of this suite imports from (`importFolders` adds `~/imports`).
    static let controlFolder = "~/control"

    /// Writes a new GPX file into `~/imports` and one into the control folder (always
    /// imported), then moves the loop's clock half a second a turn up to 20 s (a look for a
    /// missing folder every 2 s, 4 s of quiet) with real time between for the import's
    /// threads: whether the history took the file in `~/imports`. Decided when that file is
    /// remembered (this file's own import: a file of the step before may still be committing
    /// after the folder left the config), or once the control file is and as long again has
    /// passed (the two folders' imports may run one after the other), at most 8 s: a loaded
    /// machine scans the folder, imports and commits late.
    static func dropped(_ d: InProcessDaemon) throws -> Bool {
        let folder = d.dir + "/imports", control = d.dir + "/control"
        for f in [folder, control] { try FileManager.default.createDirectory(atPath: f, withIntermediateDirectories: true) }
        let n = (try FileManager.default.contentsOfDirectory(atPath: folder)).count
        for (dir, name, t0) in [(control, "control\(n).gpx", 1_700_043_200.0), (folder, "run\(n).gpx", 1_700_000_000.0)] {
            let t = t0 + Double(n) * 86_400
            let points = (0..<20).map { i in
                #"<trkpt lat="48.1" lon="\#(11.5 + Double(i) * 0.00004)"><time>\#(ISO8601.format(t + Double(i) * 1))</time></trkpt>"#
            }
            let gpx = #"<?xml version="1.0"?><gpx version="1.1" creator="test"><trk><type>running</type><trkseg>"#
                + points.joined() + "</trkseg></trk></gpx>"
            try gpx.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
        }
        let remembered = d.paths.importedFilesFile
        func has(_ path: String) -> Bool { ((try? String(contentsOfFile: remembered, encoding: .utf8)) ?? "").contains(path + "\"") }
        var moved = 0.0, controlAt: Double?
        let t0 = Date()
        try pollUntil(seconds: 8, every: 0.005) {
            try d.advance(moved < 20 ? 0.5 : 0)
            moved += 0.5
            if has(folder + "/run\(n).gpx") { return true }
            let now = Date().timeIntervalSince(t0)
            if controlAt == nil, has(control + "/control\(n).gpx") { controlAt = now }
            return controlAt.map { now >= 2 * $0 + 0.2 } ?? false
        }
        return has(folder + "/run\(n).gpx")
    }

    struct ProbeError: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    /// `alive` records in the journal's files as they are on disk.
    static func aliveRecords(_ d: InProcessDaemon) throws -> Int {
        let names = try FileManager.default.contentsOfDirectory(atPath: d.paths.stateDir).filter { $0.contains("journal") }
        return try names.reduce(0) { n, name in
            let text = try String(contentsOfFile: d.paths.stateDir + "/" + name, encoding: .utf8)
            return n + text.components(separatedBy: #""r":"alive""#).count - 1
        }
    }
}
