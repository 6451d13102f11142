/// Control of a smart trainer through its Fitness Machine Control Point (FTMS 1.0, 0x2AD9;
/// docs/plans.md, "The trainer"), as a pure machine: the plan says what it wants (`want`), the
/// BlueZ side reports the trainer's presence and its indications, the loop ticks it; it returns
/// the writes to make, in order, one at a time: a write goes only after the trainer answered the
/// last one (an indication `[0x80, opcode, result]`) or it timed out.
///
/// - Request Control (0x00) first, with the control point's indications on.
/// - Set Target Power (0x05, sint16 W: ERG mode) when the wanted power changes; a ramp's new
///   watts each second, but never faster than the trainer answers (the latest wanted power goes
///   next, the ones in between are skipped).
/// - Stop/Pause (0x08 0x02) with the workout's pause; Start/Resume (0x07) before the power again.
///   The link stays up through the pause (`keepsLinkWhilePaused`).
/// - Reset (0x01) when nothing is wanted (a step without power, the plan's end): the trainer is
///   left free.
/// - "Control not permitted" (result 5), a write without an answer for `answerTimeout`, and a
///   dropout lose control: it is taken again (at once when the trainer returns, else after
///   `retryDelay`) and the wanted power sent again.
public struct TrainerControl: Sendable {
    /// What the plan wants of the trainer.
    public enum Want: Sendable, Equatable {
        /// Nothing: free (no plan, a step without power, the end).
        case free
        /// Hold this power (ERG).
        case power(Int)
        /// The workout is paused (the plan asks for its power again on resume).
        case paused
    }

    /// Where control stands. The wanted state is kept beside it in every phase.
    public enum Phase: Sendable, Equatable {
        /// No trainer connected. -> idle (`connected`).
        case absent
        /// Connected, not controlled: nothing wanted, or control released. -> requesting.
        case idle
        /// Request Control written at `since`, its answer awaited. -> controlled, waiting, absent.
        case requesting(since: Double)
        /// In control; `pending` is the write awaiting its answer (nil: none), `applied` what the
        /// trainer last acknowledged. -> controlled, requesting, waiting, idle, absent.
        case controlled(applied: Applied, pending: Pending?)
        /// Refused or timed out: control is asked again at `retryAt`. -> requesting, absent.
        case waiting(retryAt: Double, reason: String)
    }

    /// What the trainer holds, as it acknowledged.
    public enum Applied: Sendable, Equatable {
        /// Controlled, no target set yet (or it was reset).
        case none
        case power(Int)
        /// Stopped/paused (Stop/Pause acknowledged).
        case paused
    }

    /// A write awaiting the trainer's answer.
    public struct Pending: Sendable, Equatable {
        public var opcode: UInt8
        public var since: Double
        /// What the trainer holds once it answers "success".
        public var then: Applied
        /// Reset: after success the trainer is free (idle).
        public var releases: Bool
    }

    public private(set) var phase: Phase = .absent
    public private(set) var want: Want = .free

    /// A write unanswered this long has timed out.
    public static let answerTimeout = 2.0
    /// How long after a refusal control is asked again.
    public static let retryDelay = 2.0

    public init() {}

    /// Whether closing the sensors for the workout's pause should leave the link up: the plan
    /// wants the trainer paused while it is controlled (or control is being taken), so Stop/Pause
    /// and then Start/Resume go over the same connection, as the FTMS spec has it, rather than a
    /// Reset and a new Request Control.
    public var keepsLinkWhilePaused: Bool {
        guard want == .paused else { return false }
        switch phase {
        case .requesting, .controlled: return true
        case .absent, .idle, .waiting: return false
        }
    }

    /// The plan wants `w` now.
    public mutating func want(_ w: Want, now: Double) -> [TrainerAction] {
        guard w != want else { return [] }
        want = w
        return next(now: now)
    }

    /// The trainer's control point is there (connected, services resolved): control is taken
    /// when something is wanted.
    public mutating func connected(now: Double) -> [TrainerAction] {
        guard case .absent = phase else { return [] }
        phase = .idle
        return next(now: now)
    }

