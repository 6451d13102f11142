import WorkoutSystem
import WorkoutCore

/// Runs one workoutctl invocation: parses, talks to the daemon, prints, and returns the exit
/// code of the contract (docs/protocol.md). Everything the process touches is injected.
public struct Client: Sendable {
    public var console: Console
    public var paths: SocketPaths
    public var renderer: Renderer
    /// Seconds to wait for a reply to an ordinary request.
    public var requestTimeout: Double = 30
    /// Seconds to wait for `import` (the daemon parses every file before answering).
    public var importTimeout: Double = 600
    /// Whether `watch` and `simulate` catch SIGINT/SIGTERM to end cleanly (off in tests, which
    /// share one process).
    public var catchesSignals = true
    /// Starts the browser on a URL (`open`): `xdg-open` (replaced in tests).
    public var openURL: @Sendable (String) -> Result<Void, OpenError> = OpenCommand.xdgOpen
    /// How the "not running" message says to start the daemon (where this program was built).
    public var startHint = DaemonStartHint.installed

    public init(console: Console, paths: SocketPaths, renderer: Renderer = Renderer()) {
        self.console = console; self.paths = paths; self.renderer = renderer
    }

    public func run(arguments: [String], cwd: String) -> ExitCode {
        switch ArgumentParser.parse(arguments, cwd: cwd) {
        case .failure(let e):
            console.err(e.description)
            return .usage
        case .success(let inv):
            return run(inv)
        }
    }

    public func run(_ inv: Invocation) -> ExitCode {
        switch inv.command {
        case .version:
            console.out("workoutctl \(HelpText.version)\n")
            return .ok
        case .help(let topic):
            console.out(topic.flatMap(CommandHelp.named).map(HelpText.command) ?? HelpText.global)
            return .ok
        case .watch:
            return Watcher(client: self, invocation: inv).run()
        case .statusBar(let format):
            return StatusBarWatcher(client: self, invocation: inv, format: format).run()
        case .simulate(let o):
            return Simulator(client: self, invocation: inv, options: o).run()
        case .importFiles(let o):
            return ImportCommand(client: self, invocation: inv, options: o).run()
        case .open(let id, let print):
            return OpenCommand(client: self, invocation: inv, id: id, printOnly: print).run()
        case .showCharts(let id):
            return ChartsCommand(client: self, invocation: inv, id: id).run()
        case .startPlan(let activity, let path):
            // The daemon checks the plan (it knows the FTP); here only that the file reads.
            let bytes: [UInt8]
            do { bytes = try readRegularFile(path, limit: PlanDecoder.maxBytes) } catch {
                console.err("workoutctl: cannot read the plan \(path): \(error)\n")
                return .failed
            }
            var planned = inv
            planned.command = .send(.startPlanned(activity, PlanFile(name: String(path.split(separator: "/").last ?? ""), bytes: bytes)))
            return run(planned)
        case .export(let o) where !(inv.json && o.output == nil):
            return ExportCommand(client: self, invocation: inv, options: o).run()
        case .send, .list, .export:
            guard let request = inv.command.request else { return .failed }
            let bulk: Bool
            switch inv.command {
            case .send(let r): bulk = r.isBulkWork
            case .export: bulk = true
            case .list, .importFiles, .watch, .statusBar, .simulate, .help, .version, .open, .showCharts, .startPlan: bulk = false
            }
            let timeout = bulk ? importTimeout : requestTimeout
            switch exchange(request, socket: controlPath(inv), timeout: timeout) {
            case .failure(let f): return report(f, json: inv.json)
            case .success(let reply): return present(reply, for: inv)
            }
        }
    }

    func controlPath(_ inv: Invocation) -> String { inv.socketPath ?? paths.control }

    /// Connects to one of the daemon's sockets, first refusing one that is not this user's.
    func connect(_ path: String) throws(ConnectionError) -> LineConnection {
        if let why = paths.trustProblem(path) { throw .untrusted(path: path, reason: why) }
        return try LineConnection.connect(path: path)
    }

