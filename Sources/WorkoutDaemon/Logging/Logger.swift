import Dispatch
import Glibc
import WorkoutCore

/// Writes log events: to stderr (with `<N>` priority prefixes when `JOURNAL_STREAM` says stderr
/// is journald, plain timestamped lines otherwise) and optionally to a rotated log file.
/// Rendering is `Logfmt`'s (one place); this type only decides where lines go.
///
/// Logging never blocks the caller (the event loop): each destination is a `LineSink` whose own
/// thread does the writing, so a stderr pipe nobody reads, or a slow disk under the log file,
/// holds up only that thread. Lines that find a sink's queue full are dropped and counted, and
/// a `log.dropped` line says how many once the destination takes lines again. Every line is
/// bounded: string values and the message are cut at `maxValueBytes` (`Logfmt.bounded`).
public final class Logger {
    public enum StderrStyle: Sendable { case journald, plain }

    public let style: StderrStyle
    public var minimumLevel: LogLevel
    private let stderr: LineSink
    private var file: (log: LogFile, sink: LineSink)?

    /// The longest message or string value written (a 30 KB marker text is cut to this).
    public static let maxValueBytes = 1024

    /// - Parameter stderrFD: where stderr lines go (2; a pipe in tests).
    public init(environment: [String: String], minimumLevel: LogLevel, stderrFD: Int32 = 2) {
        let style: StderrStyle = Logger.stderrIsJournal(environment, fd: stderrFD) ? .journald : .plain
        self.style = style
        self.minimumLevel = minimumLevel
        self.stderr = LineSink(write: { LineSink.writeBlocking(stderrFD, $0) },
                               dropsLine: { Logger.dropsLine($0, style: style == .journald ? .journald : .plain) })
    }

    deinit {
        stderr.close()
        file?.sink.close()
    }

    /// JOURNAL_STREAM is "dev:inode" of the journal stream; it applies only if stderr is that file.
    static func stderrIsJournal(_ env: [String: String], fd: Int32 = 2) -> Bool {
        guard let js = env["JOURNAL_STREAM"] else { return false }
        let parts = js.split(separator: ":")
        guard parts.count == 2, let dev = UInt64(parts[0]), let ino = UInt64(parts[1]) else { return false }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return false }
        return UInt64(st.st_dev) == dev && UInt64(st.st_ino) == ino
    }

    public func configureFile(path: String?, maxBytes: Int, keep: Int) {
        if let path {
            if let f = file?.log, f.path == path, f.maxBytes == maxBytes, f.keep == keep { return }
            file?.sink.close()  // the old file's writer ends after its last lines
            let log = LogFile(path: path, maxBytes: maxBytes, keep: keep)
            file = (log, LineSink(write: { log.write($0) }, dropsLine: { Logger.dropsLine($0, style: .plain) }))
        } else {
            file?.sink.close()
            file = nil
        }
    }

    /// Sees every event before the level filter (hooks, notifications): one place where all
    /// log events pass.
    var tap: ((any LogEvent, Double) -> Void)?

    public func log(_ event: some LogEvent, wallTime: Double) {
        tap?(event, wallTime)
        guard event.level >= minimumLevel else { return }  // at least as severe as the minimum
        let bounded = Logfmt.bounded(event, maxValueBytes: Logger.maxValueBytes)
        switch style {
        case .journald: stderr.send(Self.line(bounded, style: .journald, timestamp: wallTime), wallTime: wallTime)
        case .plain: stderr.send(Self.line(bounded, style: .plain, timestamp: wallTime), wallTime: wallTime)
        }
        file?.sink.send(Self.line(bounded, style: .plain, timestamp: wallTime), wallTime: wallTime)
    }

    /// Lines dropped so far because stderr did not take them.
    var stderrDropped: Int { stderr.totalDropped }

    /// At exit: waits up to `seconds` for queued lines to be written.
    public func drain(seconds: Double) {
        let deadline = Double(DispatchTime.now().uptimeNanoseconds) / 1e9 + seconds
        for sink in [stderr] + (file.map { [$0.sink] } ?? []) {
            sink.drain(seconds: max(0, deadline - Double(DispatchTime.now().uptimeNanoseconds) / 1e9))
        }
    }

    static func line(_ event: some LogEvent, style: LogStyle, timestamp: Double) -> [UInt8] {
        var bytes = Array(Logfmt.render(event, style: style, timestamp: timestamp).utf8)
        bytes.append(10)
        return bytes
    }

    static func dropsLine(_ drops: LineSink.Drops, style: LogStyle) -> [UInt8] {
        line(LoggingLogEvent.dropped(count: drops.count, from: drops.from, to: drops.to), style: style, timestamp: drops.to)
    }
}

/// Events about logging itself.
enum LoggingLogEvent: LogEvent {
    /// Lines dropped because their destination (a stderr pipe nobody read) did not take them.
    case dropped(count: Int, from: Double, to: Double)

    var name: String {
        switch self {
        case .dropped: return "log.dropped"
        }
    }

    var level: LogLevel {
        switch self {
        case .dropped: return .warning
        }
    }

    var message: String {
        switch self {
        case .dropped(let n, _, _): return "\(n) log line\(n == 1 ? "" : "s") dropped: the log output was not being read"
        }
    }

    var fields: [(String, LogValue)] {
        switch self {
        case .dropped(let n, let from, let to):
            return [("lines", .int(n)), ("from", .string(ISO8601.format(from, fractionDigits: 3))), ("to", .string(ISO8601.format(to, fractionDigits: 3)))]
        }
    }
}

/// The optional log file, rotated by size: workoutd.log -> workoutd.log.1 -> ... .N.
/// `@unchecked Sendable`: used by one thread at a time (its `LineSink` writer; tests).
final class LogFile: @unchecked Sendable {
    let path: String
    let maxBytes: Int
    let keep: Int
    private var fd: Int32 = -1
    private var size = 0

    init(path: String, maxBytes: Int, keep: Int) {
        self.path = path; self.maxBytes = maxBytes; self.keep = keep
    }

    deinit { if fd >= 0 { close(fd) } }

    func write(_ line: String) { write(Array(line.utf8)) }

    func write(_ bytes: [UInt8]) {
        if fd < 0 { open() }
        guard fd >= 0 else { return }
        if size + bytes.count > maxBytes { rotate() }
        _ = bytes.withUnsafeBytes { try? writeAll(fd, $0) }
        size += bytes.count
    }

    private func open() {
        let dir = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        try? makeDirectories(dir)
        fd = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        var st = stat()
        size = fd >= 0 && fstat(fd, &st) == 0 ? Int(st.st_size) : 0
    }

    private func rotate() {
        if fd >= 0 { close(fd); fd = -1 }
        for k in stride(from: keep - 1, through: 1, by: -1) { rename("\(path).\(k)", "\(path).\(k + 1)") }
        rename(path, "\(path).1")
        open()
    }
}
