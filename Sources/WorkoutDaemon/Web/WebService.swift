import Glibc
import Synchronization
import WorkoutCore
import WorkoutSystem

/// The web pages (docs/web.md) as a service of the daemon: starts the server after the control
/// socket and stops it first. Its thread reaches the rest of the daemon through `WebBackend`
/// alone: the store, and closures the daemon wires (`runRequest`: a control request answered
/// on the loop, as the edit form needs; `liveDelta`: the workout in progress's news, copied on
/// the loop). Confined to the loop thread: the web thread reaches it only through closures
/// posted to the loop, holding it as a `LoopBound`.
final class WebService: DaemonService {
    let context: DaemonContext
    let store: HistoryStore
    /// The server (nil when off, unavailable, or before `start`).
    private(set) var server: WebServer?
    /// Runs a control request on the loop and answers with its reply (the router's `handle`).
    var runRequest: (ControlRequest) -> ControlReply = { _ in .value(ControlServer.errorReply(.badRequest("not wired"))) }
    /// The live workout's news since the web thread's copy (the recording service's lifecycle).
    var liveDelta: (LiveRequest) -> LiveDelta = { _ in LiveDelta(state: "idle", id: nil, summary: nil, reset: true, points: [], events: [], fix: "none") }
    /// The streak rules' calculator (zone, week start, day start), from the reminder service.
    var calendar: () -> StreakCalculator = { StreakCalculator(zone: .utc) }

    /// The part of the configuration this service reads, its own: taken at start-up and
    /// replaced by `reload`.
    private(set) var config: Settings

    struct Settings: Equatable {
        var web: WebConfig?
        var units: Units
        var habits: [Habit]

        init(_ c: Config) { web = c.web; units = c.units; habits = c.habits }
    }

    init(context: DaemonContext, config c: Config, store: HistoryStore) {
        self.context = context
        self.store = store
        config = Settings(c)
    }

    private func log(_ e: some LogEvent) { context.log(e) }

    let name = "web"
    /// The TCP socket systemd passed as `web` (socket activation), set before `start`.
    var activatedFD: Int32?

    /// Serves the pages; a failure is logged and the daemon goes on without them.
    func start() { listen(activatedFD: activatedFD) }

    /// Stops accepting and closes the pages' connections.
    func stop(by deadline: Double, then done: @escaping () -> Void) {
        close()
        done()
    }

    /// Listens on `web.listen` (or adopts `activatedFD`, socket activation); a failure is
    /// logged and the daemon goes on without pages.
    private func listen(activatedFD: Int32?) {
        guard activatedFD != nil || config.web != nil else { log(WebLogEvent.off); return }
        let listen = config.web?.listen ?? "(socket activation)"
        do {
            let fd: Int32
            var taken: (listen: String, reason: String)?
            if let activatedFD {
                guard WebListener.boundPort(activatedFD) != nil else {
                    throw SystemError("the socket systemd passed as \"web\" is not a TCP socket", code: ENOTSOCK)
                }
                fd = activatedFD
            } else {
                var web = config.web!
                // An embedding test's daemons run many at once: the default port is the one its
                // ports name (any free one, 0), so they neither collide nor take the user's 8765.
                if let port = context.ports.webDefaultPort, web == WebConfig() { web.port = port }
                let bound = try Self.listen(web)
                fd = bound.fd
                taken = bound.taken
            }
            let keys = try WebKeys()
            let settings = WebSettingsBox(makeSettings())
            let server = WebServer(loop: context.loop, listenFD: fd, keys: keys, settings: settings, backend: makeBackend(settings), limits: limits())
            self.server = server
            if let taken { log(WebLogEvent.portTaken(listen: taken.listen, reason: taken.reason, url: server.baseURL)) }
            let (address, reach) = WebListener.listeningAddress(fd) ?? (server.baseURL, .loopback)
            switch reach {
            case .loopback: log(WebLogEvent.listening(url: server.baseURL, address: address, activated: activatedFD != nil))
            case .beyondLoopback: log(WebLogEvent.listeningBeyondLoopback(url: server.baseURL, address: address, activated: activatedFD != nil))
            }
        } catch {
            log(WebLogEvent.unavailable(listen: listen, reason: "\(error)"))
        }
    }

    /// Listens on `web`; when its port is taken and the address is the default (no `web.listen`
    /// written), on any free port instead, returning what was taken and why. The control
    /// socket's `web` reply (`workoutctl open`) carries the port really bound.
    private static func listen(_ web: WebConfig) throws(SystemError) -> (fd: Int32, taken: (listen: String, reason: String)?) {
        do {
            return (try WebListener.listen(web).fd, nil)
        } catch {
            guard error.code == EADDRINUSE, web.origin.fallsBackToFreePort else { throw error }
            var free = web
            free.port = 0
            return (try WebListener.listen(free).fd, (web.listen, error.reason))
        }
    }

    private func close() {
        server?.close()
        server = nil
    }

    /// After a reload: new settings for the pages (units, habits, the streak calendar); a
    /// changed `web` key moves the server.
    func reload(_ r: inout ConfigReload) {
        config = Settings(r.new)
        server?.settings.set(makeSettings())
        r.applied(.web, .units, .habits, .streaks, .timeZone)
        guard r.changed(.web) else { return }
        close()
        listen(activatedFD: nil)
    }

    /// The reply to `web`: the URL that opens the pages (with the token).
    func urlReply(_ id: WorkoutID?) -> ControlReply {
        guard let server else {
            let why = config.web == nil ? "the web pages are off (config web: null)" : "the web pages are not available (see the log: web.unavailable)"
            return .value(ControlServer.errorReply(ProtocolError(code: "web_unavailable", message: why)))
        }
        return .value(ControlServer.okReply([("url", .string(server.url(path: id.map { "/workouts/" + $0.rawValue } ?? "/")))]))
    }

    /// The web server's limits: the ports' (`DaemonPorts.webLimits`; a test shortens the times).
    private func limits() -> WebThread.Limits { context.ports.webLimits }

    private func makeSettings() -> WebSettings {
        WebSettings(units: UnitFormatter(config.units), calendar: calendar(), habits: config.habits, version: Daemon.version, tiles: config.web?.tiles)
    }

    private func makeBackend(_ settings: WebSettingsBox) -> WebBackend {
        let loop = context.loop
        let me = LoopBound(WeakReference(self), loop: loop)
        return WebBackend(
            store: store,
            request: { request, reply in
                loop.post {
                    guard let self = me.value.object else { return }
                    switch self.runRequest(request) {
                    case .value(let json): reply(json)
                    case .encodedSuccess(let bytes): reply((try? JSON.parse(bytes)) ?? ["ok": true])
                    case .pending(let pending):
                        pending.attach(deliver: { line in
                            let json = (try? JSON.parse(line)) ?? ["ok": false]
                            if json["ok"] != nil { reply(json) }  // event lines before the reply carry no "ok"
                        }, completed: {})
                    }
                }
            },
            live: { since, reply in
                loop.post {
                    guard let self = me.value.object else { return }
                    reply(self.liveDelta(since))
                }
            },
            settings: { settings.get() }
        )
    }
}

/// The settings the web thread reads, replaced on reload.
final class WebSettingsBox: Sendable {
    private let value: Mutex<WebSettings>
    init(_ initial: WebSettings) { value = Mutex(initial) }
    func get() -> WebSettings { value.withLock { $0 } }
    func set(_ s: WebSettings) { value.withLock { $0 = s } }
}
