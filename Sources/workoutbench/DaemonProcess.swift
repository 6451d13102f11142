import Glibc
import WorkoutCore

/// The real release `workoutd` in a private temp XDG environment (as the integration tests'
/// DaemonHarness does): feeds limited to its own feed socket, so no gpsd on the machine interferes.
final class DaemonProcess {
    static let config = """
        {"feeds": [{"kind": "socket", "path": "$XDG_RUNTIME_DIR/workoutd/feed.sock"}],
         "limits": {"maxClients": 128}, "web": {"listen": "127.0.0.1:0"}}
        """

    let dir: String
    let binary: String
    private(set) var pid: pid_t = 0

    var controlSocket: String { dir + "/r/workoutd/control.sock" }
    var feedSocket: String { dir + "/r/workoutd/feed.sock" }
    var dataDir: String { dir + "/d/workoutd" }
    /// This machine's state (the history index, the journal).
    var stateDir: String { dir + "/s/workoutd" }

    var environment: [String] {
        BenchSupport.currentEnvironment().filter { e in
            !["XDG_", "NOTIFY_SOCKET=", "LISTEN_", "JOURNAL_STREAM="].contains { e.hasPrefix($0) }
        } + ["XDG_RUNTIME_DIR=\(dir)/r", "XDG_DATA_HOME=\(dir)/d", "XDG_STATE_HOME=\(dir)/s", "XDG_CONFIG_HOME=\(dir)/c"]
    }

    init(binary: String = BenchSupport.binDir() + "/workoutd", config: String = DaemonProcess.config) {
        self.binary = binary
        dir = BenchSupport.makeTempDir()
        BenchSupport.mkdirs(dir + "/r")
        BenchSupport.mkdirs(dir + "/c/workoutd")
        BenchSupport.writeAll(dir + "/c/workoutd/config.json", Array(config.utf8))
    }

    deinit {
        stop()
        BenchSupport.removeTree(dir)
    }

    /// Spawns the daemon and waits until `status` answers; returns seconds from exec to ready.
    @discardableResult
    func start(timeout: Double = 60) -> Double {
        let t0 = BenchSupport.now()
        // WORKOUTBENCH_WRAPPER="valgrind --tool=callgrind ..." runs the daemon under a profiler.
        let wrapper = BenchSupport.currentEnvironment().first { $0.hasPrefix("WORKOUTBENCH_WRAPPER=") }
            .map { $0.dropFirst("WORKOUTBENCH_WRAPPER=".count).split(separator: " ").map(String.init) } ?? []
        pid = BenchSupport.spawn(wrapper + [binary], environment: environment)
        while BenchSupport.now() - t0 < timeout {
            if let fd = Optional(socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)), fd >= 0 {
                let ok = ControlClient.connect(fd, controlSocket)
                close(fd)
                if ok, ControlClient.request(path: controlSocket, #"{"command":"status"}"#)?["ok"]?.boolValue == true {
                    return BenchSupport.now() - t0
                }
            }
            usleep(200)
        }
        BenchSupport.fail("workoutd did not become ready in \(Int(timeout)) s")
    }

    func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let t0 = BenchSupport.now()
        while waitpid(pid, &status, WNOHANG) == 0 {
            if BenchSupport.now() - t0 > 30 { kill(pid, SIGKILL); waitpid(pid, &status, 0); break }
            usleep(10_000)
        }
        pid = 0
    }

    func request(_ json: String) -> JSON {
        guard let r = ControlClient.request(path: controlSocket, json) else { BenchSupport.fail("no reply to \(json)") }
        return r
    }

    func status() -> JSON { request(#"{"command":"status"}"#) }

    func pointCount() -> Int { status()["workout"]?["pointCount"]?.intValue ?? 0 }

    func stateName() -> String { status()["state"]?.stringValue ?? "?" }

    var rssKB: Int { BenchSupport.rssKB(pid) ?? -1 }
    /// The peak resident memory so far (VmHWM).
    var peakRSSKB: Int { BenchSupport.rssKB(pid, field: "VmHWM:") ?? -1 }
}
