/// A workout's identifier: its UTC start time, a random suffix and the tag of the machine that
/// made it, e.g. `20261121T093000Z-3f9a-k3m9xa` (IDs made before machine tags end after the
/// random part: `20261121T093000Z-3f9a`). Sorting IDs sorts workouts by start; two machines
/// sharing a history folder never make the same ID (`MachineTag`). The suffix and the tag are
/// inputs (the core draws no randomness).
public struct WorkoutID: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String

    public init?(rawValue: String) {
        // Safe as a file name: letters, digits, '-', '_', 'T', 'Z'; no path separators or dots.
        guard !rawValue.isEmpty, rawValue.utf8.count <= 64,
              rawValue.utf8.allSatisfy({ isDigit($0) || ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        else { return nil }
        self.rawValue = rawValue
    }

    /// Builds the ID of a workout starting at `start` with a caller-supplied random `suffix`.
    public init(start: Double, suffix: UInt16) {
        let c = CivilTime(utc: start)
        let hex = String(suffix, radix: 16)
        self.rawValue = ISO8601.pad(c.year, 4) + ISO8601.pad(c.month, 2) + ISO8601.pad(c.day, 2) + "T"
            + ISO8601.pad(c.hour, 2) + ISO8601.pad(c.minute, 2) + ISO8601.pad(c.second, 2) + "Z-"
            + String(repeating: "0", count: 4 - hex.count) + hex
    }

    /// The same, followed by `-` and the machine's tag: distinct across machines.
    public init(start: Double, suffix: UInt16, machine: MachineTag?) {
        self.init(start: start, suffix: suffix)
        if let machine { self.init(unchecked: rawValue + "-" + machine.rawValue) }
    }

    private init(unchecked rawValue: String) { self.rawValue = rawValue }

    /// The tag of the machine that made this ID (`init(start:suffix:machine:)`), nil for IDs
    /// without one.
    public var machine: MachineTag? {
        let parts = rawValue.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].utf8.count == WorkoutID.stampLength, parts[1].utf8.count == 4 else { return nil }
        return MachineTag(rawValue: String(parts[2]))
    }

    /// The same ID for a workout whose start moved to `start` (a simulated track rebased on its
    /// first fix, dates moved to a receiver's clock): the leading UTC time follows the start,
    /// whatever follows it (the suffix) stays, so IDs keep sorting by start.
    public func startingAt(_ start: Double) -> WorkoutID {
        let old = Array(rawValue.utf8)
        guard old.count > WorkoutID.stampLength, old[WorkoutID.stampLength - 1] == UInt8(ascii: "Z"), old[8] == UInt8(ascii: "T") else { return self }
        let stamp = Array(WorkoutID(start: start, suffix: 0).rawValue.utf8.prefix(WorkoutID.stampLength))
        return WorkoutID(rawValue: String(decoding: stamp + old.dropFirst(WorkoutID.stampLength), as: UTF8.self)) ?? self
    }

    /// Characters of the leading time, "20261121T093000Z".
    static let stampLength = 16

    public var description: String { rawValue }
    public static func < (a: WorkoutID, b: WorkoutID) -> Bool { a.rawValue < b.rawValue }
}
