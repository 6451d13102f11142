import WorkoutCore

/// The GPS side of `status`: which source, what fix, how old, and the last problem in words.
public struct GPSStatus: Sendable {
    public var source: String?
    public var fixMode: FixMode = .noFix
    public var lastFixMonotonic: Double?
    public var satellites: Int?
    public var problem: String?
    /// Receiver time minus the workout's clock as learned by `ReceiverClock` (replays,
    /// week-rollover bugs); for a simulation feed, its fix time minus the daemon's clock.
    public var clockOffsetSeconds: Double?
    /// The receiver clock's problem in words (shown as `problem` when the source has no other).
    public var clockProblem: String?
    /// Input rejected by the feeds, by reason, summed over connections (never goes down).
    public var rejectedInput: [String: Int] = [:]
    /// Sources connected but not feeding the workout (one source feeds it at a time).
    public var otherSources = 0
    /// Fixes from those sources, counted and left out of the track.
    public var otherSourceFixes = 0

    public init() {}

    public var fix: String { fixMode.label }

    /// As `status` shows it (`GPSReply`, docs/protocol.md).
    public func reply(nowMonotonic: Double) -> GPSReply {
        GPSReply(source: source, fix: fix, lastFixAgeSeconds: lastFixMonotonic.map { ((nowMonotonic - $0) * 10).rounded() / 10 },
                 satellites: satellites, problem: problem ?? clockProblem, clockOffsetSeconds: clockOffsetSeconds.map { $0.rounded() },
                 rejectedInput: rejectedInput, otherSources: otherSources, otherSourceFixes: otherSourceFixes)
    }

    public func json(nowMonotonic: Double) -> JSON { reply(nowMonotonic: nowMonotonic).json() }
}
