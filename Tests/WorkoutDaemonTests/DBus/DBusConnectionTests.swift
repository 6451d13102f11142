import Foundation
import Glibc
import Testing
import TestRequirements
import WorkoutCore
@testable import WorkoutDaemon

/// The connection against a real `dbus-daemon --session` started by each test: handshake and
/// Hello, calls to the bus, an error reply, a signal through AddMatch, descriptors passed both
/// ways between two of our connections, and a bus that goes away.
@Suite(.requires(.program(.dbusDaemon)))
struct DBusConnectionTests {
    @Test func helloListNamesAndGetNameOwner() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let loop = try EventLoop()
        let c = try DBusConnection(address: bus.address, loop: loop)
        let name = Box<String?>(nil), names = Box<[String]?>(nil), owner = Box<String?>(nil)
        c.onReady = { if case .success(let n) = $0 { name.value = n } }
        // Made before Hello is answered: queued and sent after it.
        c.callBus("ListNames") { r in names.value = (try? r.get())?.body.first?.elements?.compactMap(\.string) }
        c.callBus("GetNameOwner", [.string("org.freedesktop.DBus")]) { r in owner.value = (try? r.get())?.body.first?.string }
        #expect(run(loop) { names.value != nil && owner.value != nil })
        let unique = try #require(name.value)
        #expect(unique.hasPrefix(":1."))
        #expect(c.uniqueName == unique)
        #expect(names.value?.contains("org.freedesktop.DBus") == true)
        #expect(names.value?.contains(unique) == true, "ListNames lists our own connection")
        #expect(owner.value == "org.freedesktop.DBus")
        c.close()
    }

    @Test func errorReplyIsATypedError() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let loop = try EventLoop()
        let c = try DBusConnection(address: bus.address, loop: loop)
        let result = Box<Result<DBusIncoming, DBusError>?>(nil)
        c.callBus("GetNameOwner", [.string("com.example.Nobody")]) { result.value = $0 }
        #expect(run(loop) { result.value != nil })
        guard case .failure(.remote(let name, let message)) = result.value else {
            Issue.record("expected a remote error, got \(String(describing: result.value))"); return
        }
        #expect(name == "org.freedesktop.DBus.Error.NameHasNoOwner")
        #expect(message.contains("com.example.Nobody"))
        // A method the bus does not have.
        let unknown = Box<DBusError?>(nil)
        c.callBus("NoSuchMethod") { if case .failure(let e) = $0 { unknown.value = e } }
        #expect(run(loop) { unknown.value != nil })
        #expect(unknown.value?.remoteName == "org.freedesktop.DBus.Error.UnknownMethod")
    }

    /// Messages read together (a sensor's batched connection) are dated per object: one
    /// characteristic's notifications spread over the time unread, a device's drop signal after
    /// them not a share of it later than the reading before it.
    @Test func messagesReadTogetherAreDatedPerObject() {
        let ages = DBusConnection.arrivalAges(paths: ["/hr/char", "/hr/char", "/hr", "/hr/char"], span: 0.9)
        #expect(ages.map { ($0 * 1000).rounded() } == [600, 300, 0, 0])
        #expect(DBusConnection.arrivalAges(paths: ["/c"], span: 1) == [0])
    }

    @Test func signalThroughAddMatch() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let loop = try EventLoop()
        let a = try DBusConnection(address: bus.address, loop: loop)
        let accepted = Box(false)
        let seen = Box<[[String]]>([])
        a.addMatch(DBusMatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged"),
                   done: { accepted.value = (try? $0.get()) != nil }) { m in
            seen.value.append(m.body.compactMap(\.string))
        }
        #expect(run(loop) { accepted.value })
        // Another connection appears and takes a well-known name.
        let b = try DBusConnection(address: bus.address, loop: loop)
        let bName = Box<String?>(nil)
        b.onReady = { bName.value = try? $0.get() }
        b.callBus("RequestName", [.string("com.example.Workoutd"), .uint32(4)]) { _ in }
        #expect(run(loop) { seen.value.contains { $0.first == "com.example.Workoutd" } })
        let unique = try #require(bName.value)
        #expect(seen.value.contains([unique, "", unique]), "NameOwnerChanged for B's unique name: \(seen.value)")
        #expect(seen.value.contains(["com.example.Workoutd", "", unique]))
        // B leaves: its names lose their owner.
        b.close()
        #expect(run(loop) { seen.value.contains([unique, unique, ""]) })
        // A rule the bus refuses is reported.
        let refused = Box<DBusError?>(nil)
        a.addMatch(DBusMatchRule(path: "not a path"), done: { if case .failure(let e) = $0 { refused.value = e } }) { _ in }
        #expect(run(loop) { refused.value != nil })
        #expect(refused.value?.remoteName == "org.freedesktop.DBus.Error.MatchRuleInvalid")
    }

    /// B sends A a pipe's read end in a call; A reads it and answers with its own pipe's read
    /// end; B reads that. Descriptors travel both ways through the real bus (SCM_RIGHTS).
    @Test func unixFDsBothWays() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let loop = try EventLoop()
        let a = try DBusConnection(address: bus.address, loop: loop)
        let b = try DBusConnection(address: bus.address, loop: loop)
        let aName = Box<String?>(nil)
        a.onReady = { aName.value = try? $0.get() }
        let readByA = Box<String?>(nil)
        let keep = Box<[Int32]>([])
        defer { for f in keep.value { close(f) } }
        a.export(path: "/com/example/Test") { call in
            guard call.message.member == "Echo", let fd = call.fd(at: 0) else {
                return .error(name: "com.example.Error.BadCall", message: "want Echo(h)")
            }
            readByA.value = readAll(fd)
            close(fd)
            let p = makePipe()
            _ = "answer from A".withCString { write(p.1, $0, strlen($0)) }
            close(p.1)
            keep.value.append(p.0)  // the connection sends a duplicate; ours is closed at the end
            return .reply([.unixFD(0), .string("ok")], fds: [p.0])
        }
        #expect(run(loop) { aName.value != nil && b.uniqueName != nil })
        let p = makePipe()
        _ = "sent by B".withCString { write(p.1, $0, strlen($0)) }
        close(p.1)
        let reply = Box<Result<DBusIncoming, DBusError>?>(nil)
        b.call(.methodCall(destination: aName.value, path: "/com/example/Test", interface: "com.example.Test",
                           member: "Echo", body: [.unixFD(0)]), fds: [p.0]) { reply.value = $0 }
        close(p.0)  // the connection sent its own duplicate
        #expect(run(loop) { reply.value != nil })
        #expect(readByA.value == "sent by B")
        let incoming = try #require(try? reply.value?.get())
        #expect(incoming.message.unixFDCount == 1 && incoming.fds.count == 1)
        #expect(incoming.body.last?.string == "ok")
        let fd = try #require(incoming.fd(at: 0))
        #expect(readAll(fd) == "answer from A")
        close(fd)
        // A path nobody exported.
        let missing = Box<DBusError?>(nil)
        b.call(.methodCall(destination: aName.value, path: "/nothing", interface: "com.example.Test", member: "Echo")) {
            if case .failure(let e) = $0 { missing.value = e }
        }
        #expect(run(loop) { missing.value != nil })
        #expect(missing.value?.remoteName == "org.freedesktop.DBus.Error.UnknownObject")
        // A reply whose descriptor cannot be sent becomes an error reply, not silence.
        a.export(path: "/com/example/Bad") { _ in .reply([.unixFD(0)], fds: [-1]) }
        let bad = Box<DBusError?>(nil)
        b.call(.methodCall(destination: aName.value, path: "/com/example/Bad", interface: "com.example.Test", member: "X")) {
            if case .failure(let e) = $0 { bad.value = e }
        }
        #expect(run(loop) { bad.value != nil })
        #expect(bad.value?.remoteName == "org.freedesktop.DBus.Error.Failed")
    }

    @Test func callTimesOut() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let loop = try EventLoop()
        let a = try DBusConnection(address: bus.address, loop: loop)
        let result = Box<DBusError?>(nil)
        // A peer that holds a name but stops reading its socket: a call to it gets no reply.
        let holder = try DBusConnection(address: bus.address, loop: loop)
        let held = Box(false)
        holder.callBus("RequestName", [.string("com.example.Silent"), .uint32(4)]) { held.value = (try? $0.get()) != nil }
        #expect(run(loop) { held.value })
        holder.export(path: "/never") { _ in .reply([]) }
        holder.detachForTesting()
        a.call(.methodCall(destination: "com.example.Silent", path: "/never", interface: "com.example.T", member: "M"), timeout: 0.3) {
            if case .failure(let e) = $0 { result.value = e }
        }
        #expect(run(loop) { result.value != nil })
        #expect(result.value == .timedOut(member: "com.example.T.M", seconds: 0.3))
    }

    @Test func busGoingAwayFailsPendingCallsAndReportsOnce() throws {
        let bus = try TestBus()
        let loop = try EventLoop()
        let c = try DBusConnection(address: bus.address, loop: loop)
        let closes = Box<[DBusError]>([])
        c.onClose = { closes.value.append($0) }
        #expect(run(loop) { c.uniqueName != nil })
        bus.stop()
        #expect(run(loop) { !closes.value.isEmpty })
        #expect(closes.value == [.disconnected("the bus closed the connection")])
        let after = Box<DBusError?>(nil)
        c.callBus("ListNames") { if case .failure(let e) = $0 { after.value = e } }
        #expect(run(loop) { after.value != nil })
        #expect(after.value == .disconnected("the bus closed the connection"))
        #expect(closes.value.count == 1)
    }
}

/// Close-on-exec: a child another test spawns meanwhile must not inherit an end (a write end
/// held by a child is a lock never seen released: SleepInhibitorTests failed so once).
func makePipe() -> (Int32, Int32) {
    var p: [Int32] = [0, 0]
    precondition(pipe(&p) == 0)
    for fd in p { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }  // Glibc's module has no pipe2
    return (p[0], p[1])
}

func readAll(_ fd: Int32) -> String {
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 256)
    while true {
        let n = read(fd, &buf, buf.count)
        if n <= 0 { break }
        out += buf[0..<n]
    }
    return String(decoding: out, as: UTF8.self)
}
