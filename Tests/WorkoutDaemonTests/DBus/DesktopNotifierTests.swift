import Foundation
import Glibc
import Testing
import TestRequirements
import WorkoutCore
@testable import WorkoutDaemon

/// Against `../shared/tools/dbus-peers start --notifications` (a real dbus-daemon and a
/// Notifications server that logs every call): one Notify per notice, a second notice of a kind
/// replaces the first, other kinds do not; with no bus the problem is reported once.
@Suite struct DesktopNotifierTests {
    static let peers = DaemonTestShared.root + "/tools/dbus-peers"
    struct Call { var method: String; var args: [String] }

    @Test(.requires(.shared("tools/dbus-peers"), .program(.dbusDaemon), .python(.dbus), .python(.gi)))
    func notifyReplacesPerKind() throws {
        var template = Array("/tmp/x.XXXXXX".utf8CString)
        let dir = String(cString: template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }!)
        let state = dir + "/p"
        let start = try shell([Self.peers, "start", "--state", state, "--notifications"])
        defer { _ = try? shell([Self.peers, "stop", "--state", state]); try? FileManager.default.removeItem(atPath: dir) }
        #expect(start.hasPrefix("DBUS_ADDRESS=unix:path="), "\(start)")
        let loop = try EventLoop()
        let notifier = DesktopNotifier(loop: loop, environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(state)/bus"])
        var delivered: [(String, UInt32)] = []
        var problems: [String] = []
        notifier.onDelivered = { delivered.append(($0, $1)) }
        notifier.onProblem = { problems.append($0) }
        notifier.notify(kind: "streak-at-risk", summary: "Running streak at risk", body: "1 run left this week, 2 days to go")
        #expect(run(loop) { delivered.count == 1 })
        notifier.notify(kind: "streak-at-risk", summary: "Running streak at risk", body: "1 run left this week, 1 day to go", urgency: .critical)
        notifier.notify(kind: "workout-saved", summary: "Workout saved", body: "Running 5.02 km in 28:14")
        #expect(run(loop) { delivered.count == 3 })
        // Two of a kind sent back to back: the second waits for the first's id, then replaces it.
        notifier.notify(kind: "gps", summary: "GPS lost", body: "no fix for 60 s")
        notifier.notify(kind: "gps", summary: "GPS back", body: "3D fix")
        #expect(run(loop) { delivered.count == 5 })
        #expect(problems.isEmpty)

        let calls = try String(contentsOfFile: state + "/calls.log", encoding: .utf8).split(separator: "\n").compactMap { line -> Call? in
            guard let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return Call(method: o["method"] as? String ?? "", args: (o["args"] as? [String]) ?? [])
        }
        let notifies = calls.filter { $0.method == "Notify" }
        #expect(notifies.count == 5, "one Notify per notice: \(calls.map(\.method))")
        guard notifies.count == 5 else { return }
        #expect(notifies.allSatisfy { $0.args[0] == "workoutd" })
        let firstRisk = delivered[0].1
        #expect(notifies[0].args[1] == "0" && notifies[0].args[3] == "Running streak at risk" && notifies[0].args[4] == "1 run left this week, 2 days to go")
        #expect(notifies[1].args[1] == String(firstRisk), "the second at-risk notice replaces the first (id \(firstRisk))")
        #expect(notifies[1].args[4] == "1 run left this week, 1 day to go")
        #expect(notifies[1].args[6].contains("urgency") && notifies[1].args[6].contains("2"))
        #expect(notifies[2].args[1] == "0" && notifies[2].args[3] == "Workout saved", "another kind does not replace")
        #expect(notifies[3].args[1] == "0" && notifies[4].args[1] == String(delivered[3].1) && notifies[4].args[3] == "GPS back")
    }

    @Test func busAbsentIsReportedOnceAndCarriesOn() throws {
        let loop = try EventLoop()
        let notifier = DesktopNotifier(loop: loop, environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/tmp/no-bus-\(getpid())/bus"])
        var problems: [String] = []
        notifier.onProblem = { problems.append($0) }
        for i in 0..<5 { notifier.notify(kind: "k\(i % 2)", summary: "s", body: "b") }
        #expect(problems.count == 1)
        #expect(problems.first?.contains("desktop notifications unavailable: cannot connect to the bus at unix:path=/tmp/no-bus-") == true)
        let none = DesktopNotifier(loop: loop, environment: [:])
        var p2: [String] = []
        none.onProblem = { p2.append($0) }
        none.notify(kind: "a", summary: "s", body: "b")
        none.notify(kind: "a", summary: "s", body: "b")
        #expect(p2 == ["desktop notifications unavailable: bad D-Bus address: no session bus: DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are unset"])
    }

    @Test(.requires(.program(.dbusDaemon)))
    func serverAbsentIsReportedOnce() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let loop = try EventLoop()
        guard case .path(let p) = bus.address else { return }
        let notifier = DesktopNotifier(loop: loop, environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(p)"])
        var problems: [String] = []
        notifier.onProblem = { problems.append($0) }
        notifier.notify(kind: "a", summary: "s", body: "b")
        notifier.notify(kind: "b", summary: "s", body: "b")
        run(loop, seconds: 1) { false }
        #expect(problems.count == 1)
        #expect(problems.first?.contains("org.freedesktop.DBus.Error.ServiceUnknown") == true)
    }
}

/// `../shared` beside the project root.
enum DaemonTestShared {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { break }
        }
        return url.deletingLastPathComponent().appendingPathComponent("shared").path
    }()
}

/// Runs a command and returns its standard output (throws on a non-zero exit).
func shell(_ args: [String]) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: args[0])
    p.arguments = Array(args.dropFirst())
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    guard p.terminationStatus == 0 else { throw POSIXError(.EIO) }
    return String(decoding: data, as: UTF8.self)
}
