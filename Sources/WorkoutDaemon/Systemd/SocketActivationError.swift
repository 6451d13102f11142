import Glibc

/// Why sockets passed by systemd could not be adopted. The description is one line for the log
/// and names the unit setting to look at; the daemon should exit with 78 (EX_CONFIG) on it,
/// since a restart would fail the same way.
public enum SocketActivationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `LISTEN_PID` or `LISTEN_FDS` is not a number.
    case malformedVariable(name: String, value: String)
    /// `LISTEN_FDNAMES` does not have `LISTEN_FDS` names.
    case nameCountMismatch(count: Int, names: String)
    /// The descriptor is not open (or fcntl/getsockopt failed on it).
    case badDescriptor(descriptor: Int32, name: String, errno: Int32)
    /// Not an AF_UNIX socket (`domain` is what SO_DOMAIN said).
    case notUnixSocket(descriptor: Int32, name: String, domain: Int32)
    /// Not a SOCK_STREAM socket (`type` is what SO_TYPE said).
    case notStreamSocket(descriptor: Int32, name: String, type: Int32)
    /// A stream socket that is not listening (e.g. `Accept=yes` passed a connection).
    case notListening(descriptor: Int32, name: String)

    public var description: String {
        switch self {
        case .malformedVariable(let name, let value):
            return "socket activation: \(name)=\(value) is not a valid number"
        case .nameCountMismatch(let count, let names):
            return "socket activation: LISTEN_FDS=\(count) but LISTEN_FDNAMES=\(names) has a different number of names"
        case .badDescriptor(let fd, let name, let err):
            return "socket activation: passed descriptor \(fd) (\(name)) is unusable: \(String(cString: strerror(err)))"
        case .notUnixSocket(let fd, let name, let domain):
            return "socket activation: passed descriptor \(fd) (\(name)) is not an AF_UNIX socket (domain \(domain)); use ListenStream=/path in workoutd.socket"
        case .notStreamSocket(let fd, let name, let type):
            return "socket activation: passed descriptor \(fd) (\(name)) is not a stream socket (type \(type)); use ListenStream=, not ListenDatagram=/ListenSequentialPacket="
        case .notListening(let fd, let name):
            return "socket activation: passed descriptor \(fd) (\(name)) is not listening; workoutd.socket needs Accept=no"
        }
    }
}