    /// The trainer dropped out: control is lost with it (a trainer releases control on
    /// disconnect); what is wanted is kept for its return.
    public mutating func disconnected(now: Double) -> [TrainerAction] {
        switch phase {
        case .absent: return []
        case .idle, .requesting, .controlled, .waiting:
            let held = phase != .idle
            phase = .absent
            return held ? [.log(.lost("the trainer dropped out"))] : []
        }
    }

    /// The daemon closes the connection itself (the workout paused or ended; the sensors close
    /// with it): a trainer under control is reset first, its Reset written at once whether or
    /// not a write is in flight (nothing waits for an answer any more), so it is never left
    /// holding a power. No warning is said; what is wanted is kept.
    public mutating func closed() -> [TrainerAction] {
        let held: Bool
        switch phase {
        case .requesting, .controlled: held = true
        case .absent, .idle, .waiting: held = false
        }
        phase = .absent
        return held ? [.write([0x01])] : []
    }

    /// An indication of the control point: the answer to the last write.
    public mutating func indicated(_ bytes: [UInt8], now: Double) -> [TrainerAction] {
        guard bytes.count >= 3, bytes[0] == 0x80 else { return [.log(.unexpected(bytes))] }
        let opcode = bytes[1], result = bytes[2]
        switch phase {
        case .requesting where opcode == 0x00:
            guard result == 0x01 else { return refused(opcode, result, now: now) }
            phase = .controlled(applied: .none, pending: nil)
            return [.log(.controlTaken)] + next(now: now)
        case .controlled(let applied, let pending?) where pending.opcode == opcode:
            guard result == 0x01 else {
                if result == 0x05 { return refused(opcode, result, now: now) }
                // Not supported or invalid: said once, not sent again for the same want.
                phase = .controlled(applied: pending.then, pending: nil)
                return [.log(.writeFailed(opcode: opcode, result: result))]
            }
            if pending.releases {
                phase = .idle
                return [.log(.released)] + next(now: now)
            }
            phase = .controlled(applied: pending.then, pending: nil)
            var actions: [TrainerAction] = []
            if case .power(let w) = pending.then, applied != pending.then { actions.append(.log(.targetSet(watts: w))) }
            return actions + next(now: now)
        case .absent, .idle, .requesting, .controlled, .waiting:
            return []  // an answer to a write of an earlier control: an expected race
        }
    }

    /// Once a second: time-outs and retries.
    public mutating func tick(now: Double) -> [TrainerAction] {
        switch phase {
        case .requesting(let since) where now - since >= Self.answerTimeout:
            phase = .waiting(retryAt: now, reason: "no answer to Request Control")
            return [.log(.timedOut(opcode: 0x00))] + next(now: now)
        case .controlled(_, let pending?) where now - pending.since >= Self.answerTimeout:
            phase = .requesting(since: now)
            return [.log(.timedOut(opcode: pending.opcode)), .enableIndications, .write([0x00])]
        case .waiting(let retryAt, _) where now >= retryAt:
            return next(now: now)
        case .absent, .idle, .requesting, .controlled, .waiting:
            return []
        }
    }

    private mutating func refused(_ opcode: UInt8, _ result: UInt8, now: Double) -> [TrainerAction] {
        let reason = result == 0x05 ? "control not permitted" : "result \(result)"
        phase = .waiting(retryAt: now + Self.retryDelay, reason: reason)
        return [.log(.refused(opcode: opcode, reason: reason))]
    }

