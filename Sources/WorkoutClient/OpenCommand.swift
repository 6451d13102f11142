import Glibc
import WorkoutCore

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
            client.console.err("workoutctl: could not start a browser (\(why)); open this address yourself:\n")
            client.console.out(url + "\n")
            return .failed
        }
    }

    /// Runs `xdg-open URL` and waits for it (it returns once the browser has the URL).
    static func xdgOpen(_ url: String) -> Result<Void, OpenError> {
        var pid = pid_t()
        let argv = ["xdg-open", url]
        var cargs = argv.map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) } }
        let rc = posix_spawnp(&pid, "xdg-open", nil, nil, &cargs, environ)
        guard rc == 0 else { return .failure(OpenError(reason: "xdg-open: " + String(cString: strerror(rc)))) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        guard exited, code == 0 else { return .failure(OpenError(reason: "xdg-open exited with status \(code)")) }
        return .success(())
    }
}

public struct OpenError: Error, Sendable, CustomStringConvertible {
    public var reason: String
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
