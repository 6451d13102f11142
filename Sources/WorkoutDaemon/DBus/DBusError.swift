import WorkoutCore

/// Why a D-Bus operation failed, in words a person can act on.
public enum DBusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// DBUS_*_BUS_ADDRESS could not be used.
    case badAddress(String)
    /// The socket could not be opened or connected (no bus running, permission).
    case connectFailed(address: String, SystemError)
    /// The bus refused our credentials.
    case authenticationFailed(String)
    /// The bus sent bytes that are not D-Bus, or we were asked to send an invalid message.
    case malformed(DBusCodecError)
    /// The connection is closed (by the bus, by an I/O error, or by us).
    case disconnected(String)
    /// No reply within the call's timeout.
    case timedOut(member: String, seconds: Double)
    /// The peer answered with an error reply.
    case remote(name: String, message: String)

    public var description: String {
        switch self {
        case .badAddress(let why): return "bad D-Bus address: \(why)"
        case .connectFailed(let address, let e): return "cannot connect to the bus at \(address): \(e.reason)"
        case .authenticationFailed(let why): return "D-Bus authentication failed: \(why)"
        case .malformed(let e): return "\(e)"
        case .disconnected(let why): return "D-Bus connection closed: \(why)"
        case .timedOut(let member, let seconds): return "no reply to \(member) within \(seconds) s"
        case .remote(let name, let message): return message.isEmpty ? name : "\(name): \(message)"
        }
    }

    /// The error name of a remote error (nil for local failures).
    public var remoteName: String? {
        if case .remote(let name, _) = self { return name }
        return nil
    }
}
