import Testing
@testable import WorkoutCore

/// Values against the specification's byte layout (table), and every type through both byte
/// orders and back (round trips).
@Suite struct DBusMarshallingTests {
    private func bytes(_ v: DBusValue, _ e: DBusEndianness = .little, at start: Int = 0) throws -> [UInt8] {
        var w = DBusWriter(endianness: e)
        for _ in 0..<start { w.writeByte(0xEE) }
        try w.write(v)
        return Array(w.bytes.dropFirst(start))
    }

    @Test func layoutTable() throws {
        let table: [(DBusValue, Int, [UInt8])] = [
            (.byte(0xAB), 0, [0xAB]),
            (.boolean(true), 0, [1, 0, 0, 0]),
            (.int16(-2), 0, [0xFE, 0xFF]),
            (.uint16(0x1234), 1, [0, 0x34, 0x12]),                       // padded to 2
            (.int32(-1), 1, [0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]),          // padded to 4
            (.uint32(0x01020304), 0, [4, 3, 2, 1]),
            (.int64(1), 4, [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]),
            (.uint64(0x0102030405060708), 0, [8, 7, 6, 5, 4, 3, 2, 1]),
            (.double(1.0), 0, [0, 0, 0, 0, 0, 0, 0xF0, 0x3F]),
            (.string("abc"), 0, [3, 0, 0, 0, 0x61, 0x62, 0x63, 0]),
            (.string(""), 0, [0, 0, 0, 0, 0]),
            (.objectPath("/a"), 0, [2, 0, 0, 0, 0x2F, 0x61, 0]),
            (.signature("a{sv}"), 0, [5, 0x61, 0x7B, 0x73, 0x76, 0x7D, 0]),
            (.unixFD(2), 0, [2, 0, 0, 0]),
            (.variant(.byte(7)), 0, [1, 0x79, 0, 7]),
            (.variant(.uint32(7)), 0, [1, 0x75, 0, 0, 7, 0, 0, 0]),    // value aligned after the signature
            // An empty array of 8-aligned elements still pads to 8 after its length (not counted).
            (.array(.int64, []), 0, [0, 0, 0, 0, 0, 0, 0, 0]),
            (.array(.int64, [.int64(1)]), 0, [8, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]),
            (.bytes([1, 2, 3]), 0, [3, 0, 0, 0, 1, 2, 3]),
            (.structure([.byte(1), .uint32(2)]), 0, [1, 0, 0, 0, 2, 0, 0, 0]),
            (.structure([.byte(1)]), 3, [0, 0, 0, 0, 0, 1]),             // struct aligned to 8
            (.dictionary(key: .string, value: .variant, [(.string("a"), .variant(.byte(1)))]), 0,
             [10, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0x61, 0, 1, 0x79, 0, 1]),
        ]
        for (value, start, expected) in table {
            try expectEqual(bytes(value, at: start), expected, "\(value) at offset \(start)")
        }
        // Big-endian layout of the same integers.
        try expectEqual(bytes(.uint32(0x01020304), .big), [1, 2, 3, 4])
        try expectEqual(bytes(.string("ab"), .big), [0, 0, 0, 2, 0x61, 0x62, 0])
        try expectEqual(bytes(.double(1.0), .big), [0x3F, 0xF0, 0, 0, 0, 0, 0, 0])
    }

    static let samples: [DBusValue] = [
        .byte(0), .byte(255), .boolean(false), .boolean(true), .int16(.min), .int16(.max), .uint16(.max),
        .int32(.min), .int32(.max), .uint32(.max), .int64(.min), .int64(.max), .uint64(.max),
        .double(-0.0), .double(3.141592653589793), .double(.infinity), .double(-1e308),
        .string(""), .string("Ünïcødé 🏃 running"), .objectPath("/"), .objectPath("/org/freedesktop/login1"),
        .signature(""), .signature("a{oa{sa{sv}}}"), .unixFD(0),
        .variant(.variant(.string("nested"))), .variant(.array(.byte, [])),
        .strings([]), .strings(["a", "bc", ""]), .bytes([0x16, 0x4C, 0x02, 0x03]),
        .array(.double, [.double(1), .double(2)]), .array(.array(.int64), [.array(.int64, []), .array(.int64, [.int64(5)])]),
        .structure([.byte(1), .string("x"), .double(2), .array(.uint16, [.uint16(3)])]),
        .properties([("Connected", .boolean(true)), ("RSSI", .int16(-60)), ("UUIDs", .strings(["180d"]))]),
        .dictionary(key: .objectPath, value: .array(.dictEntry(.string, .array(.dictEntry(.string, .variant)))), [
            (.objectPath("/org/bluez/hci0"), .dictionary(key: .string, value: .array(.dictEntry(.string, .variant)), [
                (.string("org.bluez.Adapter1"), .properties([("Powered", .boolean(true))])),
            ])),
        ]),
        .dictionary(key: .uint32, value: .structure([.int64, .string]), []),
    ]

