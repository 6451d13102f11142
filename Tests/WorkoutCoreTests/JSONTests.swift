import Testing
@testable import WorkoutCore

@Suite struct JSONTests {
    /// Member lookup compares lengths first, then text; keys of one length, prefixes and
    /// canonically equivalent spellings with other bytes are told apart; the last duplicate wins.
    @Test func objectMembersAreFoundByExactName() throws {
        let j = try JSON.parse(Array(#"{"movingSeconds":1,"elapsedSeconds":2,"distanceMeters":3,"id":"x","i":4,"caf\u00e9":5,"cafe\u0301":6,"id":"y"}"#.utf8))
        expectEqual(j["elapsedSeconds"]?.doubleValue, 2)  // same length as distanceMeters
        expectEqual(j["distanceMeters"]?.doubleValue, 3)
        expectEqual(j["movingSeconds"]?.doubleValue, 1)
        expectEqual(j["i"]?.doubleValue, 4)
        expectEqual(j["id"]?.stringValue, "y")
        expectEqual(j["caf\u{e9}"]?.doubleValue, 5)
        expectEqual(j["cafe\u{301}"]?.doubleValue, 6)
        expectNil(j["elapsed"])
        expectEqual(j.objectValue?.pairs.count, 7)
        var o = JSONObject()
        o["a"] = 1
        o["ab"] = 2
        o["a"] = nil
        expectEqual(o.keys, ["ab"])
    }

    /// Duplicates are found by key hash, then text: a spelling with escapes is the same name,
    /// the last value wins at the first one's place, nested objects keep their own names, and
    /// a large object (the index's summaries have ~50 members) finds a duplicate at its end.
    @Test func duplicateKeysAreOneMemberWhateverTheirSpelling() throws {
        let j = try JSON.parse(#"{"a":1,"\u0061":2,"b":{"a":3,"a":4,"ab":5},"a":6}"#)
        expectEqual(j.objectValue?.keys, ["a", "b"])
        expectEqual(j["a"]?.intValue, 6)
        expectEqual(j["b"]?.objectValue?.keys, ["a", "ab"])
        expectEqual(j["b"]?["a"]?.intValue, 4)
        let members = (0..<60).map { #""k\#($0)":\#($0)"# }
        let big = try JSON.parse("{" + (members + [#""k7":"x""#, #""k59":null"#]).joined(separator: ",") + "}")
        expectEqual(big.objectValue?.keys, (0..<60).map { "k\($0)" })
        expectEqual(big["k7"]?.stringValue, "x")
        expectEqual(big["k59"]?.isNull, true)
        expectEqual(big["k58"]?.intValue, 58)
    }

    /// `JSONObject.Reader` answers what the subscript answers, in any order of asking.
    @Test func aReaderFindsWhatTheSubscriptFinds() throws {
        let o = try #require(try JSON.parse("{" + (0..<50).map { #""m\#($0)":\#($0)"# }.joined(separator: ",") + "}").objectValue)
        let names = (0..<50).map { "m\($0)" } + ["missing", "m"]
        var rng = SystemRandomNumberGenerator()
        for order in [names, names.reversed(), names.shuffled(using: &rng), names.filter { $0.hasSuffix("3") } + names] {
            var r = JSONObject.Reader(o)
            for name in order { expectEqual(r[name], o[name], "\(name)") }
        }
    }

    @Test func roundTripsNestedValues() throws {
        let text = #"{"a":1,"b":[true,false,null,"x\n\"y\u00e9"],"c":{"d":-1.25e2,"e":0.5}}"#
        let v = try JSON.parse(text)
        expectEqual(v["a"]?.intValue, 1)
        expectEqual(v["c"]?["d"]?.doubleValue, -125)
        expectEqual(v["b"]?.arrayValue?[3].stringValue, "x\n\"yé")
        try expectEqual(JSON.parse(v.serialized()), v)
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "tru", "01", "1.", "\"\u{01}\"", "{\"a\":1}x", "\"\\ud800\"", "-", "[" + String(repeating: "[", count: 100)])
    func refusesMalformed(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSON.parse(text) }
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: JSONParseError.self) { try JSON.parse([0x22, 0xFF, 0xFE, 0x22]) }
    }

    @Test func formatsNumbersWithoutExponent() {
        expectEqual(JSON.format(3), "3")
        expectEqual(JSON.format(0.00001), "0.000010000")
        expectEqual(formatFixed(-12.3456789, decimals: 7), "-12.3456789")
        expectEqual(formatFixed(-0.00000001, decimals: 7), "0.0000000")
        expectEqual(formatFixed(1.5, decimals: 0), "2")
    }
}
