import Glibc

/// Where a bus listens: a filesystem socket (`unix:path=`) or a Linux abstract socket
/// (`unix:abstract=`). Parsed from DBUS_SYSTEM_BUS_ADDRESS / DBUS_SESSION_BUS_ADDRESS: the
/// first usable `unix:` entry of a `;`-separated list, values percent-decoded.
public enum DBusAddress: Sendable, Equatable, CustomStringConvertible {
    case path(String)
    case abstract(String)

    /// The system bus when DBUS_SYSTEM_BUS_ADDRESS is unset.
    public static let defaultSystem = DBusAddress.path("/run/dbus/system_bus_socket")

    public var description: String {
        switch self {
        case .path(let p): return "unix:path=\(p)"
        case .abstract(let a): return "unix:abstract=\(a)"
        }
    }

    /// The system bus: DBUS_SYSTEM_BUS_ADDRESS, else /run/dbus/system_bus_socket.
    public static func system(environment: [String: String]) throws(DBusError) -> DBusAddress {
        guard let text = environment["DBUS_SYSTEM_BUS_ADDRESS"], !text.isEmpty else { return defaultSystem }
        return try parse(text)
    }

    /// The session bus: DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus (where systemd's
    /// user bus listens); an error when neither is known.
    public static func session(environment: [String: String]) throws(DBusError) -> DBusAddress {
        if let text = environment["DBUS_SESSION_BUS_ADDRESS"], !text.isEmpty { return try parse(text) }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return .path(runtime + "/bus") }
        throw .badAddress("no session bus: DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are unset")
    }

    /// Parses a server address list; takes the first `unix:` entry with `path=` or `abstract=`.
    public static func parse(_ text: String) throws(DBusError) -> DBusAddress {
        var seen: [String] = []
        for entry in text.split(separator: ";") where !entry.isEmpty {
            guard let colon = entry.firstIndex(of: ":") else { throw .badAddress("\"\(entry)\" has no transport (like unix:path=...)") }
            let transport = String(entry[..<colon])
            seen.append(transport)
            guard transport == "unix" else { continue }
            var keys: [String: String] = [:]
            for pair in entry[entry.index(after: colon)...].split(separator: ",") {
                guard let eq = pair.firstIndex(of: "=") else { throw .badAddress("\"\(pair)\" in \"\(entry)\" is not key=value") }
                keys[String(pair[..<eq])] = try percentDecode(String(pair[pair.index(after: eq)...]))
            }
            if let p = keys["path"], !p.isEmpty { return .path(p) }
            if let a = keys["abstract"], !a.isEmpty { return .abstract(a) }
        }
        throw .badAddress("\"\(text)\" has no unix:path= or unix:abstract= entry (found \(seen.isEmpty ? "none" : seen.joined(separator: ", ")))")
    }

    static func percentDecode(_ s: String) throws(DBusError) -> String {
        var out: [UInt8] = []
        var it = Array(s.utf8)[...]
        while let c = it.popFirst() {
            if c == UInt8(ascii: "%") {
                guard it.count >= 2, let v = UInt8(String(decoding: it.prefix(2), as: UTF8.self), radix: 16) else {
                    throw .badAddress("bad percent escape in \"\(s)\"")
                }
                out.append(v); it = it.dropFirst(2)
            } else {
                out.append(c)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The sockaddr_un and its length (abstract names start with a NUL and are not terminated).
    func socketAddress() throws(DBusError) -> (sockaddr_un, socklen_t) {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        let bytes: [UInt8]
        switch self {
        case .path(let p): bytes = Array(p.utf8) + [0]
        case .abstract(let a): bytes = [0] + Array(a.utf8)
        }
        guard bytes.count <= capacity else { throw .badAddress("\(self) is longer than \(capacity - 1) bytes") }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        let base = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)!
        switch self {
        case .path: return (addr, socklen_t(MemoryLayout<sockaddr_un>.size))
        case .abstract: return (addr, socklen_t(base + bytes.count))
        }
    }
}
