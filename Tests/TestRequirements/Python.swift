import Foundation

/// The interpreter `python3` on PATH runs, found once per process. With pyenv (as on CI's
/// machines) `python3` is a bash shim that costs ~0.1 s of CPU a call (a dozen bash processes)
/// before Python starts, and the tests start Python a few hundred times; `.ci/test-shards.sh`
/// puts the interpreter first on PATH, a plain `swift test` does not.
public enum Python {
    /// The absolute path of `sys.executable` of `python3` on PATH, or "python3" when it cannot
    /// be found (no python3: the tests that need it say so through `.requires`).
    public static let interpreter: String = {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", "import sys; print(sys.executable)"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return "python3" }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let path = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return p.terminationStatus == 0 && path.hasPrefix("/") && FileManager.default.isExecutableFile(atPath: path) ? path : "python3"
    }()

    /// A command line that starts with `python3` or `/usr/bin/env python3`, run by `interpreter`
    /// itself (its absolute path first); any other command line as it is.
    public static func direct(_ args: [String]) -> [String] {
        guard interpreter.hasPrefix("/") else { return args }
        if args.first == "python3" { return [interpreter] + args.dropFirst() }
        if args.count >= 2, args[0] == "/usr/bin/env", args[1] == "python3" { return [interpreter] + args.dropFirst(2) }
        return args
    }
}
