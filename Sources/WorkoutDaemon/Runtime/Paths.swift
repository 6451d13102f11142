import Glibc

/// Where workoutd keeps things, following the XDG base directory spec (docs/config.md).
public struct Paths: Sendable, Equatable {
    public var configFile: String
    public var runtimeDir: String
    public var controlSocket: String
    public var feedSocket: String
    public var dataDir: String
    public var stateDir: String
    /// Where saved workouts and the trash live (config `historyDir`, default `dataDir`); a
    /// sync engine may share it between machines. Nothing of this machine's alone is kept in
    /// it: the index, journal and caches are in `stateDir`.
    public var historyDir: String

    public var workoutsDir: String { historyDir + "/workouts" }
    public var trashDir: String { historyDir + "/trash" }
    /// This machine's index of `workoutsDir` (docs/storage.md).
    public var indexFile: String { stateDir + "/index.jsonl" }
    /// Where versions before `historyDir` kept the index (taken over at start-up).
    public var legacyIndexFile: String { historyDir + "/index.jsonl" }
    /// What start-up needs of the index, 32 bytes a workout (`StartupIndex`).
    public var startupIndexFile: String { stateDir + "/index.start" }
    /// The power workouts' measured curves, kept between runs (`PowerCurveFile`).
    public var powerCurvesFile: String { stateDir + "/power-curves.bin" }
    /// This machine's tag (`MachineTag`), drawn at the first start.
    public var machineFile: String { stateDir + "/machine" }
    /// The files of `importFolders` already imported (`ImportedFiles`).
    public var importedFilesFile: String { stateDir + "/imported-files.jsonl" }
    public var journalFile: String { stateDir + "/current.journal" }
    public var logFile: String { stateDir + "/workoutd.log" }

    /// Resolves paths from an environment (pass the process environment in production).
    public init(environment env: [String: String]) {
        let home = env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        func xdg(_ key: String, _ fallback: String) -> String {
            if let v = env[key], v.hasPrefix("/") { return v }  // relative values are invalid per spec
            return fallback
        }
        let config = xdg("XDG_CONFIG_HOME", home + "/.config")
        let data = xdg("XDG_DATA_HOME", home + "/.local/share")
        let state = xdg("XDG_STATE_HOME", home + "/.local/state")
        // Without XDG_RUNTIME_DIR: a per-user directory in /tmp, created 0700 and checked to be
        // ours (PrivateDirectory.prepare refuses a directory someone else made).
        let runtime = RuntimeDirectory.path(xdgRuntimeDir: env["XDG_RUNTIME_DIR"], uid: getuid())
        configFile = config + "/workoutd/config.json"
        runtimeDir = runtime
        controlSocket = runtime + "/control.sock"
        feedSocket = runtime + "/feed.sock"
        dataDir = data + "/workoutd"
        stateDir = state + "/workoutd"
        historyDir = dataDir
    }

    /// Expands a configured folder: `~/` is `$HOME`, `$XDG_DATA_HOME/workoutd` the data
    /// directory; anything else is taken as written (the config requires absolute paths).
    public func expandFolder(_ path: String, environment env: [String: String]) -> String {
        let key = "$XDG_DATA_HOME/workoutd"
        if path == key || path.hasPrefix(key + "/") { return dataDir + path.dropFirst(key.count) }
        if path == "~" || path.hasPrefix("~/") {
            let home = env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
            return home + path.dropFirst(1)
        }
        var p = path
        while p.count > 1, p.hasSuffix("/") { p.removeLast() }
        return p
    }

    /// Expands `$XDG_RUNTIME_DIR/workoutd` in a configured feed socket path.
    public func expand(_ path: String) -> String {
        let key = "$XDG_RUNTIME_DIR/workoutd"
        if path.hasPrefix(key) { return runtimeDir + path.dropFirst(key.count) }
        return path
    }

    public static func processEnvironment() -> [String: String] {
        var env: [String: String] = [:]
        var p = environ
        while let c = p.pointee {
            let s = String(cString: c)
            if let eq = s.firstIndex(of: "=") { env[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return env
    }
}