    /// The next write toward what is wanted, if none is in flight.
    private mutating func next(now: Double) -> [TrainerAction] {
        switch phase {
        case .absent, .requesting:
            return []
        case .controlled(_, .some):
            return []  // one write at a time: the rest follows its answer
        case .waiting(let retryAt, _):
            guard now >= retryAt, want != .free else { return [] }
            phase = .requesting(since: now)
            return [.enableIndications, .write([0x00])]
        case .idle:
            guard want != .free else { return [] }
            phase = .requesting(since: now)
            return [.enableIndications, .write([0x00])]
        case .controlled(let applied, nil):
            let write: (bytes: [UInt8], then: Applied, releases: Bool)?
            switch (want, applied) {
            case (.free, _): write = ([0x01], .none, true)
            case (.power(let w), .power(let a)) where w == a: write = nil
            case (.power, .paused): write = ([0x07], .none, false)
            case (.power(let w), .none), (.power(let w), .power): write = ([0x05] + Self.int16(w), .power(w), false)
            case (.paused, .power), (.paused, .none): write = ([0x08, 0x02], .paused, false)
            case (.paused, .paused): write = nil
            }
            guard let write else { return [] }
            phase = .controlled(applied: applied, pending: Pending(opcode: write.bytes[0], since: now, then: write.then, releases: write.releases))
            return [.write(write.bytes)]
        }
    }

    static func int16(_ w: Int) -> [UInt8] {
        let v = UInt16(bitPattern: Int16(clamping: w))
        return [UInt8(v & 0xFF), UInt8(v >> 8)]
    }
}

/// What the shell does for the trainer's control.
public enum TrainerAction: Sendable, Equatable {
    /// StartNotify on the control point (its indications), if not on already.
    case enableIndications
    /// WriteValue on the control point.
    case write([UInt8])
    case log(TrainerLogEvent)
}

/// The trainer control's log lines (docs/logging.md).
public enum TrainerLogEvent: LogEvent, Equatable {
    case controlTaken
    case targetSet(watts: Int)
    case released
    case refused(opcode: UInt8, reason: String)
    case timedOut(opcode: UInt8)
    case writeFailed(opcode: UInt8, result: UInt8)
    case lost(String)
    case unexpected([UInt8])

    public var name: String {
        switch self {
        case .controlTaken: "trainer.control"
        case .targetSet: "trainer.target"
        case .released: "trainer.released"
        case .refused, .timedOut, .writeFailed, .lost, .unexpected: "trainer.problem"
        }
    }

    public var level: LogLevel {
        switch self {
        case .controlTaken, .released: .info
        case .targetSet: .debug
        case .refused, .timedOut, .writeFailed, .lost, .unexpected: .warning
        }
    }

    public var message: String {
        switch self {
        case .controlTaken: "Controlling the trainer (ERG)"
        case .targetSet(let w): "Trainer target \(w) W"
        case .released: "Trainer released"
        case .refused(let op, let reason): "The trainer refused \(TrainerLogEvent.opName(op)): \(reason); asking again"
        case .timedOut(let op): "The trainer did not answer \(TrainerLogEvent.opName(op)); taking control again"
        case .writeFailed(let op, let result): "The trainer could not do \(TrainerLogEvent.opName(op)) (result \(result))"
        case .lost(let why): "Trainer control lost: \(why); taken again when it returns"
        case .unexpected(let bytes): "Unexpected control point answer \(bytes.map { String($0, radix: 16) }.joined(separator: " "))"
        }
    }

    public var fields: [(String, LogValue)] {
        switch self {
        case .controlTaken, .released: []
        case .targetSet(let w): [("watts", .int(w))]
        case .refused(let op, let reason): [("opcode", .int(Int(op))), ("reason", .string(reason))]
        case .timedOut(let op): [("opcode", .int(Int(op)))]
        case .writeFailed(let op, let result): [("opcode", .int(Int(op))), ("result", .int(Int(result)))]
        case .lost(let why): [("reason", .string(why))]
        case .unexpected(let bytes): [("bytes", .int(bytes.count))]
        }
    }

    static func opName(_ op: UInt8) -> String {
        switch op {
        case 0x00: "Request Control"
        case 0x01: "Reset"
        case 0x05: "Set Target Power"
        case 0x07: "Start/Resume"
        case 0x08: "Stop/Pause"
        default: "opcode \(op)"
        }
    }
}
