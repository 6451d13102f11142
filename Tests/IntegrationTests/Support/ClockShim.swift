import Foundation
import Glibc
import Testing

/// The LD_PRELOAD clock shim (Tests/Shims/clockshim.c) built for one test: it moves the
/// daemon's CLOCK_REALTIME, CLOCK_BOOTTIME and CLOCK_MONOTONIC and its adjtimex answer, never the
/// machine's clock. `nil` from `build` (with the reason) when no C compiler is available: the
/// test then skips, or fails under CI=true (`Issue.recordIfCI`).
struct ClockShim {
    let library: String
    let controlFile: String

    /// The environment that puts a daemon under the shim.
    var environment: [String: String] { ["LD_PRELOAD": library, "WORKOUTD_CLOCK_SHIM": controlFile] }

    static var source: String { DaemonHarness.projectRoot.appendingPathComponent("Tests/Shims/clockshim.c").path }

    static func build(in dir: String) -> (ClockShim?, String) {
        let lib = dir + "/clockshim.so"
        guard FileManager.default.fileExists(atPath: source) else { return (nil, "\(source) is missing") }
        for cc in ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang", "/opt/swift/usr/bin/clang"] where FileManager.default.isExecutableFile(atPath: cc) {
            if let r = try? Reliability.run([cc, "-shared", "-fPIC", "-O1", "-o", lib, source, "-ldl", "-lpthread"]), r.status == 0 {
                let shim = ClockShim(library: lib, controlFile: dir + "/clocks")
                try? shim.set()
                return (shim, cc)
            }
        }
        return (nil, "no C compiler (cc, gcc, clang) could build the LD_PRELOAD clock shim")
    }

    /// Offsets in seconds for the daemon's clocks, and whether adjtimex says unsynchronized.
    /// Written atomically with a fresh modification time (the shim re-reads on change).
    func set(realtime: Double = 0, boottime: Double = 0, monotonic: Double = 0, unsync: Bool = false) throws {
        let text = "realtime \(realtime)\nboottime \(boottime)\nmonotonic \(monotonic)\nunsync \(unsync ? 1 : 0)\n"
        let tmp = controlFile + ".tmp"
        try text.write(toFile: tmp, atomically: false, encoding: .utf8)
        guard rename(tmp, controlFile) == 0 else { throw POSIXError(.EIO) }
    }

    /// A one-hour (or `seconds`) suspend as the daemon sees it: REALTIME and BOOTTIME move ahead
    /// of MONOTONIC. `stepped` is any wall-clock offset already in place.
    func suspend(seconds: Double, stepped: Double = 0) throws {
        try set(realtime: stepped + seconds, boottime: seconds)
    }

    /// A temp dir short enough for Unix sockets.
    static func tempDir() -> String {
        var t = Array("/tmp/ck.XXXXXX".utf8CString)
        return String(cString: mkdtemp(&t)!)
    }
}
