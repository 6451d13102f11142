/// When a GPS problem that keeps repeating is logged: each distinct problem once (after a source
/// connects, or GPS is closed, they count as new again), then, while the problems go on, one
/// reminder after `firstReminder` seconds and at a falling rate after that (the interval doubles,
/// up to `maxInterval`), instead of a line on every retry.
struct ProblemReminder {
    static let firstReminder = 60.0
    static let maxInterval = 3600.0

    private var logged: Set<String> = []
    private var nextReminder: Double?
    private var interval = ProblemReminder.firstReminder
    /// Repeats not logged since the last line (given to the reminder).
    private(set) var suppressed = 0

    /// What to log for `problem` (identified by `key`) at monotonic time `now`.
    enum Decision: Equatable {
        /// A problem not logged since the last reset.
        case new
        /// The problems go on: a reminder, with the repeats not logged since the last line.
        case reminder(repeats: Int)
        case quiet
    }

    mutating func report(_ key: String, now: Double) -> Decision {
        if logged.insert(key).inserted {
            if nextReminder == nil { nextReminder = now + interval }
            suppressed = 0
            return .new
        }
        if let due = nextReminder, now >= due {
            interval = min(interval * 2, Self.maxInterval)
            nextReminder = now + interval
            let n = suppressed
            suppressed = 0
            return .reminder(repeats: n)
        }
        suppressed += 1
        return .quiet
    }

    /// A source connected, or GPS closed: the next problem is news again.
    mutating func reset() { self = ProblemReminder() }
}
