import Glibc
import WorkoutCore
import WorkoutSystem

/// `open [ID] [--print]`: asks the daemon for the web pages' URL (with the token that lets the
/// browser in) and starts the browser with `xdg-open`, or prints the URL (`--print`; with
/// `--json` as `{"url": URL}`).
struct OpenCommand {
    let client: Client
    let invocation: Invocation
    let id: WorkoutID?
    let printOnly: Bool

    func run() -> ExitCode {
        let reply: JSON
        switch client.exchange(ControlRequest.web(id).encoded(), socket: client.controlPath(invocation), timeout: client.requestTimeout) {
        case .failure(let f): return client.report(f, json: invocation.json)
        case .success(let r): reply = r
        }
        guard let url = reply["url"]?.stringValue else {
            client.console.err("workoutctl: the daemon's reply has no URL\n")
            return .failed
        }
        if invocation.json {
            client.console.out(JSON.object(JSONObject([("url", .string(url))])).pretty() + "\n")
            return .ok
        }
        if printOnly {
            client.console.out(url + "\n")
            return .ok
        }
        switch client.openURL(url) {
        case .success:
            return .ok
        case .failure(let why):
            if !why.output.isEmpty { client.console.err("xdg-open said:\n\(why.output)\n") }
            client.console.err("workoutctl: could not start a browser (\(why)); open this address yourself:\n")
            client.console.out(url + "\n")
            return .failed
        }
    }

    /// Runs `xdg-open URL` and waits for it (it returns once the browser has the URL). Its
    /// output goes to an unlinked temporary file, not the terminal: without a browser it prints
    /// half a dozen lines of its own attempts, which are shown only when it fails (a pipe would
    /// never end: the browser it starts inherits it).
    static func xdgOpen(_ url: String) -> Result<Void, OpenError> {
        launch(["xdg-open", url])
    }

    /// Runs `argv` with its stdout and stderr captured; fails with the last lines it printed.
    static func launch(_ argv: [String]) -> Result<Void, OpenError> {
        var template = Array("/tmp/workoutctl-open-XXXXXX".utf8CString)
        let out = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if out >= 0 {
            _ = fcntl(out, F_SETFD, FD_CLOEXEC)  // the launcher gets it as 1 and 2 only
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        }
        defer { if out >= 0 { close(out) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if out >= 0 {
            posix_spawn_file_actions_adddup2(&actions, out, 1)
            posix_spawn_file_actions_adddup2(&actions, out, 2)
        }
        var pid = pid_t()
        var cargs = argv.map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) } }
        let rc = posix_spawnp(&pid, argv[0], &actions, nil, &cargs, environ)
        guard rc == 0 else { return .failure(OpenError(reason: "\(argv[0]): " + SystemError("", code: rc).reason)) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        guard exited, code == 0 else {
            return .failure(OpenError(reason: "\(argv[0]) exited with status \(code)", output: out >= 0 ? lastLines(of: out) : ""))
        }
        return .success(())
    }

    /// The last few lines (at most 2 KiB) written to `fd`, indented.
    private static func lastLines(of fd: Int32) -> String {
        let size = lseek(fd, 0, SEEK_END)
        guard size > 0 else { return "" }
        let count = Int(min(size, 2048))
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, size - off_t(count)) }
        guard n > 0 else { return "" }
        let text = String(decoding: bytes[..<n], as: UTF8.self)
        let lines = text.split(separator: "\n").suffix(8)
        return lines.map { "  " + $0 }.joined(separator: "\n")
    }
}

public struct OpenError: Error, Sendable, CustomStringConvertible {
    public var reason: String
    /// What the browser launcher printed (its last lines, indented), shown only on failure.
    public var output: String
    public init(reason: String, output: String = "") { self.reason = reason; self.output = output }
    public var description: String { reason }
}

/// `show ID --charts`: the workout as `show` prints it, then its charts (`charts` request) as
/// rows of braille, as wide as the terminal.
struct ChartsCommand {
    let client: Client
    let invocation: Invocation
    let id: WorkoutID

    func run() -> ExitCode {
        let shown = Invocation(socketPath: invocation.socketPath, json: invocation.json, command: .send(.show(id)))
        if invocation.json {
            // One JSON object: the show reply with its charts.
            guard case .success(var show) = client.exchange(ControlRequest.show(id).encoded(), socket: client.controlPath(invocation), timeout: client.requestTimeout) else {
                return client.run(shown)
            }
            switch client.exchange(ControlRequest.charts(id, columns: 120).encoded(), socket: client.controlPath(invocation), timeout: client.importTimeout) {
            case .failure(let f): return client.report(f, json: true)
            case .success(let charts):
                if var o = show.objectValue { o["charts"] = charts["charts"] ?? .array([]); show = .object(o) }
                client.console.out(Client.withoutOK(show).pretty() + "\n")
                return .ok
            }
        }
        let code = client.run(shown)
        guard code == .ok else { return code }
        let width = max(40, min(200, (client.console.columns() ?? 80) - 10))
        switch client.exchange(ControlRequest.charts(id, columns: width * 2).encoded(), socket: client.controlPath(invocation), timeout: client.importTimeout) {
        case .failure(let f): return client.report(f, json: false)
        case .success(let reply): client.console.out(client.renderer.charts(TerminalText.visible(reply)))
        }
        return .ok
    }
}
