import Foundation
import Glibc
import Testing
@testable import WorkoutDaemon

/// A real `dbus-daemon --session` on `unix:path=/tmp/x.XXXXXX/bus`, started by the test and
/// killed on `stop()`. Tests that need it are enabled when dbus-daemon is installed, and always
/// in CI (where its absence must fail, not skip).
final class TestBus {
    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }
    static var daemonInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon") }
    let directory: String
    let address: DBusAddress
    private let process: Process

    init() throws {
        var template = Array("/tmp/x.XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard let made else { throw POSIXError(.EIO) }
        directory = String(cString: made)
        address = .path(directory + "/bus")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--session", "--nofork", "--nopidfile", "--address=unix:path=\(directory)/bus", "--print-address"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The daemon listens once it has printed its address.
        let line = out.fileHandleForReading.availableData
        guard !line.isEmpty else { throw POSIXError(.ECONNREFUSED) }
    }

    var pid: Int32 { process.processIdentifier }

    func stop() {
        // SIGKILL: a dbus-daemon started through Foundation.Process ignores SIGTERM here.
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }
}

/// Runs `loop` until `done()` says so or `seconds` pass; returns whether `done()` held.
@discardableResult
func run(_ loop: EventLoop, seconds: Double = 5, until done: @escaping () -> Bool) -> Bool {
    let deadline = loop.now() + seconds
    let ticker = loop.every(0.01) { if done() || loop.now() > deadline { loop.stop() } }
    if !done() {
        do { try loop.run() } catch { Issue.record("the loop failed: \(error)") }
    }
    ticker.cancel()
    return done()
}

/// Results collected by callbacks on the loop thread (`@unchecked`: one thread).
final class Box<T>: @unchecked Sendable {
    var value: T
    init(_ v: T) { value = v }
}
