import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// GLib's D-Bus marshaller (Gio.DBusMessage, through python3-gi) as an independent oracle:
/// messages GLib writes in both byte orders decode to the values it was given, and messages we
/// write are read back by GLib with the same values.
@Suite(.requires(.python(.gi)))
struct DBusGLibOracleTests {
    static let python = GLibOracle.python

    @Test func weDecodeWhatGLibWrites() throws {
        var template = Array("/tmp/x.XXXXXX".utf8CString)
        let dir = String(cString: template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }!)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = SharedData.projectRoot.appendingPathComponent("fuzz/dbus-seeds.py").path
        let r = try SharedData.run([Self.python, script, dir])
        expectEqual(r.status, 0, "\(r.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        expectEqual(names.filter { $0.hasPrefix("msg") }.count, 20)
        var decoded: [String: DBusMessage] = [:]
        for name in names {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)).dropFirst())  // first byte: the fuzz split
            var framer = DBusMessageFramer()
            framer.append(bytes)
            var count = 0
            while let frame = try framer.nextFrame() {
                let m = try DBusMessage.decode(frame)
                decoded["\(name)#\(count)"] = m
                count += 1
            }
            expectEqual(framer.pendingByteCount, 0, "\(name)")
            expectEqual(count, (name.hasPrefix("stream") ? 10 : 1), "\(name)")
        }
        // msgNN: message N little-endian, msg(11+N) big-endian; stream10 and stream21 hold all ten.
        for key in ["msg04#0", "msg15#0"] {
            let m = try #require(decoded[key])
            #expect(m.member == "Inhibit" && m.path == "/org/freedesktop/login1" && m.destination == "org.freedesktop.login1")
            expectEqual(m.body, [.string("sleep"), .string("workoutd"), .string("recording a workout"), .string("delay")])
            expectEqual(m.serial, 11)
        }
        for key in ["msg08#0", "msg19#0"] {
            let m = try #require(decoded[key])
            #expect(m.body.count == 8 && m.body[3] == .string("Streak at risk") && m.body[1] == .uint32(3) && m.body[7] == .int32(-1))
            let hints = try #require(m.body[6].dictionary)
            expectEqual(hints["urgency"], .variant(.byte(1)))
            expectEqual(hints["x"], .variant(.structure([.int64(-1), .uint64(.max), .double(2.5)])))
        }
        for key in ["msg09#0", "msg20#0"] {
            let m = try #require(decoded[key])
            expectEqual(m.body, [.byte(255), .boolean(true), .int16(-2), .uint16(65535), .int32(-7), .uint32(7), .int64(.min),
                               .uint64(.max), .double(-0.5), .signature("a{sv}"), .variant(.variant(.string("deep")))])
        }
        let managed = try #require(decoded["msg07#0"]?.body.first?.dictionary)
        let device = try #require(managed["/org/bluez/hci0/dev_C0_FF_EE_00_00_01"]?.dictionary?["org.bluez.Device1"]?.dictionary)
        #expect(device["RSSI"] == .variant(.int16(-60)) && device["Appearance"] == .variant(.uint16(0x0341)))
        #expect(decoded["msg03#0"]?.errorName == "org.freedesktop.DBus.Error.AccessDenied" && decoded["msg03#0"]?.errorMessage == "Access denied")
        expectEqual(decoded["msg06#0"]?.body[1].dictionary?["Value"]?.byteArray, [0x16, 90, 0x00, 0x04])
    }

    @Test(arguments: DBusEndianness.allCases)
    func glibReadsWhatWeWrite(_ e: DBusEndianness) throws {
        var m = DBusMessage.methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                       interface: "org.freedesktop.Notifications", member: "Notify",
                                       body: [.string("workoutd"), .uint32(3), .string(""), .string("Ünïcødé 🏃"), .string("body"),
                                              .strings([]), .properties([("urgency", .byte(2)), ("t", .structure([.int64(-5), .double(0.25)]))]),
                                              .int32(-1), .unixFD(0)])
        m.unixFDCount = 1
        let bytes = try m.encoded(serial: 42, endianness: e)
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let r = try SharedData.run([Self.python, "-c", """
            import sys
            from gi.repository import Gio
            m = Gio.DBusMessage.new_from_blob(bytes.fromhex(sys.argv[1]), Gio.DBusCapabilityFlags.UNIX_FD_PASSING)
            print(m.get_serial(), m.get_byte_order() == Gio.DBusMessageByteOrder.BIG_ENDIAN, m.get_member(), m.get_destination(), m.get_num_unix_fds())
            print(m.get_body().print_(True))
            """, hex])
        expectEqual(r.status, 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        expectEqual(lines.first, "42 \(e == .big ? "True" : "False") Notify org.freedesktop.Notifications 1")
        #expect(lines.count == 2 && lines[1] == "('workoutd', uint32 3, '', 'Ünïcødé 🏃', 'body', @as [], {'urgency': <byte 0x02>, 't': <(int64 -5, 0.25)>}, -1, handle 0)")
    }
}

enum GLibOracle {
    static let python = "/usr/bin/python3"
}
