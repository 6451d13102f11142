/// A short name for one machine (one daemon's state directory), written into the IDs of the
/// workouts it records or imports and into each saved file's `revision`: two machines that
/// share a history folder and start a workout in the same second still make distinct IDs, and
/// a conflict says which machine made each version. Six characters of `[a-z2-7]` (30 random
/// bits, drawn by the shell once and kept in the state directory: docs/storage.md).
public struct MachineTag: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String

    /// 1 to 16 lowercase letters and digits (what may follow an ID's random part).
    public init?(rawValue: String) {
        guard (1...16).contains(rawValue.utf8.count),
              rawValue.utf8.allSatisfy({ isDigit($0) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) })
        else { return nil }
        self.rawValue = rawValue
    }

    /// The tag made from 30 bits of `random` (base32, RFC 4648 alphabet in lowercase).
    public init(random: UInt64) {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)
        var bytes: [UInt8] = []
        for k in 0..<MachineTag.length { bytes.append(alphabet[Int((random >> UInt64(5 * k)) & 31)]) }
        rawValue = String(decoding: bytes, as: UTF8.self)
    }

    /// Characters in a drawn tag.
    public static let length = 6

    public var description: String { rawValue }
    public static func < (a: MachineTag, b: MachineTag) -> Bool { a.rawValue < b.rawValue }
}