    @Test(arguments: DBusEndianness.allCases)
    func roundTripsEveryTypeAtEveryAlignment(_ e: DBusEndianness) throws {
        for v in Self.samples {
            for start in 0..<8 {
                var w = DBusWriter(endianness: e)
                for _ in 0..<start { w.writeByte(0) }
                try w.write(v)
                var r = DBusReader(bytes: w.bytes, offset: start, endianness: e)
                let back = try r.read(v.type)
                expectEqual("\(back)", "\(v)", "\(v) from offset \(start)")
                #expect(r.atEnd)
            }
        }
    }

    @Test func writerRefusesWhatTheBusWouldReject() {
        var w = DBusWriter()
        #expect(throws: DBusCodecError.self) { try w.write(.string("a\u{0}b")) }
        #expect(throws: DBusCodecError.self) { try w.write(.objectPath("not/a/path")) }
        #expect(throws: DBusCodecError.self) { try w.write(.signature("a{vs}")) }
        #expect(throws: DBusCodecError.valueDoesNotMatchType(expected: "s", found: "u")) { try w.write(.array(.string, [.uint32(1)])) }
        #expect(throws: DBusCodecError.self) { try w.write(.structure([])) }
    }

    @Test func readerErrorsAreTyped() {
        func read(_ bytes: [UInt8], _ t: DBusType, _ e: DBusEndianness = .little) throws(DBusCodecError) -> DBusValue {
            var r = DBusReader(bytes: bytes, endianness: e)
            return try r.read(t)
        }
        #expect(throws: DBusCodecError.invalidBoolean(2, offset: 0)) { try read([2, 0, 0, 0], .boolean) }
        #expect(throws: DBusCodecError.truncated(offset: 0, needed: 2)) { try read([1, 0], .uint32) }
        #expect(throws: DBusCodecError.invalidString(offset: 4, reason: "not NUL-terminated")) { try read([1, 0, 0, 0, 0x61, 0x62], .string) }
        #expect(throws: DBusCodecError.invalidString(offset: 4, reason: "contains a NUL byte")) { try read([2, 0, 0, 0, 0, 0x62, 0], .string) }
        #expect(throws: DBusCodecError.invalidString(offset: 4, reason: "not valid UTF-8")) { try read([2, 0, 0, 0, 0xC3, 0x28, 0], .string) }
        #expect(throws: DBusCodecError.invalidObjectPath("a")) { try read([1, 0, 0, 0, 0x61, 0], .objectPath) }
        #expect(throws: DBusCodecError.nonZeroPadding(offset: 1)) { try read([1, 9, 0, 0, 5, 0, 0, 0], .structure([.byte, .uint32])) }
        // An array whose declared length ends inside an element.
        #expect(throws: DBusCodecError.arrayLengthMismatch(offset: 4)) { try read([3, 0, 0, 0, 1, 0, 0, 0], .array(.uint32)) }
        // A huge declared length is refused before anything is allocated.
        #expect(throws: DBusCodecError.arrayTooLong(0x7FFF_FFFF, limit: 1 << 26)) { try read([0xFF, 0xFF, 0xFF, 0x7F], .array(.byte)) }
        #expect(throws: DBusCodecError.truncated(offset: 4, needed: 996)) { try read([0xE8, 0x03, 0, 0, 1, 2, 3, 4], .array(.byte)) }
        #expect(throws: DBusCodecError.self) { try read([2, 0x73, 0x73, 0], .variant) }  // "ss" is not one type
        #expect(throws: DBusCodecError.self) { try read([0xFF], .string) }
    }

    /// Variants carry their own signature, so nesting is not bounded by one signature's 255
    /// bytes: 64 levels are read, the 65th is refused (no stack overflow on deeper input).
    @Test func variantNestingIsBounded() throws {
        func nested(_ depth: Int) -> [UInt8] { Array(repeating: [1, 0x76, 0] as [UInt8], count: depth).flatMap { $0 } + [1, 0x79, 0, 7] }
        var ok = DBusReader(bytes: nested(63), endianness: .little)
        _ = try ok.read(.variant)
        var deep = DBusReader(bytes: nested(64), endianness: .little)
        #expect(throws: DBusCodecError.nestingTooDeep(limit: 64)) { try deep.read(.variant) }
        var huge = DBusReader(bytes: nested(100_000), endianness: .little)
        #expect(throws: DBusCodecError.nestingTooDeep(limit: 64)) { try huge.read(.variant) }
    }

    @Test func accessors() {
        let props = DBusValue.properties([("Connected", .boolean(true)), ("Name", .string("HRM")), ("Value", .bytes([0x16, 0x5A]))])
        let d = props.dictionary
        expectEqual(d?["Connected"]?.bool, true)
        expectEqual(d?["Name"]?.string, "HRM")
        expectEqual(d?["Value"]?.byteArray, [0x16, 0x5A])
        expectEqual(DBusValue.variant(.uint16(7)).integer, 7)
        expectEqual(DBusValue.strings(["a"]).elements, [.string("a")])
        expectEqual(DBusValue.structure([.unixFD(0), .uint16(23)]).fields?.first?.unixFDIndex, 0)
    }
}
