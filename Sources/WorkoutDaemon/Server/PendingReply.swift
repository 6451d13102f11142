import Synchronization
import WorkoutCore

/// A reply that comes later, from work done off the event loop (import, export, edit): event
/// lines may come first, then exactly one reply. Meanwhile the connection's further requests
/// wait (their bytes are held), and a client that hangs up or shuts its writing side cancels
/// the work (`cancel` is read by the worker between files).
/// `@unchecked Sendable`: used on the loop thread only; a worker merely carries it back inside a
/// closure posted to the loop. `cancel` is the one part read from other threads (atomic).
public final class PendingReply: @unchecked Sendable {
    /// Set by the control server: queues a line (without newline) on the connection.
    var deliver: (([UInt8]) -> Void)?
    /// Set by the control server: the final reply was delivered.
    var completed: (() -> Void)?
    public let cancel = CancelFlag()
    private var finished = false

    public init() {}

    /// An event line (compact JSON without newline) before the reply. Dropped once finished or
    /// after the client went away.
    public func send(event line: [UInt8]) {
        guard !finished else { return }
        deliver?(line)
    }

    /// The final reply; later calls are ignored.
    public func finish(_ reply: ControlReply) {
        guard !finished else { return }
        finished = true
        switch reply {
        case .value(let json): deliver?(Array(json.serialized().utf8))
        case .encodedSuccess(let line): deliver?(line)
        case .pending: break  // not a final reply
        }
        completed?()
        deliver = nil
        completed = nil
    }

    /// The client went away: nothing more is delivered and the work stops at the next file.
    func abandon() {
        cancel.set()
        deliver = nil
        completed = nil
    }
}

/// A flag one thread sets and another polls (a worker between files).
public final class CancelFlag: Sendable {
    private let value = Atomic<Bool>(false)
    public init() {}
    public func set() { value.store(true, ordering: .relaxed) }
    public var isSet: Bool { value.load(ordering: .relaxed) }
}
