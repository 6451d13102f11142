/// The byte order a message is marshalled in; the first byte of every message says which.
public enum DBusEndianness: UInt8, Sendable, CaseIterable {
    case little = 0x6C  // 'l'
    case big = 0x42     // 'B'
}
