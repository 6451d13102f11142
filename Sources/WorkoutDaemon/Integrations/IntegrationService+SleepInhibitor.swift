import WorkoutCore

/// The logind lock on sleep (config `sleepInhibitor`, docs/dbus.md): taken and let go by the
/// core's `inhibitSleep`/`allowSleep` actions (a workout starts or resumes recording; it is
/// paused or stopped). With a delay lock, logind's PrepareForSleep flushes and fsyncs the
/// journal before the lock goes.
extension IntegrationService {
    func makeSleepLock() -> SleepLock {
        let address: DBusAddress
        do { address = try DBusAddress.system(environment: context.environment) } catch {
            return .none(problem: "no sleep inhibitor: DBUS_SYSTEM_BUS_ADDRESS: \(error)")
        }
        let inhibitor = SleepInhibitor(loop: context.loop, mode: config.sleepInhibitor, address: address)
        inhibitor.onPrepareForSleep = { [unowned self] in self.onPrepareForSleep() }
        inhibitor.onChange = { [unowned self] state in
            self.log(SleepInhibitorLogEvent.changed(state))
            self.onSleepLockChanged()
        }
        return .inhibitor(inhibitor)
    }

    /// The core's `inhibitSleep`: a workout records.
    func inhibitSleep() {
        if case .inhibitor(let i) = sleepLock { i.acquire() }
    }

    /// The core's `allowSleep`: no workout records.
    func allowSleep() {
        if case .inhibitor(let i) = sleepLock { i.release() }
    }

    /// `sleepInhibitor` changed on reload: the old lock goes; the new mode applies from the next
    /// start or resume.
    func reconfigureSleepInhibitor() {
        allowSleep()
        sleepLock = makeSleepLock()
    }

    /// For `status`: the configured mode, the mode held, and the state in words.
    func sleepInhibitorReply() -> SleepInhibitorReply {
        let mode = config.sleepInhibitor.rawValue
        switch sleepLock {
        case .inhibitor(let i): return SleepInhibitorReply(mode: mode, held: i.state.heldMode?.rawValue, state: i.state.description)
        case .none(let problem): return SleepInhibitorReply(mode: mode, held: nil, state: problem)
        }
    }
}

/// Log lines of the sleep inhibitor.
enum SleepInhibitorLogEvent: LogEvent {
    case changed(SleepInhibitor.State)
    case flushedForSleep(error: String?)

    var name: String {
        switch self {
        case .changed: return "sleep.inhibitor"
        case .flushedForSleep: return "sleep.prepare"
        }
    }

    var level: LogLevel {
        switch self {
        case .changed(let s):
            switch s {
            case .refused, .unavailable: return .warning
            case .off, .acquiring, .held, .sleeping: return .info
            }
        case .flushedForSleep(let e): return e == nil ? .notice : .error
        }
    }

    var message: String {
        switch self {
        case .changed(let s): return "Sleep inhibitor: \(s.description)"
        case .flushedForSleep(let e): return e.map { "Suspend announced; journal flush failed: \($0)" } ?? "Suspend announced; journal flushed before letting the lock go"
        }
    }

    var fields: [(String, LogValue)] {
        switch self {
        case .changed(let s): return [("held", .string(s.heldMode?.rawValue ?? "none"))]
        case .flushedForSleep(let e): return [("error", .string(e ?? ""))]
        }
    }
}