    // MARK: talking to the daemon

    /// Why a request got no successful reply.
    public enum Failure: Error, Equatable {
        /// Could not talk to the daemon at all.
        case connection(ConnectionError)
        /// The daemon answered `ok: false`.
        case refused(code: String, message: String, reply: JSON)
        /// The reply was not a JSON object.
        case badReply(String)
    }

    /// Connects, sends one request line, reads one reply line.
    public func exchange(_ request: JSON, socket: String, timeout: Double?) -> Result<JSON, Failure> {
        let conn: LineConnection
        do { conn = try connect(socket) } catch { return .failure(.connection(error)) }
        return exchange(request, on: conn, timeout: timeout)
    }

    public func exchange(_ request: JSON, on conn: LineConnection, timeout: Double?) -> Result<JSON, Failure> {
        let line: [UInt8]
        do {
            try conn.send(line: request.serialized())
            guard let l = try conn.readLine(timeout: timeout) else { return .failure(.connection(.closed(path: conn.path))) }
            line = l
        } catch {
            return .failure(.connection(error))
        }
        return Client.interpret(line)
    }

    /// Classifies one reply line.
    public static func interpret(_ line: [UInt8]) -> Result<JSON, Failure> {
        let reply: JSON
        do { reply = try JSON.parse(line) } catch {
            return .failure(.badReply("the daemon's reply is not JSON (\(error)): " + String(decoding: line.prefix(200), as: UTF8.self)))
        }
        guard reply.objectValue != nil else { return .failure(.badReply("the daemon's reply is not a JSON object")) }
        guard let error = ProtocolError(reply: reply) else { return .success(reply) }
        let code = error.code
        let message = error.message
        return .failure(.refused(code: code, message: message, reply: reply))
    }

    /// Prints a failure and returns its exit code.
    func report(_ f: Failure, json: Bool) -> ExitCode {
        switch f {
        case .connection(let e):
            console.err(Client.unreachableMessage(e, startHint: startHint))
            return .unavailable
        case .refused(_, let message, let reply):
            if json { console.out(Client.withoutOK(reply).pretty() + "\n") }
            console.err("workoutctl: \(TerminalText.visible(message))\n")
            return .failed
        case .badReply(let m):
            console.err("workoutctl: \(TerminalText.visible(m))\n")
            return .failed
        }
    }

    /// The exit-69 message: what failed and how to start the daemon.
    public static func unreachableMessage(_ e: ConnectionError, startHint: DaemonStartHint = .installed) -> String {
        var s = "workoutctl: \(e)\n"
        switch e {
        case .unreachable, .closed:
            s += startHint.sentence
        case .untrusted:
            s += "Remove it if it is not yours, or set XDG_RUNTIME_DIR to a directory only you can write.\n"
        case .timedOut:
            s += "workoutd seems stuck; `systemctl --user status workoutd` or its log may tell why.\n"
        case .io:
            break
        }
        return s
    }

    /// The reply without its `ok` key, as `--json` prints it.
    public static func withoutOK(_ reply: JSON) -> JSON {
        guard var o = reply.objectValue else { return reply }
        o["ok"] = nil
        return .object(o)
    }

    // MARK: printing replies

