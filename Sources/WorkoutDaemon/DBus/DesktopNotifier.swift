import Glibc
import WorkoutCore

/// Desktop notifications through org.freedesktop.Notifications on the session bus (the
/// Desktop Notifications spec's Notify). Each notice has a kind (e.g. "streak-at-risk",
/// "workout-saved"); a new notice of a kind replaces the previous one on screen (its
/// replaces_id is the id the server gave the previous one) instead of piling up. When the bus
/// or the notification server is missing it reports the problem once through `onProblem`
/// and carries on: later notices try again, and a success re-arms the report.
/// Runs on the loop thread; never blocks it (the connection and its calls are asynchronous).
public final class DesktopNotifier {
    /// How insistent a notice is (the spec's "urgency" hint).
    public enum Urgency: UInt8, Sendable {
        case low = 0, normal = 1, critical = 2
    }

    /// One notice waiting to go out.
    private struct Notice {
        var summary: String
        var body: String
        var urgency: Urgency
        var expireMilliseconds: Int32
    }

    /// Whether the last attempt worked; a problem is reported once until a notice gets through.
    private enum Health: Equatable {
        case fine
        case reported(String)
    }

    public let appName: String
    /// Called once per outage with a sentence for the log ("desktop notifications unavailable: ...").
    public var onProblem: ((String) -> Void)?
    /// Called for each notice the server accepted: kind and the id it got.
    public var onDelivered: ((String, UInt32) -> Void)?
    /// Seconds a Notify call may take.
    public var callTimeout = 5.0

    private let loop: EventLoop
    private let address: () throws(DBusError) -> DBusAddress
    private var connection: DBusConnection?
    private var health = Health.fine
    /// The server's id of the last notice of each kind (its replaces_id next time).
    private var ids: [String: UInt32] = [:]
    /// Kinds with a Notify in flight: a newer notice of that kind waits here (only the newest).
    private var inFlight: Set<String> = []
    private var waiting: [String: Notice] = [:]

    /// `address`: the session bus, e.g. `{ try DBusAddress.session(environment: env) }`; read
    /// at every (re)connection, so a session bus that appears later is found.
    public init(loop: EventLoop, appName: String = "workoutd", address: @escaping () throws(DBusError) -> DBusAddress) {
        self.loop = loop
        self.appName = appName
        self.address = address
    }

    public convenience init(loop: EventLoop, environment: [String: String], appName: String = "workoutd") {
        self.init(loop: loop, appName: appName) { () throws(DBusError) -> DBusAddress in try DBusAddress.session(environment: environment) }
    }

    deinit { connection?.close() }

    /// Shows `summary` and `body`, replacing the previous notice of `kind`.
    /// `expireMilliseconds`: -1 lets the server decide, 0 never expires.
    public func notify(kind: String, summary: String, body: String, urgency: Urgency = .normal, expireMilliseconds: Int32 = -1) {
        let notice = Notice(summary: summary, body: body, urgency: urgency, expireMilliseconds: expireMilliseconds)
        guard !inFlight.contains(kind) else {
            waiting[kind] = notice  // sent once the previous one's id is known, so it replaces it
            return
        }
        send(kind, notice)
    }

    private func send(_ kind: String, _ notice: Notice) {
        let bus: DBusConnection
        do { bus = try connect() } catch {
            problem("desktop notifications unavailable: \(error)")
            return
        }
        inFlight.insert(kind)
        let call = DBusMessage.methodCall(
            destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
            interface: "org.freedesktop.Notifications", member: "Notify",
            body: [.string(appName), .uint32(ids[kind] ?? 0), .string(""), .string(notice.summary), .string(notice.body),
                   .strings([]), .properties([("urgency", .byte(notice.urgency.rawValue)), ("desktop-entry", .string(appName))]),
                   .int32(notice.expireMilliseconds)])
        bus.call(call, timeout: callTimeout) { [weak self] result in
            guard let self else { return }
            self.inFlight.remove(kind)
            switch result {
            case .success(let reply):
                for f in reply.fds { close(f) }  // Notify returns none; a stray one is not leaked
                if let id = reply.body.first?.uint32 {
                    self.ids[kind] = id
                    self.health = .fine
                    self.onDelivered?(kind, id)
                }
            case .failure(let e):
                self.problem("desktop notifications unavailable: \(e)")
            }
            if let next = self.waiting.removeValue(forKey: kind) { self.send(kind, next) }
        }
    }

    private func connect() throws(DBusError) -> DBusConnection {
        if let c = connection, !c.isClosed { return c }
        let c = try DBusConnection(address: try address(), loop: loop)
        c.onClose = { [weak self] _ in self?.connection = nil }
        connection = c
        return c
    }

    private func problem(_ text: String) {
        guard case .fine = health else { return }
        health = .reported(text)
        onProblem?(text)
    }
}
