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

    /// The ID of the same workout starting at `start` instead: its random part and machine tag
    /// kept (an ID that is not of the `init(start:suffix:)` shape gets the new time in front).
    public func withStart(_ start: Double) -> WorkoutID {
        let time = String(WorkoutID(start: start, suffix: 0).rawValue.prefix(WorkoutID.timeLength))
        let parts = rawValue.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2, parts[0].utf8.count == WorkoutID.timeLength - 1 {
            return WorkoutID(unchecked: time + parts[1])
        }
        return WorkoutID(rawValue: String((time + rawValue).prefix(64))) ?? self
    }

    /// `YYYYMMDDTHHMMSSZ-`: the start time and its dash.
    static let timeLength = 17

    /// The tag of the machine that made this ID (`init(start:suffix:machine:)`), nil for IDs
    /// without one.
    public var machine: MachineTag? {
        let parts = rawValue.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].utf8.count == WorkoutID.timeLength - 1, parts[1].utf8.count == 4 else { return nil }
        return MachineTag(rawValue: String(parts[2]))
    }

    public var description: String { rawValue }
    public static func < (a: WorkoutID, b: WorkoutID) -> Bool { a.rawValue < b.rawValue }
}
