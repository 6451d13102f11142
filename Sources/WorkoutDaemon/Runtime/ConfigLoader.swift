import Glibc
import WorkoutCore

/// Reads the configuration file; an absent file means the built-in defaults.
public enum ConfigLoader {
    public static func load(path: String) -> Result<Config, ConfigError> {
        let bytes: [UInt8]
        do { bytes = try readFile(path, limit: 1 << 20) } catch let e as SystemError {
            if e.code == ENOENT { return .success(Config()) }
            return .failure(ConfigError(key: "", problem: "\(path): \(e.reason)"))
        } catch { return .failure(ConfigError(key: "", problem: "\(path): unreadable")) }
        do { return .success(try Config.decode(json: String(decoding: bytes, as: UTF8.self))) } catch {
            return .failure(ConfigError(key: error.key, problem: error.problem + " (in \(path))"))
        }
    }
}