    func present(_ reply: JSON, for inv: Invocation) -> ExitCode {
        if case .export(let o) = inv.command { return presentExport(reply, o, json: inv.json) }
        var code = ExitCode.ok
        if case .send(.importFiles) = inv.command {
            let anyError = (reply["results"]?.arrayValue ?? []).contains { ImportResultReply(json: $0).kind == .error }
            if anyError { code = .failed }
        }
        if inv.json {
            console.out(Client.withoutOK(reply).pretty() + "\n")
            return code
        }
        // Titles, notes, device names and file names reach the terminal made visible.
        let reply = TerminalText.visible(reply)
        switch inv.command {
        case .send(let r):
            switch r {
            case .stop: console.out(renderer.stopped(reply))
            case .activities: console.out(renderer.activities(reply))
            case .show: console.out(renderer.show(reply))
            case .importFiles:
                console.out(renderer.importResults(reply))
                if code != .ok { console.err("workoutctl: some files could not be imported\n") }
            case .streak: console.out(renderer.streak(reply))
            case .totals: console.out(renderer.totals(reply))
            case .analytics(let a): console.out(renderer.analytics(a, reply))
            case .reload:
                let changed = (reply["changed"]?.arrayValue ?? []).compactMap(\.stringValue)
                let waiting = (reply["needsRestart"]?.arrayValue ?? []).compactMap(\.stringValue)
                console.out("Configuration reloaded" + (changed.isEmpty ? "; nothing changed.\n" : "; changed: " + changed.joined(separator: ", ") + ".\n")
                            + (waiting.isEmpty ? "" : "Takes effect at the next start: " + waiting.joined(separator: ", ") + ".\n"))
            case .edit(_, let e):
                let head = e.activity != nil ? "Changed; recomputed:\n" : "Changed:\n"
                console.out(head + (reply["workout"].map { renderer.summary($0, units: UnitFormatter(reply: reply)) } ?? ""))
            case .recompute: console.out(renderer.recompute(reply))
            case .delete(let id):
                let shown = reply["id"]?.stringValue ?? id.rawValue
                console.out("Deleted \(shown). Undo with: workoutctl undelete \(shown)\n")
            case .undelete(let id): console.out("Restored \(reply["id"]?.stringValue ?? id.rawValue).\n")
            case .web: console.out((reply["url"]?.stringValue ?? "") + "\n")
            case .charts: console.out(renderer.charts(reply))
            case .start, .startPlanned, .next, .pause, .resume, .lap, .marker, .toggle, .status, .watch, .list, .export, .exportTo,
                 .importDescriptors:
                console.out(renderer.status(reply))
            }
        case .list: console.out(renderer.list(reply))
        case .export, .importFiles, .watch, .statusBar, .simulate, .help, .version, .open, .showCharts, .startPlan: break
        }
        return code
    }

    func presentExport(_ reply: JSON, _ o: ExportOptions, json: Bool) -> ExitCode {
        let export = ExportReply(json: reply)
        guard case .content(let content, let base64)? = export.body else {
            console.err("workoutctl: the daemon's export reply has no \"content\"\n")
            return .failed
        }
        guard let bytes = export.contentBytes else {
            console.err("workoutctl: the daemon's export reply is not valid base64\n")
            return .failed
        }
        guard let path = o.output else {
            if json { console.out(Client.withoutOK(reply).pretty() + "\n") } else if base64 {
                console.err("workoutctl: \(o.format.rawValue.uppercased()) is binary: give --output FILE\n")
                return .usage
            } else { console.out(content) }
            return .ok
        }
        do { try AtomicFile.write(bytes, to: path, mode: 0o644) } catch {
            console.err("workoutctl: cannot create \(path): \(error.reason) (\(error.operation))\n")
            return .failed
        }
        if json {
            let r: JSON = ["format": .string(export.format ?? o.format.rawValue), "output": .string(path), "bytes": .int(bytes.count)]
            console.out(r.pretty() + "\n")
        } else {
            console.out("Wrote \(path) (\(bytes.count) bytes).\n")
        }
        return .ok
    }
}

extension Client {
    /// The next line of a subscription (`watch`) once `conn` is readable: nil when the daemon
    /// closed it. A failed read is told on stderr here; the caller then exits `.unavailable`.
    func readSubscribedLine(_ conn: LineConnection) -> Result<[UInt8]?, ConnectionError> {
        do { return .success(try conn.readLine(timeout: 10)) } catch {
            console.err("workoutctl: \(error)\n")
            return .failure(error)
        }
    }
}
