import WorkoutCore

/// The answer to one control request, as the control server queues it.
public enum ControlReply {
    /// A reply built as a JSON value; serialised when queued.
    case value(JSON)
    /// A successful (`"ok":true`) reply already encoded as compact JSON text, without the
    /// newline: `status` and the transitions answered with it, written straight to bytes.
    case encodedSuccess([UInt8])
    /// Answered later (work off the loop): the connection waits for `PendingReply.finish`.
    case pending(PendingReply)

    /// Whether the request succeeded (a `watch` that succeeded subscribes the connection).
    var succeeded: Bool {
        switch self {
        case .value(let json): return json["ok"]?.boolValue == true
        case .encodedSuccess: return true
        case .pending: return false
        }
    }
}
