/// The history folder and import folders (docs/config.md, "History on several machines").
extension Config {
    /// Reads `historyDir` and `importFolders`.
    mutating func decodeHistoryKeys(_ r: inout KeyReader) throws(ConfigError) {
        if let dir = try r.string("historyDir") {
            historyDir = try Config.folder(dir, key: "historyDir")
        }
        if let folders = try r.array("importFolders") {
            var out: [String] = []
            for (k, f) in folders.enumerated() {
                let key = "importFolders[\(k)]"
                guard let s = f.stringValue else { throw ConfigError(key: key, problem: "expected a folder path, got \(f.typeName)") }
                let folder = try Config.folder(s, key: key)
                guard !out.contains(folder) else { throw ConfigError(key: key, problem: "'\(s)' is listed twice") }
                out.append(folder)
            }
            importFolders = out
        }
    }

    /// A folder as configured: absolute, `~/...` (the user's home), or
    /// `$XDG_DATA_HOME/workoutd/...`; no `..` (the shell expands the first two forms).
    static func folder(_ s: String, key: String) throws(ConfigError) -> String {
        let absolute = s.hasPrefix("/") || s == "~" || s.hasPrefix("~/") || s == "$XDG_DATA_HOME/workoutd" || s.hasPrefix("$XDG_DATA_HOME/workoutd/")
        guard absolute else {
            throw ConfigError(key: key, problem: "'\(s)' is not an absolute path (start it with /, ~/ or $XDG_DATA_HOME/workoutd)")
        }
        guard !s.split(separator: "/").contains("..") else { throw ConfigError(key: key, problem: "'\(s)' must not contain '..'") }
        return s
    }
}
