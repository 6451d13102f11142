/// A workout's identifier: its UTC start time and a random suffix, e.g. `20261121T093000Z-3f9a`.
/// Sorting IDs sorts workouts by start; the suffix is an input (the core draws no randomness).
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

    public var description: String { rawValue }
    public static func < (a: WorkoutID, b: WorkoutID) -> Bool { a.rawValue < b.rawValue }
}
