import WorkoutCore

/// `watch`: subscribes and prints every status event until Ctrl-C or until the daemon closes.
/// On a terminal the block is redrawn in place (cursor up + clear to end of screen); piped,
/// one line per update; with --json, one compact JSON object per line.
struct Watcher {
    let client: Client
    let invocation: Invocation

    /// ANSI: move to the start of the line `n` lines up, then clear to the end of the screen.
    static func redrawPrefix(previousLines n: Int) -> String {
        n > 0 ? "\u{1B}[\(n)F\u{1B}[J" : ""
    }

    func run() -> ExitCode {
        let console = client.console
        let conn: LineConnection
        do { conn = try client.connect(client.controlPath(invocation)) } catch {
            return client.report(.connection(error), json: invocation.json)
        }
        let first: JSON
        switch client.exchange(ControlRequest.watch.encoded(), on: conn, timeout: client.requestTimeout) {
        case .failure(let f): return client.report(f, json: invocation.json)
        case .success(let r): first = r
        }
        let signals = client.catchesSignals ? Interrupts.install() : -1
        var shownLines = 0
        func show(_ update: JSON) {
            if invocation.json {
                console.out(update.serialized() + "\n")
                return
            }
            let update = TerminalText.visible(update)
            if console.isTerminal {
                // A line wider than the terminal would wrap and break the cursor-up count.
                let width = console.columns().map { max($0 - 1, 10) }
                let lines = client.renderer.statusLines(update).map { l in width.map { l.count > $0 ? String(l.prefix($0)) : l } ?? l }
                console.out(Watcher.redrawPrefix(previousLines: shownLines) + lines.joined(separator: "\n") + "\n")
                shownLines = lines.count
            } else {
                console.out(client.renderer.statusLine(update) + "\n")
            }
        }
        show(Client.withoutOK(first))
        while true {
            switch conn.wait(timeout: nil, alsoWatch: signals >= 0 ? signals : nil) {
            case .interrupted, .timedOut:
                if Interrupts.pending() { return .ok }
                continue
            case .readable:
                break
            }
            guard case .success(let line) = client.readSubscribedLine(conn) else { return .unavailable }
            guard let line else {
                console.err("workoutctl: workoutd closed the connection.\n")
                return .ok
            }
            if line.isEmpty { continue }
            guard let event = try? JSON.parse(line), event.objectValue != nil else { continue }
            if invocation.json { show(event); continue }
            // Status events carry the status fields; other events (if any) are not drawn.
            if StatusReply.isStatusEvent(event) { show(event) }
        }
    }
}
