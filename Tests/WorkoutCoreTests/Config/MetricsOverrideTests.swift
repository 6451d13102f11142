import Foundation
import Testing
@testable import WorkoutCore

/// `recompute --set metrics.KEY=VALUE` is checked by the configuration's own metrics decoder:
/// every key the file accepts, the same ranges, errors naming the key.
struct MetricsOverrideTests {
    func apply(_ pairs: [(String, JSON)]) throws(ConfigError) -> MetricsConfig {
        try MetricsConfig().overridden(by: pairs.map { MetricsOverride(key: $0.0, value: $0.1) })
    }

    /// Every key of config.example.json's "metrics" object, changed one at a time through
    /// overrides, gives what the same key gives in a configuration file.
    @Test func everyMetricsKeyOfTheExampleIsAccepted() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("config.example.json"), encoding: .utf8)
        let metrics = try #require(try JSON.parse(text)["metrics"]?.objectValue)
        let keys = metrics.pairs.map(\.key).filter { !$0.hasPrefix("_") }
        expectGreaterOrEqual(keys.count, 7, "\(keys)")
        for key in keys {
            // A value inside every key's range, other than the default where possible.
            let value: JSON = key == "minFixMode" ? 3 : key == "warmUpFixes" ? 5 : 1000
            let viaOverride = try apply([("metrics." + key, value)])
            let viaFile = try Config.decode(json: #"{"metrics":{"\#(key)":\#(value.serialized())}}"#).metrics
            expectEqual(viaOverride, viaFile, "\(key)")
            expectNotEqual(viaOverride, MetricsConfig(), "\(key) changed something")
        }
    }

    @Test func badKeysAndValuesNameTheKey() {
        #expect(throws: ConfigError(key: "metrics.jumpMeterz", problem: "unknown key (keys starting with '_' are comments)")) {
            try apply([("metrics.jumpMeterz", 10)])
        }
        #expect(throws: ConfigError(key: "metrics.jumpMeters", problem: "5 is out of range 10...100000")) {
            try apply([("metrics.jumpMeters", 5)])
        }
        #expect(throws: ConfigError(key: "metrics.autoPauseSeconds", problem: "expected a number, got string")) {
            try apply([("metrics.autoPauseSeconds", "soon")])
        }
        do { _ = try apply([("units", "imperial")]); Issue.record("a non-metrics key passed") } catch {
            #expect(error.key == "units" && error.problem.contains("only metrics settings"))
        }
    }

    @Test func nullTurnsAutoLapsOffAndOverridesCombine() throws {
        var base = MetricsConfig()
        base.autoLapMeters = 1000
        let off = try base.overridden(by: [MetricsOverride(key: "metrics.autoLapMeters", value: .null)])
        expectNil(off.autoLapMeters)
        let both = try apply([("metrics.autoPauseSeconds", 0), ("metrics.jumpMeters", 500)])
        #expect(both.autoPauseSeconds == 0 && both.jumpMeters == 500 && both.warmUpFixes == 3)
    }

    @Test func commandLineArgument() {
        expectEqual(MetricsOverride(argument: "metrics.autoPauseSeconds=0"), MetricsOverride(key: "metrics.autoPauseSeconds", value: 0))
        expectEqual(MetricsOverride(argument: "metrics.autoLapMeters=null")?.value, .null)
        expectEqual(MetricsOverride(argument: "metrics.x=abc")?.value, .string("abc"))
        expectNil(MetricsOverride(argument: "metrics.autoPauseSeconds"))
        expectNil(MetricsOverride(argument: "=3"))
    }
}
