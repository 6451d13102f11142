import WorkoutCore

/// The logind lock on sleep (config `sleepInhibitor`, docs/dbus.md): taken and let go by the
/// core's `inhibitSleep`/`allowSleep` actions (a workout starts or resumes recording; it is
/// paused or stopped). With a delay lock, logind's PrepareForSleep flushes and fsyncs the
/// journal before the lock goes.
extension Daemon {
    func makeSleepInhibitor() -> SleepInhibitor? {
        let address: DBusAddress
        do { address = try DBusAddress.system(environment: environment) } catch {
            inhibitorProblem = "no sleep inhibitor: DBUS_SYSTEM_BUS_ADDRESS: \(error)"
            return nil
        }
        inhibitorProblem = nil
        let inhibitor = SleepInhibitor(loop: loop, mode: config.sleepInhibitor, address: address)
        inhibitor.onPrepareForSleep = { [unowned self] in
            // Before the lock goes: every fix so far durably in the journal.
            self.flushJournal()
            self.log(SleepInhibitorLogEvent.flushedForSleep(error: self.journal.lastError?.description))
        }
        inhibitor.onChange = { [unowned self] state in
            self.log(SleepInhibitorLogEvent.changed(state))
            self.publish()
        }
        return inhibitor
    }

    /// `sleepInhibitor` changed on reload: the old lock goes; the new mode applies from the next
    /// start or resume.
    func reconfigureSleepInhibitor() {
        sleepInhibitor?.release()
        sleepInhibitor = makeSleepInhibitor()
    }

    /// For `status`: `{"mode": configured, "held": mode or null, "state": in words}`.
    func sleepInhibitorJSON() -> JSON {
        var o = JSONObject()
        o["mode"] = .string(config.sleepInhibitor.rawValue)
        o["held"] = .string(sleepInhibitor?.state.heldMode?.rawValue)
        o["state"] = .string(sleepInhibitor?.state.description ?? inhibitorProblem ?? "no sleep inhibitor")
        return .object(o)
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
