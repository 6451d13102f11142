import Glibc
import WorkoutCore

/// Writes log events: to stderr (with `<N>` priority prefixes when `JOURNAL_STREAM` says stderr
/// is journald, plain timestamped lines otherwise) and optionally to a rotated log file.
/// Rendering is `Logfmt`'s (one place); this type only decides where lines go.
public final class Logger {
    public enum StderrStyle { case journald, plain }

    public let style: StderrStyle
    public var minimumLevel: LogLevel
    private var file: LogFile?

    public init(environment: [String: String], minimumLevel: LogLevel) {
        self.style = Logger.stderrIsJournal(environment) ? .journald : .plain
        self.minimumLevel = minimumLevel
    }

    /// JOURNAL_STREAM is "dev:inode" of the journal stream; it applies only if stderr is that file.
    static func stderrIsJournal(_ env: [String: String]) -> Bool {
        guard let js = env["JOURNAL_STREAM"] else { return false }
        let parts = js.split(separator: ":")
        guard parts.count == 2, let dev = UInt64(parts[0]), let ino = UInt64(parts[1]) else { return false }
        var st = stat()
        guard fstat(2, &st) == 0 else { return false }
        return UInt64(st.st_dev) == dev && UInt64(st.st_ino) == ino
    }

    public func configureFile(path: String?, maxBytes: Int, keep: Int) {
        if let path {
            if file?.path != path || file?.maxBytes != maxBytes || file?.keep != keep { file = LogFile(path: path, maxBytes: maxBytes, keep: keep) }
        } else {
            file = nil
        }
    }

    /// Sees every event before the level filter (hooks, notifications): one place where all
    /// log events pass.
    var tap: ((any LogEvent, Double) -> Void)?

    public func log(_ event: some LogEvent, wallTime: Double) {
        tap?(event, wallTime)
        guard event.level >= minimumLevel else { return }  // at least as severe as the minimum
        let line: String
        switch style {
        case .journald: line = Logfmt.render(event, style: .journald, timestamp: wallTime)
        case .plain: line = Logfmt.render(event, style: .plain, timestamp: wallTime)
        }
        var out = line
        out += "\n"
        _ = Array(out.utf8).withUnsafeBytes { try? writeAll(2, $0) }  // one write(2) per line
        file?.write(Logfmt.render(event, style: .plain, timestamp: wallTime) + "\n")
    }
}

/// The optional log file, rotated by size: workoutd.log -> workoutd.log.1 -> ... .N.
final class LogFile {
    let path: String
    let maxBytes: Int
    let keep: Int
    private var fd: Int32 = -1
    private var size = 0

    init(path: String, maxBytes: Int, keep: Int) {
        self.path = path; self.maxBytes = maxBytes; self.keep = keep
    }

    deinit { if fd >= 0 { close(fd) } }

    func write(_ line: String) {
        if fd < 0 { open() }
        guard fd >= 0 else { return }
        let bytes = Array(line.utf8)
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
