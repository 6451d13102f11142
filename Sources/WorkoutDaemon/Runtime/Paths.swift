import Glibc

/// Where workoutd keeps things, following the XDG base directory spec (docs/config.md).
public struct Paths: Sendable, Equatable {
    public var configFile: String
    public var runtimeDir: String
    public var controlSocket: String
    public var feedSocket: String
    public var dataDir: String
    public var stateDir: String

    public var workoutsDir: String { dataDir + "/workouts" }
    public var trashDir: String { dataDir + "/trash" }
    public var indexFile: String { dataDir + "/index.jsonl" }
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
