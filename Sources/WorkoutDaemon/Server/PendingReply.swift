import Synchronization
import WorkoutCore

/// A reply that comes later, from work done off the event loop (import, export, edit): event
/// lines may come first, then exactly one reply. Meanwhile the connection's further requests
/// wait (their bytes are held), and a client that hangs up or shuts its writing side cancels
/// the work (`cancel` is read by the worker between files).
/// Confined to the loop thread: a worker carries it back to the loop as a `LoopBound`. `cancel`
/// is the one part read from other threads (atomic).
public final class PendingReply {
    public let cancel = CancelFlag()
    private var phase = Phase.unattached

    /// Where the reply stands; each case carries what exists in that phase.
    private enum Phase {
        /// Answered later, no connection attached yet (the server attaches it as it queues the
        /// reply, before any posted closure can run). -> attached, finished, abandoned
        case unattached
        /// Lines go to the connection: `deliver` queues one (without newline), `completed` says
        /// the final reply was delivered. -> finished, abandoned
        case attached(deliver: ([UInt8]) -> Void, completed: () -> Void)
        /// The final reply was delivered; later calls are ignored (an expected race).
        case finished
        /// The client went away: nothing more is delivered.
        case abandoned
    }

    public init() {}

    /// The control server attaches the connection the lines go to.
    func attach(deliver: @escaping ([UInt8]) -> Void, completed: @escaping () -> Void) {
        guard case .unattached = phase else { return }
        phase = .attached(deliver: deliver, completed: completed)
    }

    /// An event line (compact JSON without newline) before the reply. Dropped once finished or
    /// after the client went away.
    public func send(event line: [UInt8]) {
        guard case .attached(let deliver, _) = phase else { return }
        deliver(line)
    }

    /// The final reply; later calls are ignored.
    public func finish(_ reply: ControlReply) {
        let attached = phase
        switch attached {
        case .finished, .abandoned: return
        case .unattached, .attached: break
        }
        phase = .finished
        guard case .attached(let deliver, let completed) = attached else { return }  // no connection: nobody to answer
        switch reply {
        case .value(let json): deliver(Array(json.serialized().utf8))
        case .encodedSuccess(let line): deliver(line)
        case .pending: break  // not a final reply
        }
        // Delivering may have found the client gone (a failed write drops the connection).
        guard case .finished = phase else { return }
        completed()
    }

    /// The client went away: nothing more is delivered and the work stops at the next file.
    func abandon() {
        cancel.set()
        phase = .abandoned
    }
}

/// A flag one thread sets and another polls (a worker between files).
public final class CancelFlag: Sendable {
    private let value = Atomic<Bool>(false)
    public init() {}
    public func set() { value.store(true, ordering: .relaxed) }
    public var isSet: Bool { value.load(ordering: .relaxed) }
}
