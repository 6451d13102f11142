import Glibc
import WorkoutCore

/// A logind inhibitor lock on sleep, held while a workout records:
/// `org.freedesktop.login1.Manager.Inhibit("sleep", "workoutd", why, mode)` returns a
/// descriptor, and the lock is held for as long as it stays open. When `block` is refused
/// (polkit: "Access denied" for a service without a login session) it takes `delay` and says
/// so. With a delay lock, logind's `PrepareForSleep(true)` runs `onPrepareForSleep` (the
/// daemon flushes and fsyncs its journal there) before the lock is let go, and the lock is
/// taken again after `PrepareForSleep(false)`. Everything runs on the loop thread.
public final class SleepInhibitor {
    /// Where the lock stands; each case carries what exists in that phase.
    public enum State: Equatable, Sendable, CustomStringConvertible {
        /// No lock: none wanted (no workout recording, or `sleepInhibitor` is off). -> acquiring
        case off
        /// Inhibit(mode) sent, no answer yet; `note` says why not block. -> held, refused, unavailable, off
        case acquiring(SleepInhibitMode, note: String?)
        /// The lock is held while `fd` is open; `note` says why this is not the mode asked for. -> sleeping, off
        case held(mode: SleepInhibitMode, fd: Int32, note: String?)
        /// A delay lock let go for a suspend in progress; taken again on resume. -> acquiring, off
        case sleeping
        /// logind refused every mode we may take. -> off, acquiring (next workout)
        case refused(String)
        /// No logind, or no system bus. -> off, acquiring (next workout)
        case unavailable(String)

        /// For `status`: which lock is held, or why none is.
        public var description: String {
            switch self {
            case .off: return "no sleep inhibitor held"
            case .acquiring(let mode, _): return "asking logind for a \(mode) lock on sleep"
            case .held(let mode, _, let note):
                let what = mode == .block ? "suspend is blocked while recording" : "a suspend waits until the journal is flushed"
                return "holding a logind \(mode) lock on sleep (\(what))" + (note.map { "; \($0)" } ?? "")
            case .sleeping: return "delay lock released for a suspend; taken again on resume"
            case .refused(let why): return "no sleep inhibitor: logind refused it (\(why))"
            case .unavailable(let why): return "no sleep inhibitor: \(why)"
            }
        }

        /// The mode of the lock held now, if any.
        public var heldMode: SleepInhibitMode? {
            if case .held(let mode, _, _) = self { return mode }
            return nil
        }
    }

    public private(set) var state: State = .off {
        didSet { if state != oldValue { onChange?(state) } }
    }
    /// Every state change (log it; status reads `state`).
    public var onChange: ((State) -> Void)?
    /// Called on PrepareForSleep(true) before a delay lock is let go (also with a block lock:
    /// a privileged suspend overrides it). Must finish its work before returning.
    public var onPrepareForSleep: (() -> Void)?
    /// Called on PrepareForSleep(false), after the machine resumed.
    public var onResume: (() -> Void)?

    public let mode: SleepInhibitMode
    public let why: String
    private let loop: EventLoop
    private let address: DBusAddress
    private var connection: DBusConnection?
    /// Seconds Inhibit may take (polkit can be slow; the loop never waits for it).
    public var callTimeout = 10.0

    static let logind = "org.freedesktop.login1"
    static let accessDeniedErrors: Set<String> = [
        "org.freedesktop.DBus.Error.AccessDenied",
        "org.freedesktop.DBus.Error.InteractiveAuthorizationRequired",
    ]
    static let noLogindErrors: Set<String> = [
        "org.freedesktop.DBus.Error.ServiceUnknown",
        "org.freedesktop.DBus.Error.NameHasNoOwner",
    ]

    /// `address`: the system bus (`DBusAddress.system(environment:)`).
    public init(loop: EventLoop, mode: SleepInhibitMode, address: DBusAddress, why: String = "recording a workout") {
        self.loop = loop
        self.mode = mode
        self.address = address
        self.why = why
    }

    deinit {
        if case .held(_, let fd, _) = state { close(fd) }
        connection?.close()
    }

