import Glibc
import Synchronization
import WorkoutCore
import WorkoutSystem

/// The web pages (docs/web.md): the server is started after the control socket; its thread
/// reaches the daemon through `WebBackend` alone (the store, a control request posted to the
/// loop, the live workout's news posted to the loop, the settings).
extension Daemon {
    func startWeb(activatedFD: Int32?) {
        guard activatedFD != nil || config.web != nil else { log(WebLogEvent.off); return }
        let listen = config.web?.listen ?? "(socket activation)"
        do {
            let fd: Int32
            if let activatedFD {
                fd = activatedFD
            } else {
                var listen = config.web!
                // Test daemons (test hooks on) run many at once: the default port becomes any
                // free port, so they neither collide nor take the user's 8765.
                if testHooks, listen == WebConfig() { listen.port = 0 }
                fd = try WebListener.listen(listen).fd
            }
            let token = try WebToken.loadOrCreate(paths)
            let settings = WebSettingsBox(makeWebSettings())
            let server = WebServer(loop: loop, listenFD: fd, token: token, settings: settings, backend: makeWebBackend(settings), limits: webLimits())
            web = server
            log(WebLogEvent.listening(url: server.baseURL, activated: activatedFD != nil))
        } catch {
            log(WebLogEvent.unavailable(listen: listen, reason: "\(error)"))
        }
    }

    func stopWeb() {
        web?.close()
        web = nil
    }

    /// After a reload: new settings for the pages; a changed `web` key moves the server.
    func reconfigureWeb(changed: [String]) {
        web?.settings.set(makeWebSettings())
        guard changed.contains("web") else { return }
        stopWeb()
        startWeb(activatedFD: nil)
    }

    /// The web server's limits; with test hooks, `WORKOUTD_TEST_WEB_SECONDS=S` makes every time
    /// limit S seconds and `WORKOUTD_TEST_WEB_CONNECTIONS=N` caps connections at N, so tests of
    /// slow clients take a second, not ten.
    func webLimits() -> WebThread.Limits {
        var l = WebThread.Limits()
        guard testHooks else { return l }
        if let s = environment["WORKOUTD_TEST_WEB_SECONDS"].flatMap(Double.init), s > 0 {
            l.requestSeconds = s; l.idleSeconds = s; l.stallSeconds = s
        }
        if let n = environment["WORKOUTD_TEST_WEB_CONNECTIONS"].flatMap(Int.init), n > 0 { l.maxConnections = n }
        return l
    }

    func makeWebSettings() -> WebSettings {
        WebSettings(units: UnitFormatter(config.units), calendar: streakCalculator().0, habits: config.habits, version: Daemon.version)
    }

    func makeWebBackend(_ settings: WebSettingsBox) -> WebBackend {
        let loop = self.loop
        return WebBackend(
            store: store,
            request: { [unowned self] request, reply in
                loop.post {
                    switch self.handle(request) {
                    case .value(let json): reply(json)
                    case .encodedSuccess(let bytes): reply((try? JSON.parse(bytes)) ?? ["ok": true])
                    case .pending(let pending):
                        pending.deliver = { line in
                            let json = (try? JSON.parse(line)) ?? ["ok": false]
                            if json["ok"] != nil { reply(json) }  // event lines before the reply carry no "ok"
                        }
                        pending.completed = {}
                    }
                }
            },
            live: { [unowned self] since, reply in
                loop.post { reply(self.lifecycle.liveDelta(since: since, now: self.now(), fix: self.feeds?.status.fix ?? "none")) }
            },
            settings: { settings.get() }
        )
    }

    /// The reply to `web`: the URL that opens the pages (with the token).
    func webReply(path: String) -> JSON {
        guard let web else {
            let why = config.web == nil ? "the web pages are off (config web: null)" : "the web pages are not available (see the log: web.unavailable)"
            return ControlServer.errorReply(ProtocolError(code: "web_unavailable", message: why))
        }
        return ControlServer.okReply([("url", .string(web.url(path: path)))])
    }
}

/// The settings the web thread reads, replaced on reload.
final class WebSettingsBox: Sendable {
    private let value: Mutex<WebSettings>
    init(_ initial: WebSettings) { value = Mutex(initial) }
    func get() -> WebSettings { value.withLock { $0 } }
    func set(_ s: WebSettings) { value.withLock { $0 = s } }
}
