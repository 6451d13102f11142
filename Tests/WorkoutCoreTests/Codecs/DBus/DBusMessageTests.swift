import Testing
@testable import WorkoutCore

/// Whole messages: the header against known bytes, round trips of every kind in both byte
/// orders, a stream cut at every point, and malformed headers as typed errors.
@Suite struct DBusMessageTests {
    static let hello = DBusMessage.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                              interface: "org.freedesktop.DBus", member: "Hello")

    /// The Hello every client sends first, byte for byte as libdbus and GDBus write it.
    @Test func helloBytes() throws {
        var expected: [UInt8] = [0x6C, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0x6D, 0, 0, 0]
        func field(_ code: UInt8, _ sig: Character, _ text: String, pad: Bool) {
            expected += [code, 1, UInt8(ascii: sig.unicodeScalars.first!), 0]
            expected += [UInt8(text.utf8.count), 0, 0, 0] + Array(text.utf8) + [0]
            if pad { while expected.count % 8 != 0 { expected.append(0) } }
        }
        field(1, "o", "/org/freedesktop/DBus", pad: true)
        field(2, "s", "org.freedesktop.DBus", pad: true)
        field(3, "s", "Hello", pad: true)
        field(6, "s", "org.freedesktop.DBus", pad: false)
        expected += [0, 0, 0]  // the header ends on an 8-byte boundary even with no body
        try expectEqual(Self.hello.encoded(serial: 1), expected)
        let back = try DBusMessage.decode(expected)
        #expect(back.member == "Hello" && back.path == "/org/freedesktop/DBus" && back.serial == 1 && back.body.isEmpty)
    }

    static var examples: [DBusMessage] {
        var call = DBusMessage.methodCall(destination: "org.freedesktop.login1", path: "/org/freedesktop/login1",
                                          interface: "org.freedesktop.login1.Manager", member: "Inhibit",
                                          body: [.string("sleep"), .string("workoutd"), .string("recording a workout"), .string("delay")])
        call.serial = 7
        call.sender = ":1.42"
        var reply = DBusMessage.methodReturn(to: call, body: [.unixFD(0)])
        reply.unixFDCount = 1
        let error = DBusMessage.error(to: call, name: "org.freedesktop.DBus.Error.AccessDenied", message: "Access denied")
        let signal = DBusMessage.signal(path: "/org/bluez/hci0/dev_C0_FF_EE_00_00_01/service000a/char000b",
                                        interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                                        body: [.string("org.bluez.GattCharacteristic1"), .properties([("Value", .bytes([0x16, 90, 0x00, 0x04]))]), .strings([])])
        var notify = DBusMessage.methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                            interface: "org.freedesktop.Notifications", member: "Notify",
                                            body: [.string("workoutd"), .uint32(0), .string(""), .string("Streak at risk"), .string("1 run left"),
                                                   .strings([]), .properties([("urgency", .byte(1))]), .int32(-1)])
        notify.flags = [.noAutoStart, .allowInteractiveAuthorization]
        return [hello, call, reply, error, signal, notify]
    }

    @Test(arguments: DBusEndianness.allCases)
    func roundTrips(_ e: DBusEndianness) throws {
        for (i, m) in Self.examples.enumerated() {
            let bytes = try m.encoded(serial: UInt32(i + 1), endianness: e)
            #expect(bytes.count % 1 == 0 && bytes[0] == e.rawValue)
            var expected = m
            expected.serial = UInt32(i + 1)
            try expectEqual(DBusMessage.decode(bytes), expected, "\(m)")
            try expectEqual(DBusMessage.frameLength(header: bytes[...]), bytes.count)
        }
    }

    /// A connection's header cache: every message decodes to what a fresh decode gives (or
    /// throws the same error), its header the last one's or not: notifications that repeat one
    /// header with new serials and bodies, other messages between, and every byte of a
    /// notification changed right after its unchanged header was cached.
    @Test func aCachedHeaderDecodesAsAFreshOne() throws {
        var cache = DBusHeaderCache()
        func same(_ bytes: [UInt8]) {
            let fresh = Result { () throws(DBusCodecError) in try DBusMessage.decode(bytes) }
            let cached = Result { () throws(DBusCodecError) in try DBusMessage.decode(bytes, headerCache: &cache) }
            expectEqual(fresh, cached)
        }
        var frames: [[UInt8]] = []
        for k in 0..<12 {
            var m = Self.examples[4]
            m.body[1] = .properties([("Value", .bytes((0..<UInt8(k % 7 + 1)).map { $0 &* 37 }))])
            frames.append(try m.encoded(serial: UInt32(k + 1), endianness: k % 5 == 4 ? .big : .little))
        }
        frames += try Self.examples.map { try $0.encoded(serial: 9) } + frames
        for f in frames { same(f) }
        for k in frames[0].indices {
            for v: UInt8 in [0, 1, 0x7F, 0xFF] where frames[0][k] != v {
                var b = frames[0]
                b[k] = v
                _ = try DBusMessage.decode(frames[0], headerCache: &cache)
                same(b)
            }
        }
    }

    /// The connection's reads can end anywhere: every split of a stream of messages, and one
    /// byte at a time, gives the same messages.
    @Test func everyChunkSplit() throws {
        var stream: [UInt8] = []
        var expected: [DBusMessage] = []
        for (i, m) in Self.examples.enumerated() {
            let e: DBusEndianness = i % 2 == 0 ? .little : .big
            stream += try m.encoded(serial: UInt32(i + 1), endianness: e)
            var x = m; x.serial = UInt32(i + 1); expected.append(x)
        }
        func frames(_ chunks: [ArraySlice<UInt8>]) throws -> [DBusMessage] {
            var f = DBusMessageFramer()
            var out: [DBusMessage] = []
            for c in chunks {
                f.append(c)
                while let frame = try f.nextFrame() { out.append(try DBusMessage.decode(frame)) }
            }
            expectEqual(f.pendingByteCount, 0)
            return out
        }
        for cut in 0...stream.count {
            try expectEqual(frames([stream[..<cut], stream[cut...]]), expected, "cut at \(cut)")
        }
        try expectEqual(frames(stream.indices.map { stream[$0...$0] }), expected)
        for size in [2, 3, 7, 8, 13, 64] {
            let chunks = stride(from: 0, to: stream.count, by: size).map { stream[$0..<min($0 + size, stream.count)] }
            try expectEqual(frames(chunks), expected, "chunks of \(size)")
        }
    }

    /// Every prefix of a valid message is an error (truncated), never a crash.
    @Test func everyTruncationIsAnError() throws {
        for m in Self.examples {
            let bytes = try m.encoded(serial: 3)
            for n in 0..<bytes.count {
                #expect(throws: DBusCodecError.self) { try DBusMessage.decode(Array(bytes[..<n])) }
            }
        }
    }

    @Test func malformedHeaders() throws {
        let good = try Self.hello.encoded(serial: 1)
        func patched(_ at: Int, _ v: UInt8) -> [UInt8] { var b = good; b[at] = v; return b }
        #expect(throws: DBusCodecError.invalidEndianness(0x58)) { try DBusMessage.decode(patched(0, 0x58)) }
        #expect(throws: DBusCodecError.unknownMessageType(9)) { try DBusMessage.decode(patched(1, 9)) }
        #expect(throws: DBusCodecError.unsupportedVersion(2)) { try DBusMessage.decode(patched(3, 2)) }
        var zero = good; for i in 8..<12 { zero[i] = 0 }
        #expect(throws: DBusCodecError.zeroSerial) { try DBusMessage.decode(zero) }
        // A body length beyond the limit is refused from the fixed header alone.
        var long = good; long[4] = 0xFF; long[5] = 0xFF; long[6] = 0xFF; long[7] = 0x0F
        #expect(throws: DBusCodecError.messageTooLong(0x0FFF_FFFF + 128, limit: 1 << 27)) { try DBusMessage.decode(long) }
        var framer = DBusMessageFramer(maximumMessageLength: 1000)
        var big = good; big[5] = 0x10  // body length 4096
        framer.append(big)
        #expect(throws: DBusCodecError.messageTooLong(4096 + 128, limit: 1000)) { try framer.nextFrame() }

        // A method call without a member; a signal without an interface; a field of the wrong type.
        var noMember = Self.hello; noMember.member = nil
        #expect(throws: DBusCodecError.missingHeaderField("MEMBER", kind: "method call")) { try noMember.encoded(serial: 1) }
        let wrongType = try handMade(fields: [.structure([.byte(1), .variant(.string("/not-a-path-type"))]),
                                              .structure([.byte(3), .variant(.string("X"))])])
        #expect(throws: DBusCodecError.headerFieldType(code: 1, signature: "s")) { try DBusMessage.decode(wrongType) }
        let missing = try handMade(fields: [.structure([.byte(3), .variant(.string("X"))])])
        #expect(throws: DBusCodecError.missingHeaderField("PATH", kind: "method call")) { try DBusMessage.decode(missing) }
        // Unknown header fields are ignored, as the specification says.
        let unknown = try handMade(fields: [.structure([.byte(1), .variant(.objectPath("/"))]), .structure([.byte(3), .variant(.string("X"))]),
                                            .structure([.byte(99), .variant(.double(1))])])
        try expectEqual(DBusMessage.decode(unknown).member, "X")
        // An fd index beyond UNIX_FDS.
        let fd = try handMade(fields: [.structure([.byte(1), .variant(.objectPath("/"))]), .structure([.byte(3), .variant(.string("X"))]),
                                       .structure([.byte(8), .variant(.signature("h"))]), .structure([.byte(9), .variant(.uint32(1))])],
                              body: [.unixFD(1)])
        #expect(throws: DBusCodecError.unixFDOutOfRange(index: 1, count: 1)) { try DBusMessage.decode(fd) }
        // Body bytes beyond what the signature uses.
        let extra = try handMade(fields: [.structure([.byte(1), .variant(.objectPath("/"))]), .structure([.byte(3), .variant(.string("X"))])],
                                 body: [.uint32(5)])
        #expect(throws: DBusCodecError.bodyLengthMismatch(declared: 4, used: 0)) { try DBusMessage.decode(extra) }
    }

    /// A method call written field by field, to make headers the encoder would refuse.
    private func handMade(fields: [DBusValue], body: [DBusValue] = []) throws -> [UInt8] {
        var w = DBusWriter()
        w.writeByte(0x6C); w.writeByte(1); w.writeByte(0); w.writeByte(1)
        w.write32(0); w.write32(5)
        try w.write(.array(.structure([.byte, .variant]), fields))
        w.pad(to: 8)
        let start = w.bytes.count
        for v in body { try w.write(v) }
        w.patch32(at: 4, UInt32(w.bytes.count - start))
        return w.bytes
    }

    @Test func errorMessageAndDescription() {
        let e = DBusMessage.error(to: Self.examples[1], name: "org.freedesktop.DBus.Error.AccessDenied", message: "Access denied")
        expectEqual(e.errorMessage, "Access denied")
        #expect(e.replySerial == 7 && e.destination == ":1.42")
        #expect("\(Self.examples[1])".contains("org.freedesktop.login1.Manager.Inhibit"))
    }

    /// `readHeaderFields` (the header read without a value tree) reads what the general reader
    /// reads as `a(yv)`, with the same error, for every example in both byte orders, cut at
    /// every length and with every byte of the fields changed to 0, 1, 0x80 and 0xFF.
    @Test(arguments: DBusEndianness.allCases)
    func headerFieldsReadLikeTheGeneralReader(_ e: DBusEndianness) throws {
        func general(_ b: [UInt8], limit: Int) -> Result<[String], DBusCodecError> {
            var r = DBusReader(bytes: b, offset: 12, limit: limit, endianness: e)
            do throws(DBusCodecError) {
                let v = try r.read(.array(.structure([.byte, .variant])))
                return .success((v.elements ?? []).map { f in
                    guard case .structure(let p) = f, case .byte(let c) = p[0], case .variant(let inner) = p[1] else { return "?" }
                    return "\(c)=\(inner) @\(r.offset)"
                })
            } catch { return .failure(error) }
        }
        func direct(_ b: [UInt8], limit: Int) -> Result<[String], DBusCodecError> {
            var r = DBusReader(bytes: b, offset: 12, limit: limit, endianness: e)
            do throws(DBusCodecError) {
                let fields = try r.readHeaderFields()
                return .success(fields.map { "\($0.code)=\($0.value) @\(r.offset)" })
            } catch { return .failure(error) }
        }
        var cases = 0
        for m in Self.examples {
            let good = try m.encoded(serial: 5, endianness: e)
            expectEqual(direct(good, limit: good.count), general(good, limit: good.count))
            try expectGreaterOrEqual(direct(good, limit: good.count).get().count, 3)
            for n in 12..<good.count {
                expectEqual(direct(good, limit: n), general(good, limit: n), "cut at \(n)")
                cases += 1
            }
            let fieldsEnd = min(good.count, 16 + Int(good[12]) + Int(good[13]) << 8)
            for at in 12..<fieldsEnd {
                for v: UInt8 in [0, 1, 0x80, 0xFF] {
                    var b = good; b[at] = v
                    expectEqual(direct(b, limit: b.count), general(b, limit: b.count), "byte \(at) = \(v)")
                    cases += 1
                }
            }
        }
        expectGreater(cases, 1000)
    }
}
