/// Places a GPS receiver's fixes on the workout's clock, whatever the receiver's own clock says.
///
/// The receiver's clock gives the intervals between fixes (distances and speeds are measured on
/// it, exactly); its offset to the system's clock (receiver minus system) is learned from the
/// first fix's arrival and removed, so a receiver 16 s, a day or 8 years behind (week-rollover
/// bugs, replayed logs) records the same track as one in sync. Offsets within
/// `Settings.syncTolerance` are taken as none: such receivers keep their own times.
///
/// A fix is *in sequence* with the previous trusted one when its receiver time moved between
/// `-slack` and `arrival interval + slack` seconds (a replay sent faster than real time is in
/// sequence: each step is one receiver interval). A fix out of sequence is a candidate, placed by
/// its arrival and not trusted: if the next fix is in sequence with the trusted clock again, it
/// was an outlier (one fix dated +1 h, 2099 or 9999 cannot move the workout's clock or end); if
/// `confirmations` fixes in a row agree with each other instead, the receiver's clock really
/// stepped and the offset is learned again. A receiver whose time stands still while its fixes
/// keep arriving for more than `slack` seconds has a frozen clock: its fixes are placed by their
/// arrival (at least one receiver interval apart) and the problem is shown, until its time moves
/// again and the offset is learned afresh (issue 27 item 12: 19 of 30 fixes were lost, each given
/// the one time). Pure: arrival times come in as arguments (the workout's clock when the fix was
/// read).
public struct ReceiverClock: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Seconds a receiver interval may exceed the arrival interval (reading in batches,
        /// receivers sending every few seconds) or run backwards (a repeated fix).
        public var slack: Double
        /// Fixes in a row (the first included) that must agree before a step is accepted, and
        /// before the receiver's time is trusted to date a workout.
        public var confirmations: Int
        /// Offsets smaller than this (seconds) are not removed.
        public var syncTolerance: Double

        public init(slack: Double = 3, confirmations: Int = 3, syncTolerance: Double = ClockOffsetText.threshold) {
            self.slack = slack
            self.confirmations = confirmations
            self.syncTolerance = syncTolerance
        }
    }

    /// How a fix was placed.
    public enum Placement: Sendable, Equatable {
        /// In sequence: receiver time minus the learned offset.
        case receiver
        /// Out of sequence (an outlier or an unconfirmed step): at its arrival.
        case arrival
    }

    public struct Placed: Sendable, Equatable {
        /// The fix's time on the workout's clock.
        public var time: Double
        public var placement: Placement
        public var events: [ReceiverClockEvent]
    }

    private struct Anchor: Sendable, Equatable {
        var receiver: Double
        var arrival: Double
    }

    private enum Phase: Sendable, Equatable {
        case unknown
        /// Every fix since `last` was learned has been in sequence.
        case tracking(last: Anchor)
        /// `agreeing` fixes in a row, the latest `candidate`, are out of sequence with `last` and
        /// in sequence with each other; `pending` fixes in all are out of sequence with `last`.
        case suspect(last: Anchor, candidate: Anchor, agreeing: Int, pending: Int)
        /// The receiver's time has stood at `standing` for longer than the slack while fixes
        /// kept arriving: they are placed by arrival.
        case frozen(standing: Double)
    }

    public let settings: Settings
    private var phase = Phase.unknown
    /// Receiver minus system time as removed from fixes (0 within the tolerance); nil before a fix.
    public private(set) var offset: Double?
    /// Receiver minus system time as measured when last learned.
    public private(set) var measuredOffset: Double?
    /// Fixes in sequence since the offset was last learned.
    public private(set) var consistentFixes = 0
    /// Out-of-sequence fixes dismissed as outliers.
    public private(set) var outliers = 0
    /// The clock problem in words (`gps.problem`), nil when the clocks agree.
    public private(set) var problem: String?
    /// The latest time given to a fix (by the receiver's clock, or by arrival while it is frozen).
    private var lastPlaced = -Double.infinity
    /// Where the receiver's time last moved forward (a frozen clock is told by the arrivals since).
    private var lastAdvance: Anchor?
    /// The receiver's latest step forward in seconds (the spacing of fixes placed while frozen).
    private var interval = 1.0

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// Whether the receiver's time is consistent enough to date a workout (`DateSource`).
    public var isTrusted: Bool {
        switch phase {
        case .tracking: return consistentFixes >= settings.confirmations
        case .unknown, .suspect, .frozen: return false
        }
    }

    private func inSequence(_ r: Double, _ a: Double, after p: Anchor) -> Bool {
        let dr = r - p.receiver
        return dr >= -settings.slack && dr <= max(0, a - p.arrival) + settings.slack
    }

    /// Learns the offset from a fix placed at its arrival, or, when fixes already placed by the
    /// receiver's clock run ahead of arrival (a replay faster than real time), right after the
    /// last of them, so the workout's track never runs backwards at a step.
    private mutating func learn(_ r: Double, _ a: Double, into events: inout [ReceiverClockEvent]) {
        let measured = r - max(a, lastPlaced)
        measuredOffset = measured
        offset = abs(measured) < settings.syncTolerance ? 0 : measured
        phase = .tracking(last: Anchor(receiver: r, arrival: a))
        lastAdvance = Anchor(receiver: r, arrival: a)
        let p = ClockOffsetText.problem(offset: measured, receiverTime: r)
        if p != problem {
            problem = p
            events.append(.problemChanged(p))
        }
    }

    /// Places one fix: `receiverTime` is the fix's own time, `arrival` the workout's clock when
    /// it was read. A fix without a finite time is returned as it is (the filter rejects it).
    public mutating func place(receiverTime r: Double, arrival a: Double) -> Placed {
        guard r.isFinite, a.isFinite else { return Placed(time: r, placement: .receiver, events: []) }
        var events: [ReceiverClockEvent] = []
        switch phase {
        case .unknown:
            learn(r, a, into: &events)
            events.insert(.offsetLearned(measured: measuredOffset ?? 0, applied: offset ?? 0), at: 0)
            consistentFixes = 1
            return placedByReceiver(r, a, events)
        case .frozen(let standing):
            guard r > standing else { return placedByArrival(a, []) }
            // Its time moves again: learned afresh, after the fixes placed meanwhile.
            let old = measuredOffset ?? 0
            learn(r, a, into: &events)
            events.insert(.stepAccepted(from: old, to: measuredOffset ?? 0, fixes: 1), at: 0)
            consistentFixes = 1
            return placedByReceiver(r, a, events)
        case .tracking(let last):
            if let advance = lastAdvance, r <= advance.receiver, a - advance.arrival > settings.slack {
                phase = .frozen(standing: advance.receiver)
                let p = "the receiver's clock stands still at \(ISO8601.format(advance.receiver)): its fixes are placed by their arrival"
                problem = p
                return placedByArrival(a, [.problemChanged(p)])
            }
            if inSequence(r, a, after: last) {
                phase = .tracking(last: Anchor(receiver: r, arrival: a))
                consistentFixes += 1
                return placedByReceiver(r, a, [])
            }
            phase = .suspect(last: last, candidate: Anchor(receiver: r, arrival: a), agreeing: 1, pending: 1)
            return Placed(time: a, placement: .arrival, events: [])
        case .suspect(let last, let candidate, let agreeing, let pending):
            if inSequence(r, a, after: last) {
                outliers += pending
                let deviation = candidate.receiver - (last.receiver + (candidate.arrival - last.arrival))
                events.append(.outliersIgnored(count: pending, deviation: deviation))
                phase = .tracking(last: Anchor(receiver: r, arrival: a))
                consistentFixes += 1
                return placedByReceiver(r, a, events)
            }
            guard inSequence(r, a, after: candidate) else {
                phase = .suspect(last: last, candidate: Anchor(receiver: r, arrival: a), agreeing: 1, pending: pending + 1)
                return Placed(time: a, placement: .arrival, events: [])
            }
            guard agreeing + 1 >= settings.confirmations else {
                phase = .suspect(last: last, candidate: Anchor(receiver: r, arrival: a), agreeing: agreeing + 1, pending: pending + 1)
                return Placed(time: a, placement: .arrival, events: [])
            }
            let old = measuredOffset ?? 0
            learn(r, a, into: &events)
            events.insert(.stepAccepted(from: old, to: measuredOffset ?? 0, fixes: agreeing + 1), at: 0)
            consistentFixes = agreeing + 1
            return placedByReceiver(r, a, events)
        }
    }

    /// A fix of a frozen clock: at its arrival, and at least one receiver interval after the
    /// previous fix (fixes read together arrive together).
    private mutating func placedByArrival(_ a: Double, _ events: [ReceiverClockEvent]) -> Placed {
        let t = max(a, lastPlaced + interval)
        lastPlaced = t
        return Placed(time: t, placement: .arrival, events: events)
    }

    private mutating func placedByReceiver(_ r: Double, _ a: Double, _ events: [ReceiverClockEvent]) -> Placed {
        if let advance = lastAdvance, r > advance.receiver, r - advance.receiver <= 10 { interval = r - advance.receiver }
        if lastAdvance.map({ r > $0.receiver }) ?? true { lastAdvance = Anchor(receiver: r, arrival: a) }
        let t = r - (offset ?? 0)
        lastPlaced = max(lastPlaced, t)
        return Placed(time: t, placement: .receiver, events: events)
    }

    /// The workout's clock moved by `seconds` (its dates now come from the receiver, or back):
    /// arrivals are restated on the new clock, so the receiver's offset to it shrinks by as much.
    public mutating func workoutClockShifted(by seconds: Double) -> [ReceiverClockEvent] {
        func moved(_ p: Anchor) -> Anchor { Anchor(receiver: p.receiver, arrival: p.arrival + seconds) }
        lastPlaced += seconds
        lastAdvance = lastAdvance.map(moved)
        switch phase {
        case .unknown, .frozen: break
        case .tracking(let last): phase = .tracking(last: moved(last))
        case .suspect(let last, let c, let n, let k): phase = .suspect(last: moved(last), candidate: moved(c), agreeing: n, pending: k)
        }
        if case .unknown = phase { return [] }
        guard let m = measuredOffset else { return [] }
        let measured = m - seconds
        measuredOffset = measured
        offset = abs(measured) < settings.syncTolerance ? 0 : measured
        if case .frozen = phase { return [] }  // its problem stays the frozen clock
        let p = ClockOffsetText.problem(offset: measured, receiverTime: lastReceiverTime ?? 0)
        guard p != problem else { return [] }
        problem = p
        return [.problemChanged(p)]
    }

    /// The receiver's own time of the latest fix (nil before a fix).
    public var latestReceiverTime: Double? { lastReceiverTime }

    private var lastReceiverTime: Double? {
        switch phase {
        case .unknown: return nil
        case .tracking(let last): return last.receiver
        case .suspect(_, let c, _, _): return c.receiver
        case .frozen(let standing): return standing
        }
    }
}
