import WorkoutCore

/// Log events of the web pages' server.
enum WebLogEvent: LogEvent {
    /// Serving the pages at this URL (without its token); `activated`: the socket came from systemd.
    case listening(url: String, address: String, activated: Bool)
    /// As `listening`, on an address other machines reach (`web.listen` 0.0.0.0 or a LAN
    /// address): a warning.
    case listeningBeyondLoopback(url: String, address: String, activated: Bool)
    /// The pages could not be served (busy port, bad address); recording goes on.
    case unavailable(listen: String, reason: String)
    /// The default port was taken (another program, another user's daemon): the pages moved
    /// to a free port (`url`). A `web.listen` the user wrote fails as `unavailable` instead.
    case portTaken(listen: String, reason: String, url: String)
    /// `web: null`.
    case off

    var name: String {
        switch self {
        case .listening, .listeningBeyondLoopback: return "web.listening"
        case .unavailable: return "web.unavailable"
        case .portTaken: return "web.port_taken"
        case .off: return "web.off"
        }
    }

    var level: LogLevel {
        switch self {
        case .listening, .off: return .info
        case .unavailable, .listeningBeyondLoopback, .portTaken: return .warning
        }
    }

    var message: String {
        switch self {
        case .listening(let url, let address, _): return "Web pages at \(url), listening on \(address) (open them with `workoutctl open`)"
        case .listeningBeyondLoopback(let url, let address, _):
            return "Web pages listening on \(address), which other machines can reach; connections from other machines and other users are refused (\(url))"
        case .unavailable(let listen, let reason): return "No web pages: cannot listen on \(listen): \(reason); recording is not affected"
        case .portTaken(let listen, let reason, let url):
            return "Web pages at \(url) instead: \(listen) is taken (\(reason)); `workoutctl open` finds them, web.listen in the configuration picks an address"
        case .off: return "Web pages are off (config web: null)"
        }
    }

    var fields: [(String, LogValue)] {
        switch self {
        case .listening(let url, let address, let activated), .listeningBeyondLoopback(let url, let address, let activated):
            return [("url", .string(url)), ("address", .string(address)), ("activated", .bool(activated))]
        case .unavailable(let listen, let reason): return [("listen", .string(listen)), ("reason", .string(reason))]
        case .portTaken(let listen, let reason, let url): return [("listen", .string(listen)), ("reason", .string(reason)), ("url", .string(url))]
        case .off: return []
        }
    }
}
