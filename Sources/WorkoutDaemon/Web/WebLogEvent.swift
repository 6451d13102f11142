import WorkoutCore

/// Log events of the web pages' server.
enum WebLogEvent: LogEvent {
    /// Serving the pages at this URL (without its token); `activated`: the socket came from systemd.
    case listening(url: String, activated: Bool)
    /// The pages could not be served (busy port, bad address); recording goes on.
    case unavailable(listen: String, reason: String)
    /// `web: null`.
    case off

    var name: String {
        switch self {
        case .listening: return "web.listening"
        case .unavailable: return "web.unavailable"
        case .off: return "web.off"
        }
    }

    var level: LogLevel {
        switch self {
        case .listening, .off: return .info
        case .unavailable: return .warning
        }
    }

    var message: String {
        switch self {
        case .listening(let url, _): return "Web pages at \(url) (open them with `workoutctl open`)"
        case .unavailable(let listen, let reason): return "No web pages: cannot listen on \(listen): \(reason); recording is not affected"
        case .off: return "Web pages are off (config web: null)"
        }
    }

    var fields: [(String, LogValue)] {
        switch self {
        case .listening(let url, let activated): return [("url", .string(url)), ("activated", .bool(activated))]
        case .unavailable(let listen, let reason): return [("listen", .string(listen)), ("reason", .string(reason))]
        case .off: return []
        }
    }
}
