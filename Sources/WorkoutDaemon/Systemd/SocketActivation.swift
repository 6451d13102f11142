import Glibc

/// Sockets passed by systemd socket activation (sd_listen_fds_with_names(3) without libsystemd).
///
/// systemd sets `LISTEN_PID` (must be our PID), `LISTEN_FDS` (count) and `LISTEN_FDNAMES`
/// (colon-separated names from `FileDescriptorName=`) and passes the sockets as descriptors 3,
/// 4, ... in that order. The daemon uses the one named `control` (else the first) as its control
/// socket, and the one named `feed`, if any, as its feed socket. Both are checked to be listening
/// AF_UNIX stream sockets; every adopted descriptor gets FD_CLOEXEC.
///
/// Typical use, once at start-up:
/// ```swift
/// if let activation = try SocketActivation.adoptFromProcess() {
///     serveControl(onListeningDescriptor: activation.control.descriptor)
/// } else {
///     bindControlSocketMyself()
/// }
/// ```
public struct SocketActivation: Sendable, Equatable {
    /// One passed descriptor and its name.
    public struct PassedSocket: Sendable, Equatable {
        /// The file descriptor (3, 4, ... under systemd).
        public let descriptor: Int32
        /// Its `FileDescriptorName=` (systemd's default is the socket unit's name).
        public let name: String
    }

    /// The first descriptor systemd passes (SD_LISTEN_FDS_START).
    public static let firstDescriptor: Int32 = 3
    /// The environment variables this type reads (and `adoptFromProcess` unsets).
    public static let environmentNames = ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"]
    /// Name of the control socket (`FileDescriptorName=control` in workoutd.socket).
    public static let controlName = "control"
    /// Name of the optional feed socket.
    public static let feedName = "feed"
    /// Name of the optional web pages' TCP socket (`workoutd-web.socket`).
    public static let webName = "web"

    /// Every passed descriptor, in order.
    public let sockets: [PassedSocket]
    /// The control socket: the one named `control`, else the first (verified).
    public let control: PassedSocket
    /// The feed socket: the one named `feed`, if passed (verified).
    public let feed: PassedSocket?
    /// The web pages' socket: the one named `web`, if passed (a listening TCP socket).
    public var web: PassedSocket? { sockets.first { $0.name == SocketActivation.webName && $0 != control } }

    /// Adopts the sockets described by `environment`.
    /// - Parameters:
    ///   - environment: holds `LISTEN_PID`, `LISTEN_FDS`, `LISTEN_FDNAMES` (a dictionary in
    ///     tests, `ProcessEnvironment.current(SocketActivation.environmentNames)` for real).
    ///   - pid: the PID `LISTEN_PID` must equal (default: this process).
    ///   - firstDescriptor: where the passed descriptors start (3 under systemd; tests use
    ///     other numbers so they never disturb the test runner's own descriptors).
    ///   - verify: check `control`/`feed` are listening AF_UNIX stream sockets.
    /// - Returns: nil when not socket-activated (`LISTEN_PID` unset or another PID's,
    ///   `LISTEN_FDS` unset or 0), as sd_listen_fds returns 0.
    /// - Throws: `SocketActivationError` when the variables are malformed or a descriptor is
    ///   not what the daemon needs.
    public static func adopt(
        environment: [String: String], pid: pid_t = getpid(),
        firstDescriptor: Int32 = SocketActivation.firstDescriptor, verify: Bool = true
    ) throws(SocketActivationError) -> SocketActivation? {
        guard let pidText = environment["LISTEN_PID"] else { return nil }
        guard let listenPID = pid_t(pidText), listenPID > 0 else {
            throw .malformedVariable(name: "LISTEN_PID", value: pidText)
        }
        guard listenPID == pid else { return nil }
        guard let countText = environment["LISTEN_FDS"] else { return nil }
        guard let count = Int(countText), count >= 0, count <= 1024 else {
            throw .malformedVariable(name: "LISTEN_FDS", value: countText)
        }
        if count == 0 { return nil }

        let names: [String]
        if let namesText = environment["LISTEN_FDNAMES"] {
            names = namesText.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard names.count == count else {
                throw .nameCountMismatch(count: count, names: namesText)
            }
        } else {
            names = Array(repeating: "unknown", count: count)   // what libsystemd reports
        }

        var sockets: [PassedSocket] = []
        for i in 0..<count {
            let fd = firstDescriptor + Int32(i)
            let flags = fcntl(fd, F_GETFD)
            guard flags >= 0 else {
                throw .badDescriptor(descriptor: fd, name: names[i], errno: errno)
            }
            if flags & FD_CLOEXEC == 0 {
                guard fcntl(fd, F_SETFD, flags | FD_CLOEXEC) == 0 else {
                    throw .badDescriptor(descriptor: fd, name: names[i], errno: errno)
                }
            }
            sockets.append(PassedSocket(descriptor: fd, name: names[i]))
        }

        let control = sockets.first { $0.name == controlName } ?? sockets.first { $0.name != webName } ?? sockets[0]
        let feed = sockets.first { $0.name == feedName && $0 != control }
        if verify {
            try verifyListeningUnixStream(control)
            if let feed { try verifyListeningUnixStream(feed) }
        }
        return SocketActivation(sockets: sockets, control: control, feed: feed)
    }

