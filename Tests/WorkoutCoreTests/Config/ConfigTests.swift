import Foundation
import Testing
@testable import WorkoutCore

@Suite struct ConfigTests {
    @Test func emptyObjectIsDefaults() throws {
        try expectEqual(Config.decode(json: "{}"), Config())
    }

    @Test func readsEveryKey() throws {
        let c = try Config.decode(json: #"""
        {"feeds":[{"kind":"gpsd","address":"127.0.0.1:2948"},{"kind":"nmea","address":"[::1]:10110"},{"kind":"socket"}],
         "defaultActivity":"hiking","journalFlushSeconds":0.5,"statusLogSeconds":5,"autoResumeAfterRestore":true,
         "timeZone":"Europe/Berlin","weightKg":70,"units":"imperial",
         "metrics":{"minFixMode":3,"maxHorizontalAccuracyMeters":30,"warmUpFixes":2,"jumpMeters":150,"signalLostSeconds":20,"autoPauseSeconds":5,"autoLapMeters":1000},
         "streaks":{"minimumSeconds":300,"weeklyTarget":3,"weekStart":"sunday","dayStartHour":3,"restDaysPerWeek":1,"reminderHour":19},
         "log":{"file":true,"maxFileBytes":100000,"keepFiles":2,"level":"debug"},
         "limits":{"maxClients":10,"maxRequestBytes":4096,"clientTimeoutSeconds":5}, "_comment":"ignored"}
        """#)
        expectEqual(c.feeds, [.gpsd(host: "127.0.0.1", port: 2948), .nmea(host: "::1", port: 10110), .socket(path: "$XDG_RUNTIME_DIR/workoutd/feed.sock")])
        expectEqual(c.defaultActivity, .hiking)
        expectEqual(c.metrics.autoLapMeters, 1000)
        expectEqual(c.streaks.weekStart, "sunday")
        expectEqual(c.logLevel, .debug)
        expectEqual(c.limits.maxRequestBytes, 4096)
    }

    @Test(arguments: [
        (#"{"feed":[]}"#, "feed"),
        (#"{"metrics":{"jumpMeter":5}}"#, "metrics.jumpMeter"),
        (#"{"metrics":{"jumpMeters":"far"}}"#, "metrics.jumpMeters"),
        (#"{"journalFlushSeconds":5}"#, "journalFlushSeconds"),
        (#"{"feeds":[{"kind":"gps"}]}"#, "feeds[0].kind"),
        (#"{"feeds":[{"kind":"gpsd","address":"localhost"}]}"#, "feeds[0].address"),
        (#"{"defaultActivity":"flying"}"#, "defaultActivity"),
        (#"{"streaks":{"weekStart":"friday"}}"#, "streaks.weekStart"),
        (#"[1]"#, ""),
        (#"{"#, ""),
    ])
    func errorsNameTheKey(_ text: String, _ key: String) {
        do {
            _ = try Config.decode(json: text)
            Issue.record("accepted \(text)")
        } catch {
            expectEqual(error.key, key)
            #expect(!error.problem.isEmpty)
        }
    }
}

@Suite struct ConfigExampleTests {
    /// config.example.json documents every key with its default: it must decode to the defaults
    /// (its example habits aside: there are none by default; HabitConfigTests checks them).
    @Test func exampleFileIsTheDefaults() throws {
        let text = try String(contentsOf: SharedData.projectRoot.appendingPathComponent("config.example.json"), encoding: .utf8)
        var expected = Config()
        expected.habits = try Config.decode(json: text).habits
        expected.feeds = [.gpsd(host: "127.0.0.1", port: 2947), .socket(path: "$XDG_RUNTIME_DIR/workoutd/feed.sock")]
        try expectEqual(Config.decode(json: text), expected)
        expected.habits = []
        expectEqual(expected, Config())
    }
}

@Suite struct ConfigHeartRateTests {
    @Test func sensorsAgeSexAndZones() throws {
        let c = try Config.decode(json: #"""
        {"sensors":[{"kind":"bluetooth","address":"c0:ff:ee:00:00:01"},{"kind":"bluetooth"}],
         "weightKg":70,"age":40,"sex":"female","heartRate":{"maxBpm":190,"restingBpm":50}}
        """#)
        expectEqual(c.sensors, [.bluetooth(address: "C0:FF:EE:00:00:01"), .bluetooth(address: nil)])
        expectEqual(c.bodyProfile, BodyProfile(weightKilograms: 70, age: 40, sex: .female))
        expectEqual(c.heartRateZones?.lowerBounds, [120, 134, 148, 162, 176])
        try expectEqual(Config.decode(json: #"{"age":40}"#).heartRateZones?.lowerBounds, [90, 108, 126, 144, 162])
        try expectEqual(Config.decode(json: #"{"heartRate":{"zones":[100,130,150]}}"#).heartRateZones?.lowerBounds, [100, 130, 150])
        expectNil(Config().heartRateZones)
        #expect(Config().changedKeys(to: c).contains(.sensors))
    }

    @Test(arguments: [
        (#"{"sensors":[{"kind":"ant"}]}"#, "sensors[0].kind"),
        (#"{"sensors":[{"kind":"bluetooth","address":"C0:FF:EE"}]}"#, "sensors[0].address"),
        (#"{"sensors":[{"kind":"bluetooth","name":"x"}]}"#, "sensors[0].name"),
        (#"{"sex":"x"}"#, "sex"),
        (#"{"age":200}"#, "age"),
        (#"{"heartRate":{"zones":[150,140]}}"#, "heartRate.zones"),
        (#"{"heartRate":{"maxBpm":150,"restingBpm":110,"x":1}}"#, "heartRate.x"),
        (#"{"heartRate":{"maxBpm":120,"restingBpm":120}}"#, "heartRate.restingBpm"),
    ])
    func badValuesNameTheKey(json: String, key: String) {
        #expect(throws: ConfigError.self) { try Config.decode(json: json) }
        do { _ = try Config.decode(json: json) } catch { expectEqual(error.key, key) }
    }
}
