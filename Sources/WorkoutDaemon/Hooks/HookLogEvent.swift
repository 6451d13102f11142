import WorkoutCore

/// Log lines about hooks. Events named `hook.*` never trigger hooks themselves.
struct HookLogEvent: LogEvent {
    enum Kind {
        /// Exit status 0 (debug level).
        case ran(milliseconds: Int)
        case failed(status: Int32)
        case signaled(Int32)
        case timedOut(seconds: Double)
        case spawnFailed(String)
        /// The queue was full: the hook did not run.
        case dropped(queued: Int)
    }
    let kind: Kind
    let event: String
    let program: String

    var name: String {
        switch kind {
        case .ran: return "hook.ran"
        case .failed, .signaled, .spawnFailed: return "hook.failed"
        case .timedOut: return "hook.timeout"
        case .dropped: return "hook.dropped"
        }
    }
    var level: LogLevel {
        switch kind {
        case .ran: return .debug
        case .failed, .signaled, .timedOut, .spawnFailed, .dropped: return .warning
        }
    }
    var message: String {
        switch kind {
        case .ran: return "Hook \(program) ran"
        case .failed(let s): return "Hook \(program) failed with exit status \(s)"
        case .signaled(let s): return "Hook \(program) was killed by signal \(s)"
        case .timedOut(let t): return "Hook \(program) killed after its timeout of \(formatFixed(t, decimals: 1)) s"
        case .spawnFailed(let e): return "Hook could not start: \(e)"
        case .dropped: return "Hook \(program) dropped: too many hooks waiting"
        }
    }
    var fields: [(String, LogValue)] {
        var f: [(String, LogValue)] = [("on", .string(event)), ("program", .string(program))]
        switch kind {
        case .ran(let ms): f.append(("ms", .int(ms)))
        case .failed(let s): f.append(("status", .int(Int(s))))
        case .signaled(let s): f.append(("signal", .int(Int(s))))
        case .timedOut(let t): f.append(("timeout_s", .double(t, decimals: 1)))
        case .spawnFailed(let e): f.append(("error", .string(e)))
        case .dropped(let q): f.append(("queued", .int(q)))
        }
        return f
    }
}
