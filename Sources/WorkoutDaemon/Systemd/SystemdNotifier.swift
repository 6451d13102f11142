import Glibc
import Synchronization

/// The sd_notify(3) protocol, without libsystemd: newline-separated `KEY=VALUE` assignments sent
/// as one datagram to the AF_UNIX socket named by `$NOTIFY_SOCKET` (a path, or `@name` for the
/// abstract namespace). Every call is a no-op when the daemon does not run under systemd.
///
/// The value is immutable and `Sendable`: build it once at start-up (it reads the environment
/// given to it, so tests never touch the process environment) and call it from any thread.
/// Each message opens, uses and closes its own datagram socket; systemd learns the sender's PID
/// from the kernel (SO_PASSCRED on its side), so with `NotifyAccess=main` only the daemon's main
/// process may send, which is what this type does.
///
/// Messages the daemon sends and when (documented in docs/systemd.md):
/// - `ready(status:)` once the control socket listens and a restored workout is loaded;
/// - `status(_:)` on every lifecycle change (one human line, shown by `systemctl status`);
/// - `watchdogPing()` every `watchdogInterval`, *from the main loop* (so a hung loop stops
///   the pings and systemd kills and restarts the service);
/// - `reloading(status:)` when SIGHUP arrives, then `ready(status:)` when the reload is done;
/// - `stopping(status:)` when SIGTERM arrives, optionally `extendTimeout(by:)` while saving.
public struct SystemdNotifier: Sendable {
    /// Where `$NOTIFY_SOCKET` points.
    public enum Address: Sendable, Equatable, CustomStringConvertible {
        /// A socket file, e.g. `/run/user/1000/systemd/notify`.
        case path(String)
        /// An abstract-namespace socket; the name without the leading `@`/NUL.
        case abstract(String)

        public var description: String {
            switch self {
            case .path(let p): return p
            case .abstract(let n): return "@" + n
            }
        }
    }

    /// What happened to one message.
    public enum Outcome: Sendable, Equatable {
        /// The datagram was sent.
        case sent
        /// `$NOTIFY_SOCKET` is unset (not run by systemd): nothing was done.
        case disabled
        /// `$NOTIFY_SOCKET` is set but unusable (unknown form, too long for sun_path).
        case invalidAddress
        /// socket(2) or sendto(2) failed with this errno.
        case failed(errno: Int32)
    }

    /// The environment variables this type reads.
    public static let environmentNames = ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"]

    /// The raw `$NOTIFY_SOCKET`, if set and non-empty.
    public let socketName: String?
    /// The parsed notification address; nil when unset or not usable (e.g. `vsock:` forms).
    public let address: Address?
    /// The watchdog timeout systemd enforces (`WatchdogSec=`), in microseconds; nil when the
    /// watchdog is off or meant for another process (`WATCHDOG_PID` ≠ our PID).
    public let watchdogTimeoutMicroseconds: UInt64?

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from `environment`.
    /// - Parameters:
    ///   - environment: the environment to read (pass `ProcessEnvironment.current(...)` in the
    ///     daemon, a dictionary in tests).
    ///   - pid: the PID `WATCHDOG_PID` must match (default: this process).
    public init(environment: [String: String], pid: pid_t = getpid()) {
        let raw = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        socketName = raw
        address = raw.flatMap(Self.parseAddress)
        watchdogTimeoutMicroseconds = Self.parseWatchdog(
            usec: environment["WATCHDOG_USEC"], pid: environment["WATCHDOG_PID"], ownPID: pid)
    }

    /// A notifier for this process: reads the real environment (does not change it).
    public static func fromProcessEnvironment() -> SystemdNotifier {
        SystemdNotifier(environment: ProcessEnvironment.current(environmentNames))
    }

    /// True when messages go somewhere (`$NOTIFY_SOCKET` set and usable).
    public var isEnabled: Bool { address != nil }

    /// How often to send `WATCHDOG=1`, in seconds (the event loop's unit): half the timeout, as
    /// sd_watchdog_enabled(3) recommends; nil when the watchdog is off.
    public var watchdogInterval: Double? {
        watchdogTimeoutMicroseconds.map { Double($0) / 2e6 }
    }

    // MARK: - Messages

    /// `READY=1` (start-up or reload finished), with an optional `STATUS=` line.
    @discardableResult
    public func ready(status: String? = nil) -> Outcome {
        send(["READY=1"] + Self.statusLine(status))
    }

    /// `STATUS=text`: one line shown by `systemctl status` and in `StatusText`. Not sent again
    /// when it is the text last sent (a lap changes nothing in it: one datagram per lap before).
    @discardableResult
    public func status(_ text: String) -> Outcome {
        let line = Self.statusLine(text)
        if lastStatus.withLock({ $0 == line.first }) { return .sent }
        return send(line)
    }

