import Testing
import TestRequirements
@testable import WorkoutCore

/// One schema, two sinks: what `encode(to:)` writes as bytes (`JSONWriter`) is exactly the text
/// of the tree it builds (`JSONTree`), for every workout the shared captures make.
@Suite struct JSONSinkTests {
    static func text(_ w: JSONWriter) -> String? { String(validating: w.bytes, as: UTF8.self) }

    /// Every activity file in ../shared/data that imports (device files of many makers: laps,
    /// swims, power, heart rate, device elevation, warnings), summary and events, the whole
    /// summary and the `status` cut with its recent splits.
    @Test(.requires(.sharedData)) func treeAndBytesAreTheSameTextForRealWorkouts() throws {
        var checked = 0, withLaps = 0, withPower = 0, withHeartRate = 0
        for folder in ["data/gpx", "data/tcx", "data/fit", "data/corpus/gpx", "data/corpus/tcx", "data/corpus/fit"] {
            for ext in ["gpx", "tcx", "fit"] {
                for url in SharedData.files(in: folder, ext: ext) {
                    let name = url.lastPathComponent
                    // Files that are no activity or are damaged on purpose say so elsewhere.
                    guard let tracks = try? Importer.readAll(try SharedData.bytes(url), fileName: name) else { continue }
                    for (k, track) in tracks.enumerated() {
                        guard let w = try? Importer.workout(from: track, activity: nil, id: UInt16(k + 1), settings: MetricsSettings(),
                                                            source: "imported:" + name) else { continue }
                        let s = w.summary
                        var bytes = JSONWriter(), cache = SummaryJSONCache()
                        s.writeJSON(to: &bytes, cache: &cache)
                        expectEqual(Self.text(bytes), s.json().serialized(), "\(name) summary")
                        let recentTree = JSONTree.build { t in
                            s.encode(to: &t, recent: 2) { t, list in t.array(list.items) { t, l in l.encode(to: &t) } }
                        }
                        var recent = JSONWriter()
                        s.writeJSON(to: &recent, cache: &cache, recent: 2)
                        expectEqual(Self.text(recent), recentTree.serialized(), "\(name) status cut")
                        expectEqual(recentTree["splitCount"]?.intValue, s.splits.count)
                        for e in w.events {
                            var ew = JSONWriter()
                            e.writeJSON(to: &ew)
                            expectEqual(Self.text(ew), e.json().serialized(), "\(name) event")
                        }
                        checked += 1
                        if !s.laps.isEmpty { withLaps += 1 }
                        if s.averagePower != nil { withPower += 1 }
                        if s.averageHeartRate != nil { withHeartRate += 1 }
                    }
                }
            }
        }
        expectGreater(checked, 20, "the captures should make many workouts")
        #expect(withLaps > 0 && withPower > 0 && withHeartRate > 0, "laps \(withLaps), power \(withPower), heart rate \(withHeartRate)")
    }

    /// Nested objects and arrays, run-time keys and non-finite numbers, through both sinks.
    @Test func nestedValuesWriteAlike() {
        func write<S: JSONSink>(_ s: inout S) {
            s.beginObject()
            s.key("a"); s.array([1.5, .nan, 3]) { s, v in s.number(v) }
            s.key("b"); s.beginObject(); s.endObject()
            s.key(named: "quote\"d"); s.string("x\ny")
            s.key("c"); s.array([[Int](), [1, 2]]) { s, l in s.ints(l) }
            s.key("d"); s.value(["k": [true, nil]])
            s.key("e"); s.time(1_800_000_000.25, fractionDigits: 3)
            s.key("f"); s.string(nil as String?)
            s.endObject()
        }
        var w = JSONWriter()
        write(&w)
        let tree = JSONTree.build { write(&$0) }
        expectEqual(Self.text(w), tree.serialized())
        expectEqual(tree.serialized(), #"{"a":[1.5,null,3],"b":{},"quote\"d":"x\ny","c":[[],[1,2]],"d":{"k":[true,null]},"e":"2027-01-15T08:00:00.250Z","f":null}"#)
    }
}
