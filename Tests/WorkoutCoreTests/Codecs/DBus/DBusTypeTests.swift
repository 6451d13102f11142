import Testing
@testable import WorkoutCore

/// Signatures: every valid form parses to the type it names and prints back the same; every
/// malformed one is a typed error naming the reason.
@Suite struct DBusTypeTests {
    @Test(arguments: [
        ("y", [DBusType.byte]), ("b", [.boolean]), ("n", [.int16]), ("q", [.uint16]), ("i", [.int32]),
        ("u", [.uint32]), ("x", [.int64]), ("t", [.uint64]), ("d", [.double]), ("s", [.string]),
        ("o", [.objectPath]), ("g", [.signature]), ("h", [.unixFD]), ("v", [.variant]),
        ("as", [.array(.string)]), ("a{sv}", [.array(.dictEntry(.string, .variant))]),
        ("(ii)", [.structure([.int32, .int32])]), ("susssasa{sv}i", [.string, .uint32, .string, .string, .string, .array(.string), .array(.dictEntry(.string, .variant)), .int32]),
        ("a{oa{sa{sv}}}", [.array(.dictEntry(.objectPath, .array(.dictEntry(.string, .array(.dictEntry(.string, .variant))))))]),
        ("a(yv)", [.array(.structure([.byte, .variant]))]), ("hq", [.unixFD, .uint16]), ("", []),
    ] as [(String, [DBusType])])
    func validSignatures(_ text: String, _ types: [DBusType]) throws {
        try expectEqual(DBusType.parse(text), types)
        expectEqual(types.map(\.signature).joined(), text)
    }

    @Test(arguments: [
        ("a", "ends inside"), ("(", "unclosed"), ("()", "empty struct"), ("{sv}", "outside an array"),
        ("a{vs}", "basic type"), ("a{s}", "key and a value"), ("a{sss}", "exactly two"), (")", "unbalanced"),
        ("z", "unknown type code"), ("(i", "unclosed"), ("a{sv", "exactly two"),
    ])
    func invalidSignatures(_ text: String, _ reason: String) {
        #expect {
            _ = try DBusType.parse(text)
        } throws: { error in
            guard case DBusCodecError.invalidSignature(let s, let why) = error else { return false }
            return s == text && why.contains(reason)
        }
    }

    @Test func nestingLimits() throws {
        _ = try DBusType.parse(String(repeating: "a", count: 32) + "y")
        #expect(throws: DBusCodecError.self) { try DBusType.parse(String(repeating: "a", count: 33) + "y") }
        _ = try DBusType.parse(String(repeating: "(", count: 32) + "y" + String(repeating: ")", count: 32))
        #expect(throws: DBusCodecError.self) { try DBusType.parse(String(repeating: "(", count: 33) + "y" + String(repeating: ")", count: 33)) }
        #expect(throws: DBusCodecError.self) { try DBusType.parse(String(repeating: "y", count: 256)) }
        _ = try DBusType.parse(String(repeating: "y", count: 255))
    }

    @Test func variantSignatureMustBeOneType() {
        #expect(throws: DBusCodecError.self) { try DBusType.parseSingle("ss") }
        #expect(throws: DBusCodecError.self) { try DBusType.parseSingle("") }
        #expect((try? DBusType.parseSingle("a{sv}")) == .array(.dictEntry(.string, .variant)))
    }

    @Test func alignments() {
        let table: [(DBusType, Int)] = [(.byte, 1), (.boolean, 4), (.int16, 2), (.uint16, 2), (.int32, 4), (.uint32, 4),
                                        (.int64, 8), (.uint64, 8), (.double, 8), (.string, 4), (.objectPath, 4),
                                        (.signature, 1), (.unixFD, 4), (.variant, 1), (.array(.byte), 4),
                                        (.structure([.byte]), 8), (.dictEntry(.byte, .byte), 8)]
        for (t, a) in table { expectEqual(t.alignment, a, "\(t)") }
    }

    @Test func names() {
        #expect(DBusNames.isValidObjectPath("/"))
        #expect(DBusNames.isValidObjectPath("/org/freedesktop/login1"))
        #expect(DBusNames.isValidObjectPath("/org/bluez/hci0/dev_C0_FF_EE_00_00_01"))
        for bad in ["", "org", "/org/", "//", "/a//b", "/a-b", "/é"] { #expect(!DBusNames.isValidObjectPath(bad), "\(bad)") }
        #expect(DBusNames.isValidInterface("org.freedesktop.DBus"))
        for bad in ["org", "org.", ".org", "org.1a", "org.a-b", String(repeating: "a.", count: 128) + "a"] {
            #expect(!DBusNames.isValidInterface(bad), "\(bad)")
        }
        #expect(DBusNames.isValidMember("PrepareForSleep"))
        for bad in ["", "1a", "a.b", "a-b"] { #expect(!DBusNames.isValidMember(bad), "\(bad)") }
        for good in [":1.42", "org.freedesktop.login1", "org.bluez", "com.example-x.y", ":1.0"] { #expect(DBusNames.isValidBusName(good), "\(good)") }
        for bad in ["", "org", ":1", "org..x", "org.1x", ":"] { #expect(!DBusNames.isValidBusName(bad), "\(bad)") }
    }
}
