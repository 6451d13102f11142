import Glibc
import WorkoutCore

/// Temporary files a killed daemon left behind (issue 27 item 8: a kill during a save leaked
/// `ID.json.tmp-PID`, 40 MiB, for good), removed at start-up. Only ours: names our writers
/// make in our own directories (`AtomicFile`: `NAME.tmp-PID`; an import: `ID.json.tmp-import`).
/// Only stale ones: a `-PID` file whose process is gone, or is not a workoutd (the number was
/// reused), or is this very process (which has written nothing yet); an import's temporary
/// file at start-up (only the daemon of this data directory writes them, and it is starting).
public enum StaleTemporaryFiles {
    public struct Removed: Sendable, Equatable {
        public var files: [String] = []
        public var bytes = 0
    }

    /// Removes the stale temporary files of `dir` whose names start with one of `targets`
    /// (`index.jsonl` for the data directory; nil: any `*.json` in `workouts/`).
    static func remove(in dir: String, targets: Set<String>? = nil, removed: inout Removed) {
        for name in directoryEntries(dir) ?? [] {
            guard let (target, writer) = split(name), targets.map({ $0.contains(target) }) ?? (target.hasSuffix(".json") && target.count > 5),
                  isStale(writer) else { continue }
            let path = dir + "/" + name
            var st = stat()
            guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == geteuid() else { continue }
            if unlink(path) == 0 {
                removed.files.append(path)
                removed.bytes += Int(st.st_size)
            }
        }
    }

    /// Who wrote a temporary file.
    enum Writer: Equatable {
        case process(pid_t)
        case importBatch
    }

    /// `NAME.tmp-PID` -> (NAME, .process(PID)); `NAME.tmp-import` -> (NAME, .importBatch).
    static func split(_ name: String) -> (String, Writer)? {
        guard let dot = name.lastIndex(of: "."), name[dot...].hasPrefix(".tmp-") else { return nil }
        let target = String(name[..<dot])
        let tail = name[name.index(dot, offsetBy: 5)...]
        guard !target.isEmpty else { return nil }
        if tail == "import" { return (target, .importBatch) }
        guard !tail.isEmpty, tail.count <= 10, tail.allSatisfy({ $0.isASCII && $0.isNumber }), let pid = pid_t(tail) else { return nil }
        return (target, .process(pid))
    }

    static func isStale(_ writer: Writer) -> Bool {
        switch writer {
        case .importBatch: return true
        case .process(let pid):
            if pid == getpid() || pid <= 0 { return true }
            if kill(pid, 0) != 0 && errno == ESRCH { return true }
            return !isWorkoutd(pid)
        }
    }

    /// True when process `pid` runs workoutd (`/proc/PID/comm`); unknown counts as yes (kept).
    static func isWorkoutd(_ pid: pid_t) -> Bool {
        guard let bytes = try? readFile("/proc/\(pid)/comm", limit: 64) else { return true }
        return String(decoding: bytes, as: UTF8.self).hasPrefix("workoutd")
    }
}