    /// Takes the lock (a workout started recording). No-op when one is held or being asked
    /// for, or when the mode is `off`.
    public func acquire() {
        switch state {
        case .acquiring, .held, .sleeping: return
        case .off, .refused, .unavailable: break
        }
        switch mode {
        case .off: state = .off; return
        case .block, .delay: request(mode, note: nil)
        }
    }

    /// Lets the lock go (the workout stopped): closes the descriptor at once.
    public func release() {
        switch state {
        case .held(_, let fd, _): close(fd)
        case .off, .acquiring, .sleeping, .refused, .unavailable: break  // a late reply's fd is closed on arrival
        }
        state = .off
    }

    /// logind's PrepareForSleep: `true` before a suspend, `false` after the resume. Public so
    /// that a test can drive it where the machine cannot suspend.
    public func prepareForSleep(_ starting: Bool) {
        if starting {
            switch state {
            case .held(let heldMode, let fd, _):
                onPrepareForSleep?()
                switch heldMode {
                case .delay:
                    close(fd)
                    state = .sleeping
                case .block, .off: break  // a block lock is kept: only a privileged suspend gets here
                }
            case .off, .acquiring, .sleeping, .refused, .unavailable:
                break  // no lock of ours delays this suspend; nothing to flush for it
            }
        } else {
            onResume?()
            if case .sleeping = state { state = .off; acquire() }
        }
    }

    // MARK: - logind

    private func request(_ asked: SleepInhibitMode, note: String?) {
        state = .acquiring(asked, note: note)
        let bus: DBusConnection
        do { bus = try connect() } catch {
            state = .unavailable("\(error)")
            return
        }
        let call = DBusMessage.methodCall(destination: Self.logind, path: "/org/freedesktop/login1",
                                          interface: "org.freedesktop.login1.Manager", member: "Inhibit",
                                          body: [.string("sleep"), .string("workoutd"), .string(why), .string(asked.rawValue)])
        bus.call(call, timeout: callTimeout) { [weak self] result in
            guard let self else {
                if case .success(let r) = result { for f in r.fds { close(f) } }
                return
            }
            self.answered(asked, note: note, result)
        }
    }

    private func answered(_ asked: SleepInhibitMode, note: String?, _ result: Result<DBusIncoming, DBusError>) {
        guard case .acquiring(let waitingFor, _) = state, waitingFor == asked else {
            // Released (or re-asked) meanwhile: a lock nobody wants is let go at once.
            if case .success(let r) = result { for f in r.fds { close(f) } }
            return
        }
        switch result {
        case .success(let reply):
            guard let fd = reply.fd(at: 0) else {
                for f in reply.fds { close(f) }
                state = .unavailable("logind's Inhibit reply carried no descriptor (\(reply.message.signature))")
                return
            }
            for f in reply.fds where f != fd { close(f) }
            state = .held(mode: asked, fd: fd, note: note)
        case .failure(let e):
            if let name = e.remoteName, Self.accessDeniedErrors.contains(name) {
                switch asked {
                case .block:
                    request(.delay, note: "block was refused (\(e.remoteMessage ?? name)); a delay lock lets the journal be flushed before a suspend")
                case .delay, .off:
                    state = .refused(e.remoteMessage ?? name)
                }
            } else if let name = e.remoteName, Self.noLogindErrors.contains(name) {
                state = .unavailable("logind is not on the system bus (\(name))")
            } else {
                state = .unavailable("\(e)")
            }
        }
    }

    private func connect() throws(DBusError) -> DBusConnection {
        if let c = connection, !c.isClosed { return c }
        let c = try DBusConnection(address: address, loop: loop)
        c.onClose = { [weak self] _ in
            // Our lock lives in its descriptor, not in the connection: it stays held. Only
            // PrepareForSleep is lost until the next acquire connects again.
            self?.connection = nil
        }
        c.addMatch(DBusMatchRule(sender: Self.logind, path: "/org/freedesktop/login1",
                                 interface: "org.freedesktop.login1.Manager", member: "PrepareForSleep")) { [weak self] m in
            guard let starting = m.body.first?.bool else { return }
            self?.prepareForSleep(starting)
        }
        connection = c
        return c
    }
}

extension DBusError {
    /// An error reply's message text.
    public var remoteMessage: String? {
        if case .remote(_, let message) = self, !message.isEmpty { return message }
        return nil
    }
}