    /// `adopt(environment:)` on this process's real environment, then unsets `LISTEN_PID`,
    /// `LISTEN_FDS` and `LISTEN_FDNAMES` (whatever the outcome) so child processes do not
    /// inherit them, as `sd_listen_fds(1)` does. Call once, early, before starting threads.
    public static func adoptFromProcess(verify: Bool = true) throws(SocketActivationError) -> SocketActivation? {
        let environment = ProcessEnvironment.current(environmentNames)
        defer { ProcessEnvironment.unset(environmentNames) }
        return try adopt(environment: environment, verify: verify)
    }

    /// What `listenFDs(environment:)` found: descriptors to use, or why there are none.
    public struct ListenResult: Sendable, Equatable {
        /// The control socket's descriptor (named `control`, else the first); nil when not
        /// socket-activated or on error.
        public var control: Int32?
        /// The feed socket's descriptor, if one named `feed` was passed.
        public var feed: Int32?
        /// The web pages' socket, if one named `web` was passed.
        public var web: Int32? = nil
        /// Set when systemd passed sockets that cannot be used: log it and exit 78.
        public var error: SocketActivationError?
    }

    /// Non-throwing entry point for the daemon: `adopt(environment:)`, then (by default) unsets
    /// `LISTEN_PID`, `LISTEN_FDS`, `LISTEN_FDNAMES` in the process environment so children do not
    /// inherit them. `environment` is the daemon's snapshot of its environment.
    public static func listenFDs(environment: [String: String], unsetEnvironment: Bool = true) -> ListenResult {
        defer { if unsetEnvironment { ProcessEnvironment.unset(environmentNames) } }
        do {
            let adopted = try adopt(environment: environment)
            return ListenResult(control: adopted?.control.descriptor, feed: adopted?.feed?.descriptor, web: adopted?.web?.descriptor, error: nil)
        } catch {
            return ListenResult(control: nil, feed: nil, error: error)
        }
    }

    /// Throws unless `socket` is a listening (SO_ACCEPTCONN) AF_UNIX SOCK_STREAM socket.
    public static func verifyListeningUnixStream(_ socket: PassedSocket) throws(SocketActivationError) {
        let fd = socket.descriptor
        func option(_ name: Int32) throws(SocketActivationError) -> Int32 {
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, name, &value, &length) == 0 else {
                throw .badDescriptor(descriptor: fd, name: socket.name, errno: errno)
            }
            return value
        }
        let domain = try option(SO_DOMAIN)
        guard domain == AF_UNIX else {
            throw .notUnixSocket(descriptor: fd, name: socket.name, domain: domain)
        }
        let type = try option(SO_TYPE)
        guard type == Int32(SOCK_STREAM.rawValue) else {
            throw .notStreamSocket(descriptor: fd, name: socket.name, type: type)
        }
        guard try option(SO_ACCEPTCONN) != 0 else {
            throw .notListening(descriptor: fd, name: socket.name)
        }
    }
}