    /// The last `STATUS=` assignment sent (shared by copies of this value).
    private let lastStatus = LastStatus()

    private final class LastStatus: Sendable {
        let value = Mutex<String?>(nil)
        func withLock<R>(_ body: (inout String?) -> R) -> R { value.withLock { body(&$0) } }
    }

    /// `WATCHDOG=1`: keep-alive ping; send every `watchdogInterval` from the main loop.
    @discardableResult
    public func watchdogPing() -> Outcome {
        send(["WATCHDOG=1"])
    }

    /// `RELOADING=1` with `MONOTONIC_USEC=` (CLOCK_MONOTONIC now, as systemd 253+ requires for
    /// Type=notify-reload; 252 ignores it). Follow with `ready(status:)` when the reload is done.
    @discardableResult
    public func reloading(status: String? = nil) -> Outcome {
        send(["RELOADING=1", "MONOTONIC_USEC=\(Self.monotonicMicroseconds())"] + Self.statusLine(status))
    }

    /// `STOPPING=1`: shutdown has begun.
    @discardableResult
    public func stopping(status: String? = nil) -> Outcome {
        send(["STOPPING=1"] + Self.statusLine(status))
    }

    /// `EXTEND_TIMEOUT_USEC=`: ask for more time in the current start/stop/reload phase (e.g.
    /// while a large workout is being saved at shutdown).
    @discardableResult
    public func extendTimeout(by duration: Duration) -> Outcome {
        let (s, atto) = duration.components
        let usec = max(0, s) &* 1_000_000 &+ max(0, atto) / 1_000_000_000_000
        return send(["EXTEND_TIMEOUT_USEC=\(usec)"])
    }

    /// `WATCHDOG=trigger`: ask systemd to act as if the watchdog timed out (tests, self-checks).
    @discardableResult
    public func triggerWatchdog() -> Outcome {
        send(["WATCHDOG=trigger"])
    }

    /// Sends raw assignments (`KEY=VALUE`, no newlines inside) as one datagram; same as `send`.
    @discardableResult
    public func notify(_ assignments: [String]) -> Outcome {
        send(assignments)
    }

    /// Sends raw assignments (`KEY=VALUE`, no newlines inside) as one datagram.
    @discardableResult
    public func send(_ assignments: [String]) -> Outcome {
        guard socketName != nil else { return .disabled }
        guard let address else { return .invalidAddress }
        let message = assignments.joined(separator: "\n")
        let outcome = Self.sendDatagram(message, to: address)
        if outcome == .sent, let status = assignments.last(where: { $0.hasPrefix("STATUS=") }) {
            lastStatus.withLock { $0 = status }
        }
        return outcome
    }

    // MARK: - Parsing

    /// Parses `$NOTIFY_SOCKET`: `/path` or `@abstract`; anything else (vsock:, relative) is nil.
    public static func parseAddress(_ raw: String) -> Address? {
        let bytes = Array(raw.utf8)
        guard let first = bytes.first, !bytes.contains(0) else { return nil }
        let maxLength = SocketAddress.maxPathBytes + 1   // 108
        if first == UInt8(ascii: "/") {
            return bytes.count < maxLength ? .path(raw) : nil                // room for the NUL
        }
        if first == UInt8(ascii: "@") {
            return bytes.count >= 2 && bytes.count <= maxLength ? .abstract(String(raw.dropFirst())) : nil
        }
        return nil
    }

    /// Parses `WATCHDOG_USEC` (a positive integer) and checks `WATCHDOG_PID` if present.
    public static func parseWatchdog(usec: String?, pid: String?, ownPID: pid_t) -> UInt64? {
        guard let usec, let value = UInt64(usec), value > 0 else { return nil }
        if let pid {
            guard let p = pid_t(pid), p == ownPID else { return nil }
        }
        return value
    }

    // MARK: - Internals

    /// `STATUS=` with newlines replaced (a newline would end the assignment early).
    static func statusLine(_ text: String?) -> [String] {
        guard let text else { return [] }
        let oneLine = String(text.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
        return ["STATUS=" + oneLine]
    }

    static func monotonicMicroseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1_000
    }

    static func sendDatagram(_ message: String, to address: Address) -> Outcome {
        let sa: SocketAddress
        do {
            switch address {
            case .path(let p): sa = try SocketAddress(path: p)
            case .abstract(let n): sa = try SocketAddress(abstract: n)
            }
        } catch { return .invalidAddress }

        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failed(errno: errno) }
        defer { close(fd) }
        var bytes = Array(message.utf8)
        let sent = sa.withSockaddr { addr, length in
            bytes.withUnsafeMutableBytes { body in
                // MSG_DONTWAIT: a manager that does not read its socket must not stall the loop.
                sendto(fd, body.baseAddress, body.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT), addr, length)
            }
        }
        if sent < 0 { return .failed(errno: errno) }
        return .sent
    }
}
