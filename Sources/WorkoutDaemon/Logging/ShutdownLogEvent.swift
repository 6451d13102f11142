import WorkoutCore

/// A step of the shutdown that did not finish within its deadline (the process exits anyway:
/// what it held is in the journal).
enum ShutdownLogEvent: LogEvent {
    case late(step: String, seconds: Double)

    var name: String { "daemon.shutdown_late" }
    var level: LogLevel { .warning }

    var message: String {
        switch self {
        case .late(let step, let seconds): return "The \(step) did not finish within \(Int(seconds)) s of the shutdown; exiting anyway"
        }
    }

    var fields: [(String, LogValue)] {
        switch self {
        case .late(let step, let seconds): return [("step", .string(step)), ("seconds", .double(seconds, decimals: 0))]
        }
    }
}
