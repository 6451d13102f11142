import WorkoutCore

/// Hooks: every log event passes the logger's tap (which also feeds desktop
/// notifications, IntegrationService+Notifications.swift); events that a configured hook
/// names (or `*`) become one JSON object on the hook program's stdin, run by `HookRunner`
/// on worker threads. The loop only encodes the event and queues it.
extension IntegrationService {
    /// Starts the runner and taps the logger (once, at start-up; `config.hooks` is read per
    /// event, so a reload takes effect at once).
    func installHooks() {
        let loop = context.loop
        let me = LoopBound(WeakReference(self), loop: loop)
        hookRunner = HookRunner(environment: context.environment, trampoline: context.hookTrampoline) { job, outcome in
            let program = job.argv.first ?? "?"
            let kind: HookLogEvent.Kind
            switch outcome {
            case .exited(let status, let ms): kind = status == 0 ? .ran(milliseconds: ms) : .failed(status: status)
            case .signaled(let s): kind = .signaled(s)
            case .timedOut: kind = .timedOut(seconds: job.timeout)
            case .spawnFailed(let e): kind = .spawnFailed(e)
            }
            loop.post { me.value.object?.log(HookLogEvent(kind: kind, event: job.event, program: program)) }
        }
        context.logger.tap = { [unowned self] event, wallTime in
            self.feedHooks(event, wallTime: wallTime)
            self.notifyDesktop(event)
        }
    }

    func feedHooks(_ event: any LogEvent, wallTime: Double) {
        let hooks = config.hooks
        guard !hooks.isEmpty, !event.name.hasPrefix("hook."), let runner = hookRunner else { return }
        var input: [UInt8]? = nil
        for h in hooks where h.matches(event.name) {
            if input == nil { input = Array((IntegrationService.hookJSON(event, wallTime: wallTime).serialized() + "\n").utf8) }
            let job = HookRunner.Job(argv: h.run, input: input!, timeout: h.timeoutSeconds, event: event.name)
            if !runner.submit(job) { log(HookLogEvent(kind: .dropped(queued: runner.maxQueued), event: event.name, program: h.run[0])) }
        }
    }

    /// The event as a hook sees it: `event`, `level`, `message`, `time`, then its fields with
    /// their types (a field named like one of the first four gets a trailing `_`).
    static func hookJSON(_ event: any LogEvent, wallTime: Double) -> JSON {
        var o = JSONObject([("event", .string(event.name)), ("level", .string(event.level.label)),
                            ("message", .string(event.message)), ("time", .string(ISO8601.format(wallTime)))])
        for (k0, v) in event.fields {
            let k = ["event", "level", "message", "time"].contains(k0) ? k0 + "_" : k0
            switch v {
            case .string(let s): o[k] = .string(s)
            case .int(let i): o[k] = .int(i)
            case .double(let d, _): o[k] = d.isFinite ? .number(d) : .null
            case .bool(let b): o[k] = .bool(b)
            }
        }
        return .object(o)
    }
}
