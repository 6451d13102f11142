import Glibc

/// Small, explicit access to the process environment for the systemd glue: read a few named
/// variables into a dictionary (so the parsers take plain dictionaries and tests never mutate
/// the real environment) and unset variables after use. Call at start-up, before other
/// threads run: getenv/unsetenv are not thread-safe against each other.
public enum ProcessEnvironment {
    /// The values of `names` that are set in this process's environment.
    public static func current(_ names: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }

    /// Removes `names` from this process's environment (children will not inherit them).
    public static func unset(_ names: [String]) {
        for name in names { unsetenv(name) }
    }
}
