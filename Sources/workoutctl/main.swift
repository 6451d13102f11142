import Glibc
import WorkoutClient

// workoutctl: everything lives in WorkoutClient (testable); this only binds the process.
signal(SIGPIPE, SIG_IGN)  // a closed pipe on stdout or a socket is an error to report, not a kill

func currentDirectory() -> String {
    var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buf, buf.count) != nil else { return Environment.get("PWD") ?? "/" }
    return buf.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

/// This program's path, for how the "not running" message says to start the daemon.
func executablePath() -> String? {
    var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink("/proc/self/exe", &buf, buf.count - 1)
    guard n > 0 else { return nil }
    return String(decoding: buf[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

var client = Client(console: .standard, paths: .current())
client.startHint = DaemonStartHint(executable: executablePath())
let code = client.run(arguments: Array(CommandLine.arguments.dropFirst()), cwd: currentDirectory())
exit(code.rawValue)
