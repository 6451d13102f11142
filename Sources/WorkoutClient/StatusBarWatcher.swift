import WorkoutCore

/// `watch --format waybar|i3bar`: subscribes to status events and prints one line whenever
/// what the bar shows changes. When idle, the habits due today come from a `streak` request,
/// asked again after each status event and every minute (days and periods roll over).
struct StatusBarWatcher {
    let client: Client
    let invocation: Invocation
    let format: StatusBarFormat

    func run() -> ExitCode {
        let console = client.console
        let path = client.controlPath(invocation)
        let conn: LineConnection
        do { conn = try LineConnection.connect(path: path) } catch {
            return client.report(.connection(error), json: false)
        }
        var status: JSON
        switch client.exchange(ControlRequest.watch.encoded(), on: conn, timeout: client.requestTimeout) {
        case .failure(let f): return client.report(f, json: false)
        case .success(let r): status = r
        }
        if let h = StatusBar.header(format) { console.out(h + "\n") }
        let signals = client.catchesSignals ? Interrupts.install() : -1
        var last = ""
        func show() {
            var streak: JSON? = nil
            if StatusReply(json: status).workout == nil, case .success(let r) = client.exchange(ControlRequest.streak.encoded(), socket: path, timeout: 10) {
                streak = r
            }
            let line = StatusBar.line(StatusBar.content(status: TerminalText.visible(status), streak: streak.map(TerminalText.visible)), format: format)
            if line != last { console.out(line + "\n"); last = line }
        }
        show()
        while true {
            switch conn.wait(timeout: 60, alsoWatch: signals >= 0 ? signals : nil) {
            case .interrupted:
                if Interrupts.pending() { return .ok }
                continue
            case .timedOut:
                if Interrupts.pending() { return .ok }
                show()
                continue
            case .readable:
                break
            }
            guard case .success(let line) = client.readSubscribedLine(conn) else { return .unavailable }
            guard let line else { return .ok }
            guard let event = try? JSON.parse(line), event.objectValue != nil, StatusReply.isStatusEvent(event) else { continue }
            status = event
            show()
        }
    }
}
