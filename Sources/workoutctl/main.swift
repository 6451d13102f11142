import Glibc
import WorkoutClient

// workoutctl: everything lives in WorkoutClient (testable); this only binds the process.
signal(SIGPIPE, SIG_IGN)  // a closed pipe on stdout or a socket is an error to report, not a kill

func currentDirectory() -> String {
    var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buf, buf.count) != nil else { return Environment.get("PWD") ?? "/" }
    return buf.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

let client = Client(console: .standard, paths: .current())
let code = client.run(arguments: Array(CommandLine.arguments.dropFirst()), cwd: currentDirectory())
exit(code.rawValue)
