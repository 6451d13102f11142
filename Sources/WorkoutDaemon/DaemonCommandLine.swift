import Glibc
import WorkoutCore

/// `workoutd` flags: --help, --version, --config PATH, --check-config. Exit 78 (EX_CONFIG) on a
/// bad configuration so systemd (RestartPreventExitStatus=78) does not restart it in a loop.
public enum DaemonCommandLine {
    public static let usage = """
    usage: workoutd [--config PATH] [--check-config] [--help] [--version]

    The workout-tracking daemon. Runs in the foreground; control it with workoutctl.
      --config PATH    configuration file (default $XDG_CONFIG_HOME/workoutd/config.json;
                       an absent default file means built-in defaults; a PATH
                       given here must exist)
      --check-config   validate the configuration, print what is wrong, exit 0 or 78
      --version        print the version
    """

    public static func main(_ args: [String]) -> Int32 {
        let env = Paths.processEnvironment()
        let paths = Paths(environment: env)
        var configPath = paths.configFile
        var checkOnly = false
        var explicitPath = false
        var i = 1
        while i < args.count {
            switch args[i] {
            case "--help", "-h": print(usage); return 0
            case "--version": print("workoutd \(Daemon.version)"); return 0
            case "--check-config": checkOnly = true
            case "--debug-dbus": return DBusDebugCommand.main(Array(args[(i + 1)...]), environment: env)
            case "--config":
                guard i + 1 < args.count else { eprint("workoutd: --config needs a path\n\(usage)"); return 2 }
                i += 1; configPath = args[i]; explicitPath = true
            default: eprint("workoutd: unknown option \(args[i])\n\(usage)"); return 2
            }
            i += 1
        }
        if checkOnly {
            let problems = ConfigLoader.problems(path: configPath, mustExist: explicitPath)
            for p in problems { eprint("workoutd: invalid configuration: \(p)") }
            if !problems.isEmpty { return 78 }
        }
        let config: Config
        switch ConfigLoader.load(path: configPath, mustExist: explicitPath) {
        case .failure(let e): eprint("workoutd: invalid configuration: \(e)"); return 78
        case .success(let c): config = c
        }
        if checkOnly { print("workoutd: configuration \(configPath) is valid"); return 0 }
        // Before the first thread: an import's descriptors then never grow the table on the loop.
        DescriptorTable.reserve()
        do {
            let daemon = try Daemon(config: config, configPath: configPath, paths: paths, environment: env,
                                    ports: DaemonPorts(hookTrampoline: HookRunner.ownExecutable()))
            return try daemon.run()
        } catch let e as ConfigError {
            eprint("workoutd: \(e)")
            return 78
        } catch {
            eprint("workoutd: \(error)")
            return 71  // EX_OSERR: could not set up sockets or directories
        }
    }
}

func eprint(_ s: String) {
    _ = Array((s + "\n").utf8).withUnsafeBytes { try? writeAll(2, $0) }
}
