import Testing
@testable import WorkoutCore

/// Regression: `--check-config` stopped at the first of several errors.
struct ConfigProblemsTests {
    @Test func everyProblemIsReported() {
        let text = #"""
        {"units": "furlongs", "defaultActivity": "flying",
         "metrics": {"jumpMeters": -5, "autoPauseSeconds": "ten"},
         "feeds": [{"kind": "gpsd", "address": "127.0.0.1:2947"}, {"kind": "carrier-pigeon"}],
         "colour": "blue"}
        """#
        let keys = Config.problems(json: text).map(\.key)
        for key in ["units", "defaultActivity", "metrics.jumpMeters", "metrics.autoPauseSeconds", "colour"] {
            #expect(keys.contains(key), "\(key) in \(keys)")
        }
        #expect(keys.contains { $0.hasPrefix("feeds[1]") }, "\(keys)")
        expectEqual(Set(keys).count, keys.count, "each once: \(keys)")
    }

    @Test func aValidFileHasNoneAndBrokenJSONHasOne() {
        #expect(Config.problems(json: #"{"units": "imperial"}"#).isEmpty)
        expectEqual(Config.problems(json: "{").count, 1)
        expectEqual(Config.keyPath("feeds[1].address"), [.member("feeds"), .index(1), .member("address")])
    }
}
