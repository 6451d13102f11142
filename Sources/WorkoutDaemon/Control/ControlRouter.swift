import Glibc
import WorkoutCore

/// The control router: owns the control server and sends each request to the service that
/// answers it through the closures the daemon wired (`ControlRoutes`: the workout's commands to
/// recording; the history's requests to history; streaks and totals to reminders); it holds no
/// service. `reload` goes back to the daemon, which owns the configuration's replacement. It
/// renders the recording's snapshot as the status every reply and `watch` event carries
/// (`ControlRouter+Status.swift`). Confined to the loop thread.
final class ControlRouter: DaemonService {
    let context: DaemonContext
    let routes: ControlRoutes
    /// The control server (nil before `start` and after `stop`).
    private(set) var server: ControlServer?
    /// The current workout's splits and laps as encoded for the last status line.
    var statusCache = SummaryJSONCache()
    /// `reload`: the daemon reads the configuration again and answers.
    var onReload: () -> JSON = { ControlServer.okReply() }

    init(context: DaemonContext, config c: Config, routes: ControlRoutes) {
        self.context = context
        self.routes = routes
        config = Settings(c)
    }

    /// The part of the configuration the router reads, its own: taken at start-up and replaced
    /// by `reload`.
    private(set) var config: Settings

    struct Settings: Equatable {
        var limits: LimitsConfig
        var units: Units

        init(_ c: Config) { limits = c.limits; units = c.units }
    }

    /// `"units"` for replies a person reads: the display units (`metric`, `imperial`).
    var unitsPair: (String, JSON) { ("units", .string(config.units.rawValue)) }

    let name = "control"

    /// The listening control socket the daemon bound or adopted before the services start
    /// (`boundPath`: the file to remove at the end, when the daemon bound it rather than systemd).
    var listening: (fd: Int32, boundPath: String?)?

    /// Serves the control socket; started last, so no request arrives before every service runs.
    func start() {
        guard let (fd, boundPath) = listening else { return }
        server = ControlServer(loop: context.loop, listenFD: fd, limits: config.limits, boundPath: boundPath) { [unowned self] req, fds in self.handle(req, descriptors: fds) }
        server?.onDescriptorExhaustion = { [unowned self] out, why in
            self.context.log(out ? DaemonLogEvent.descriptorsExhausted(why) : DaemonLogEvent.descriptorsAvailable)
        }
    }

    /// Stops accepting and closes every client (the shutdown's first step).
    func stop(by deadline: Double, then done: @escaping () -> Void) {
        server?.close()
        server = nil
        done()
    }

    /// A reload replaced the configuration: the control socket's limits apply at once, to the
    /// clients connected too (`ControlServer.limits`).
    func reload(_ r: inout ConfigReload) {
        config = Settings(r.new)
        server?.limits = config.limits
        r.applied(.limits)
    }

    /// `descriptors`: what the request carried (SCM_RIGHTS), owned from here on.
    func handle(_ request: ControlRequest, descriptors: [Int32] = []) -> ControlReply {
        // `last` (docs/protocol.md): the newest saved workout; for undelete, the one deleted last.
        guard request.workoutID == .last else { return dispatch(request, descriptors: descriptors) }
        if case .undelete = request {
            guard let id = routes.lastDeletedID() else {
                return .value(ControlServer.errorReply(ProtocolError(code: "not_in_trash", message: "no deleted workout to restore (the trash is empty)")))
            }
            return dispatch(request.naming(id), descriptors: descriptors)
        }
        guard let id = routes.newestID() else {
            return .value(ControlServer.errorReply(ProtocolError(code: "not_found", message: "no saved workout yet: `last` names the newest one")))
        }
        return dispatch(request.naming(id), descriptors: descriptors)
    }

    /// Sends `request` (`last` replaced by then) to the service that answers it.
    private func dispatch(_ request: ControlRequest, descriptors: [Int32]) -> ControlReply {
        // Every feed line sent before a stop (pause, lap ...) counts in it (`simulate FILE; stop`);
        // other requests are not held up by a flood on the feed socket.
        if request.readsFeedFirst { routes.catchUpFeeds() }
        switch request {
        case .status: return .encodedSuccess(encodedStatus(.reply))
        case .watch: return .encodedSuccess(encodedStatus(.subscribedReply))
        case .start(let activity): return answer(routes.start(activity))
        case .startPlanned(let activity, let plan): return answer(routes.startPlanned(activity, plan))
        case .next: return answer(routes.next())
        case .pause: return answer(routes.pause())
        case .resume: return answer(routes.resume())
        case .lap: return answer(routes.lap())
        case .marker(let text): return answer(routes.marker(text))
        case .stop:
            // The reply names the personal bests the workout set (docs/protocol.md).
            if let refusal = routes.stop() { return answer(refusal) }
            let snapshot = routes.snapshot()
            let bests = snapshot.workout.map(routes.personalBests) ?? []
            return .encodedSuccess(encodedStatus(.reply, snapshot, personalBests: bests))
        case .toggle: return answer(routes.toggle())
        case .activities:
            return .value(ControlServer.okReply([("activities", .array(ActivityType.allCases.map { $0.activityReply() }))]))
        case .list(let filter): return routes.list(filter)
        case .show(let id): return routes.show(id)
        case .export(let id, let format): return routes.export(id, format, nil)
        case .exportTo(let id, let format): return routes.export(id, format, descriptors[0])
        case .importFiles(let files, let activity):
            return routes.importFiles(files.map { .init(source: .path($0), file: $0) }, activity, false)
        case .importDescriptors(let items, let activity):
            let batch = zip(items, descriptors).map { item, fd in
                ImportBatch.Item(source: .descriptor(fd), file: item.file, activity: item.activity, title: item.title,
                                 notes: item.notes, gear: item.gear, effort: item.effort)
            }
            return routes.importFiles(batch, activity, true)
        case .edit(let id, let edit): return routes.edit(id, edit)
        case .recompute(let id, let overrides, let save): return routes.recompute(id, overrides, save)
        case .delete(let id): return routes.delete(id)
        case .undelete(let id): return routes.undelete(id)
        case .streak:
            return .value(ControlServer.okReply([("streak", routes.streak()), unitsPair]))
        case .totals(let per, let activity):
            return .value(ControlServer.okReply([("totals", routes.totals(per, activity)), unitsPair]))
        case .reload:
            return .value(onReload())
        case .web(let id): return routes.webURL(id)
        case .charts(let id, let columns): return routes.charts(id, columns)
        case .analytics(let a): return routes.analytics(a, routes.streakZone(), context.now())
        }
    }

    /// A workout command's answer: the status, or the refusal in words.
    private func answer(_ refusal: LifecycleRefusal?) -> ControlReply {
        answer(refusal.map { ProtocolError(code: $0.code, message: $0.message) })
    }

    private func answer(_ error: ProtocolError?) -> ControlReply {
        guard let error else { return .encodedSuccess(encodedStatus(.reply)) }
        return .value(ControlServer.errorReply(error))
    }
}
