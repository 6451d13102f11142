import Glibc
import WorkoutCore

/// Reads the configuration file; an absent default file means the built-in defaults, an absent
/// file named with `--config` is an error. The shell checks what the core cannot: that the
/// `timeZone` names a zone this machine has (`/usr/share/zoneinfo/NAME`, or a POSIX TZ string).
public enum ConfigLoader {
    public static let zoneDirectory = "/usr/share/zoneinfo/"

    public static func load(path: String, mustExist: Bool = false) -> Result<Config, ConfigError> {
        let bytes: [UInt8]
        do { bytes = try readFile(path, limit: 1 << 20) } catch {
            // readFile throws only SystemError (typed throws).
            if error.code == ENOENT {
                if mustExist { return .failure(ConfigError(key: "", problem: "\(path) does not exist")) }
                return .success(Config())
            }
            return .failure(ConfigError(key: "", problem: "\(path): \(error.reason)"))
        }
        let config: Config
        do { config = try Config.decode(json: String(decoding: bytes, as: UTF8.self)) } catch {
            return .failure(ConfigError(key: error.key, problem: error.problem + " (in \(path))"))
        }
        if let tz = config.timeZone, let problem = zoneProblem(tz) {
            return .failure(ConfigError(key: "timeZone", problem: problem + " (in \(path))"))
        }
        return .success(config)
    }

    /// Every problem of the file at `path` (`--check-config`): empty when `load` would succeed.
    public static func problems(path: String, mustExist: Bool = false) -> [ConfigError] {
        switch load(path: path, mustExist: mustExist) {
        case .success: return []
        case .failure(let first):
            guard let bytes = try? readFile(path, limit: 1 << 20) else { return [first] }
            let all = Config.problems(json: String(decoding: bytes, as: UTF8.self))
            return all.isEmpty ? [first] : all.map { ConfigError(key: $0.key, problem: $0.problem + " (in \(path))") }
        }
    }

    /// Nil when `name` is a zone file under `zoneDirectory` or a POSIX TZ string, else why not.
    /// (The core already refused empty names, `..` and absolute paths.)
    static func zoneProblem(_ name: String) -> String? {
        if let bytes = try? readFile(zoneDirectory + name, limit: 1 << 20) {
            if (try? ZoneRules(tzif: bytes, name: name)) != nil { return nil }
            return "'\(name)': \(zoneDirectory)\(name) is not a zone file"
        }
        if ZoneRules(posix: name, name: name) != nil { return nil }
        return "unknown zone '\(name)' (no \(zoneDirectory)\(name); use an IANA name like Europe/Berlin)"
    }
}
