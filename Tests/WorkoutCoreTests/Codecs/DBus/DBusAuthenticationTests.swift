import Testing
@testable import WorkoutCore

/// The SASL EXTERNAL handshake, step by step, with the server's possible answers.
@Suite struct DBusAuthenticationTests {
    @Test func openingSendsTheUIDAsHexOfItsDigits() {
        expectEqual(DBusAuthentication.opening(uid: 1000), [0] + Array("AUTH EXTERNAL 31303030\r\n".utf8))
        expectEqual(DBusAuthentication.opening(uid: 0), [0] + Array("AUTH EXTERNAL 30\r\n".utf8))
    }

    @Test func agreedFDs() {
        var a = DBusAuthentication()
        expectEqual(a.receive(line: "OK 1234deadbeef"), .send(Array("NEGOTIATE_UNIX_FD\r\n".utf8)))
        expectEqual(a.phase, .negotiatingFDs(guid: "1234deadbeef"))
        expectEqual(a.receive(line: "AGREE_UNIX_FD"), .begin(Array("BEGIN\r\n".utf8), unixFDs: true))
        expectEqual(a.phase, .done(guid: "1234deadbeef", unixFDs: true))
    }

    @Test func refusedFDsStillBegins() {
        var a = DBusAuthentication()
        _ = a.receive(line: "OK abc")
        expectEqual(a.receive(line: "ERROR not supported"), .begin(Array("BEGIN\r\n".utf8), unixFDs: false))
    }

    @Test func rejectionAndNonsenseFail() {
        var a = DBusAuthentication()
        guard case .fail(let why) = a.receive(line: "REJECTED DBUS_COOKIE_SHA1") else { Issue.record("not failed"); return }
        #expect(why.contains("DBUS_COOKIE_SHA1"))
        var b = DBusAuthentication()
        guard case .fail = b.receive(line: "DATA 1234") else { Issue.record("not failed"); return }
        var c = DBusAuthentication()
        _ = c.receive(line: "OK x")
        guard case .fail = c.receive(line: "OK again") else { Issue.record("not failed"); return }
    }
}
