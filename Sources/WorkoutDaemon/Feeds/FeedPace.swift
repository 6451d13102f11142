/// How the loop should watch a feed, from how much it sends. A light feed (under
/// `lightBytesPerSecond` over the last second; ten fixes a second are about 1.5 KB) is read
/// when the loop wakes anyway (at least once a second, and before any request is served), so
/// its fixes cost one wake-up a second instead of one each. A busy feed, a turn that ran out of
/// budget, and a feed whose pace is not yet known are read as soon as they have input, so a
/// flood is neither stalled nor held back by a full socket buffer.
struct FeedPace {
    /// Up to this many bytes a second a feed is light (~200 fix lines; a unix socket buffers
    /// ~200 KB, so a coalesced light feed never blocks its sender).
    static let lightBytesPerSecond = 32 * 1024

    /// What the last whole second showed.
    enum Pace { case unknown, light, busy }

    private(set) var pace = Pace.unknown
    private var windowStart: Double?
    private var windowBytes = 0

    /// Accounts one read turn at monotonic time `now`; returns the mode for the next one, or
    /// nil when the stream ended.
    mutating func next(after outcome: FeedReadOutcome, bytes: Int, now: Double) -> WatchMode? {
        let start = windowStart ?? now
        windowStart = start
        windowBytes += bytes
        if now - start >= 1 {
            pace = Double(windowBytes) < Double(FeedPace.lightBytesPerSecond) * (now - start) ? .light : .busy
            windowStart = now
            windowBytes = 0
        } else if windowBytes >= FeedPace.lightBytesPerSecond {
            pace = .busy  // no need to wait for the second to end
        }
        switch outcome {
        case .ended: return nil
        case .budgetSpent: return .immediate
        case .drained:
            switch pace {
            case .light: return .coalesced
            case .unknown, .busy: return .immediate
            }
        }
    }
}
