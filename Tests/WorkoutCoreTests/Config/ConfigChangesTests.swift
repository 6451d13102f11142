import Foundation
import Testing
@testable import WorkoutCore

/// `Config.Key` names every top-level key once: the model's stored properties, the keys of
/// config.example.json, and the reload's `changed` all agree, so a key added to one and not the
/// others fails here (and the reload table in WorkoutDaemonTests covers every `Config.Key`).
@Suite struct ConfigChangesTests {
    @Test func keysAreTheModelsStoredProperties() {
        let stored = Mirror(reflecting: Config()).children.compactMap(\.label)
        #expect(Set(stored) == Set(Config.Key.allCases.map(\.rawValue)), "Config's properties vs Config.Key")
        #expect(stored.count == Config.Key.allCases.count)
    }

    @Test func keysAreTheExampleFilesKeys() throws {
        let text = try String(contentsOf: SharedData.projectRoot.appendingPathComponent("config.example.json"), encoding: .utf8)
        let keys = try #require(try JSON.parse(text).objectValue).pairs.map(\.key).filter { !$0.hasPrefix("_") }
        #expect(Set(keys) == Set(Config.Key.allCases.map(\.rawValue)), "config.example.json vs Config.Key")
    }

    @Test func changedKeysNameWhatDiffers() throws {
        #expect(Config().changedKeys(to: Config()).isEmpty)
        let c = try Config.decode(json: #"{"journalFlushSeconds":0.5,"web":null,"metrics":{"jumpMeters":80}}"#)
        #expect(Config().changedKeys(to: c) == [.journalFlushSeconds, .metrics, .web])
        #expect(c.changedKeys(to: Config()) == [.journalFlushSeconds, .metrics, .web])
    }
}
