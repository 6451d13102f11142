import Foundation
import Glibc
import Testing
import TestRequirements
import WorkoutCore
@testable import WorkoutDaemon

/// The inhibitor against a logind stand-in (our own connection owning org.freedesktop.login1
/// on a real dbus-daemon): Inhibit's descriptor held and let go, block refused -> delay,
/// PrepareForSleep's order (handler, then release, then re-take on resume), no logind, no bus.
/// The real logind and polkit are exercised by .ci/systemd-test.sh in systemd-rig.
@Suite(.requires(.program(.dbusDaemon)))
struct SleepInhibitorTests {
    /// Answers Inhibit like logind: a pipe's write end; the read end shows when we let go.
    final class FakeLogind {
        let connection: DBusConnection
        var denyBlock = false
        var modes: [String] = []
        var readEnds: [Int32] = []
        var owned = false

        init(bus: TestBus, loop: EventLoop) throws {
            connection = try DBusConnection(address: bus.address, loop: loop)
            connection.export(path: "/org/freedesktop/login1") { [unowned self] call in
                guard call.message.member == "Inhibit", call.body.count == 4, let mode = call.body[3].string else {
                    return .error(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no")
                }
                self.modes.append(mode)
                if mode == "block" && self.denyBlock {
                    return .error(name: "org.freedesktop.DBus.Error.AccessDenied", message: "Access denied")
                }
                let p = makePipe()
                self.readEnds.append(p.0)
                defer { self.closeLater.append(p.1) }
                return .reply([.unixFD(0)], fds: [p.1])
            }
            connection.callBus("RequestName", [.string("org.freedesktop.login1"), .uint32(4)]) { [unowned self] r in
                self.owned = (try? r.get())?.body.first?.uint32 == 1
            }
        }
        var closeLater: [Int32] = []

        /// Whether the lock behind Inhibit call `i` was let go (its write end closed everywhere).
        func released(_ i: Int) -> Bool {
            for f in closeLater { close(f) }
            closeLater = []
            var p = pollfd(fd: readEnds[i], events: Int16(POLLIN), revents: 0)
            return poll(&p, 1, 0) == 1 && p.revents & Int16(POLLHUP) != 0
        }

        func emitPrepareForSleep(_ starting: Bool) throws {
            try connection.send(.signal(path: "/org/freedesktop/login1", interface: "org.freedesktop.login1.Manager",
                                        member: "PrepareForSleep", body: [.boolean(starting)]))
        }

        deinit { for f in readEnds + closeLater { close(f) } }
    }

    /// A private bus with a fake logind that owns its name, for `body`; the bus stops after.
    func withLogind(_ body: (_ bus: TestBus, _ loop: EventLoop, _ logind: FakeLogind) throws -> Void) throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let loop = try EventLoop()
        let logind = try FakeLogind(bus: bus, loop: loop)
        #expect(run(loop) { logind.owned })
        try body(bus, loop, logind)
    }

    @Test func blockHeldAndLetGo() throws {
        try withLogind { bus, loop, logind in
            let inhibitor = SleepInhibitor(loop: loop, mode: .block, address: bus.address)
            var seen: [String] = []
            inhibitor.onChange = { seen.append("\($0)") }
            inhibitor.acquire()
            #expect(run(loop) { inhibitor.state.heldMode != nil })
            #expect(inhibitor.state.heldMode == .block)
            #expect(logind.modes == ["block"])
            #expect(!logind.released(0))
            #expect(inhibitor.state.description == "holding a logind block lock on sleep (suspend is blocked while recording)")
            inhibitor.acquire()  // a second start while held asks for nothing more
            inhibitor.release()
            #expect(inhibitor.state == .off)
            #expect(logind.released(0))
            #expect(seen.first == "asking logind for a block lock on sleep" && seen.last == "no sleep inhibitor held")
            #expect(logind.modes == ["block"])
        }
    }

    @Test func blockRefusedTakesDelayAndSaysSo() throws {
        try withLogind { bus, loop, logind in
            logind.denyBlock = true
            let inhibitor = SleepInhibitor(loop: loop, mode: .block, address: bus.address)
            inhibitor.acquire()
            #expect(run(loop) { inhibitor.state.heldMode != nil })
            #expect(logind.modes == ["block", "delay"])
            guard case .held(.delay, _, let note?) = inhibitor.state else { Issue.record("\(inhibitor.state)"); return }
            #expect(note.contains("block was refused (Access denied)"))
            #expect(inhibitor.state.description.contains("holding a logind delay lock on sleep"))
            inhibitor.release()
            #expect(logind.released(0))
        }
    }

    /// PrepareForSleep(true): the handler runs while the delay lock is still held, then the lock
    /// goes; PrepareForSleep(false) takes it again.
    @Test func prepareForSleepFlushesThenLetsGoThenRetakes() throws {
        try withLogind { bus, loop, logind in
            let inhibitor = SleepInhibitor(loop: loop, mode: .delay, address: bus.address)
            var order: [String] = []
            inhibitor.onPrepareForSleep = { order.append(logind.released(0) ? "flush after release" : "flush while held") }
            inhibitor.onResume = { order.append("resume") }
            inhibitor.acquire()
            #expect(run(loop) { inhibitor.state.heldMode == .delay })
            try logind.emitPrepareForSleep(true)
            #expect(run(loop) { inhibitor.state == .sleeping })
            #expect(order == ["flush while held"])
            #expect(logind.released(0))
            try logind.emitPrepareForSleep(false)
            #expect(run(loop) { inhibitor.state.heldMode == .delay })
            #expect(order == ["flush while held", "resume"])
            #expect(logind.modes == ["delay", "delay"])
            #expect(!logind.released(1))
            // A signal from someone who is not logind is not routed to us (the rule names the sender).
            let impostor = try DBusConnection(address: bus.address, loop: loop)
            #expect(run(loop) { impostor.uniqueName != nil })
            try impostor.send(.signal(path: "/org/freedesktop/login1", interface: "org.freedesktop.login1.Manager",
                                      member: "PrepareForSleep", body: [.boolean(true)]))
            run(loop, seconds: 0.3) { false }
            #expect(inhibitor.state.heldMode == .delay)
            #expect(order == ["flush while held", "resume"])
            inhibitor.release()
            #expect(logind.released(1))
        }
    }

    @Test func releasedWhileAskingLetsTheLateLockGo() throws {
        try withLogind { bus, loop, logind in
            let inhibitor = SleepInhibitor(loop: loop, mode: .delay, address: bus.address)
            inhibitor.acquire()
            inhibitor.release()
            #expect(run(loop) { logind.modes.count == 1 && logind.released(0) })
            #expect(inhibitor.state == .off)
        }
    }

    @Test func noLogindAndNoBus() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let loop = try EventLoop()
        let inhibitor = SleepInhibitor(loop: loop, mode: .block, address: bus.address)
        inhibitor.acquire()
        #expect(run(loop) { if case .unavailable = inhibitor.state { return true } else { return false } })
        #expect(inhibitor.state == .unavailable("logind is not on the system bus (org.freedesktop.DBus.Error.ServiceUnknown)"))
        let nobus = SleepInhibitor(loop: loop, mode: .block, address: .path("/tmp/no-bus-here-\(getpid())"))
        nobus.acquire()
        guard case .unavailable(let why) = nobus.state else { Issue.record("\(nobus.state)"); return }
        #expect(why.contains("cannot connect to the bus at unix:path=/tmp/no-bus-here") && why.contains("No such file"))
        let off = SleepInhibitor(loop: loop, mode: .off, address: bus.address)
        off.acquire()
        #expect(off.state == .off)
    }
}
